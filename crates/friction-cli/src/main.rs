fn main() {
    for m in friction_models::all() {
        println!("{:<20} {}", m.id, m.summary);
    }
}
