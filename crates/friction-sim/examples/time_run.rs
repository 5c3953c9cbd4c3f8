// scratch timing (not committed)
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let sys = friction_sim::scenario::load(std::path::Path::new(&a[1])).unwrap();
    let n: usize = a.get(2).map(|s| s.parse().unwrap()).unwrap_or(20);
    let mut ts = vec![];
    let mut last = None;
    for _ in 0..n {
        let t = std::time::Instant::now();
        let o = friction_sim::simulate(&sys).unwrap();
        ts.push(t.elapsed().as_secs_f64());
        last = Some(o);
    }
    ts.sort_by(|a, b| a.total_cmp(b));
    let o = last.unwrap();
    println!("{}: median {:.3} ms, {} steps, {} rej, {} rhs, {} jvp, {} [{}], fail {:?}", a[1], ts[n / 2] * 1e3, o.stats.steps, o.stats.rejected, o.stats.rhs_evals, o.stats.jacobian_products, o.stats.method, o.stats.linear_algebra, o.failure);
}
