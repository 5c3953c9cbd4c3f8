//! Reading a large CSV keeps the data once (issue 31): the peak heap of
//! `read_csv` is 8 bytes per value of each column read, at most twice that
//! while the column vectors grow, whatever the file's other columns; and
//! the progress reports bytes read up to the file's size.
//!
//! A counting global allocator measures the peak of live heap bytes; this
//! file holds one test so no other test allocates at the same time.

use std::fmt::Write as _;

use friction_analysis::data::{read_csv_with_progress, Columns, PROGRESS_ROWS};

#[path = "../../friction-sim/tests/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::peak_of;

#[test]
fn reading_a_large_csv_holds_each_column_once() {
    // 300,000 rows of t, x, v, F and two columns not read
    let rows = 300_000usize;
    let mut text = String::from("t,x,v,F,junk1,junk2\n");
    for i in 0..rows {
        let t = i as f64 * 1e-3;
        writeln!(
            text,
            "{t},{},{},{},1.5,2.5",
            (2.0 * t).sin(),
            2.0 * (2.0 * t).cos(),
            (2.0 * t).cos().signum()
        )
        .unwrap();
    }
    let p = std::env::temp_dir().join(format!("friction-read-memory-{}.csv", std::process::id()));
    std::fs::write(&p, &text).unwrap();
    let size = text.len() as u64;
    drop(text);

    let mut reports: Vec<(u64, u64)> = Vec::with_capacity(rows / PROGRESS_ROWS + 4);
    let (peak, s) =
        peak_of(|| read_csv_with_progress(&p, &Columns::default(), &mut |r, n| reports.push((r, n))));
    let s = s.unwrap();
    std::fs::remove_file(&p).unwrap();
    assert_eq!(s.len(), rows);
    assert!(s.x.is_some() && s.v.is_some() && s.f.is_some() && s.n.is_none());

    // 4 columns read: 32 bytes per row held, at most 64 while growing
    let per_row = peak / rows as f64;
    eprintln!("read_csv: peak {peak:.0} bytes, {per_row:.1} bytes per row of 4 columns read");
    assert!((32.0..=64.0 + 1.0).contains(&per_row), "{per_row:.1} bytes per row");

    // progress: rising byte counts, every PROGRESS_ROWS rows, ending at the size
    assert_eq!(reports.len(), rows / PROGRESS_ROWS + 1, "{reports:?}");
    assert!(reports.windows(2).all(|w| w[0].0 < w[1].0), "{reports:?}");
    assert!(reports.iter().all(|&(r, n)| n == size && r <= size), "{reports:?}");
    assert_eq!(reports.last().unwrap().0, size);
}
