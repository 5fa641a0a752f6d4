//! The generator's speed on one core, without the service: `cargo run --release -p sudoku-core
//! --example genspeed -- BOX_ROWS BOX_COLS SYMMETRY COUNT MINIMAL(1|0) [LEVEL|any|none]`, e.g.
//! `-- 3 3 none 20000 1` (no grading), `-- 3 3 rotate-180 500 1 hard`, `-- 3 3 none 500 1 any`.
//!
//! Prints puzzles a second (by wall clock, and by this process's CPU time where Linux reports it: on a
//! shared machine the CPU figure is the fair one), mean clues and mean attempts (full grids drawn) per
//! puzzle, a checksum of every puzzle made (two builds that make the same puzzles print the same
//! checksum), and with a level (or `any`), how many of each level came.

use std::time::Instant;
use sudoku_core::generator::{Limits, Spec, Symmetry, generate, generate_graded};
use sudoku_core::grader::Difficulty;
use sudoku_core::grid::Shape;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let br: usize = args.get(1).map_or(Ok(3), |a| a.parse())?;
    let bc: usize = args.get(2).map_or(Ok(3), |a| a.parse())?;
    let sym: Symmetry = args.get(3).map_or("none", |a| a).parse()?;
    let n: u64 = args.get(4).map_or(Ok(2000), |a| a.parse())?;
    let minimal = args.get(5).is_none_or(|a| a == "1");
    let level = args.get(6).map_or("none", |a| a).to_ascii_uppercase();
    let target = Difficulty::ALL.into_iter().find(|l| l.name() == level);
    let graded = level != "NONE";
    let shape = Shape::new(br, bc).ok_or("no such box shape")?;
    let spec = Spec::new(shape, sym, minimal)?;
    let t = Instant::now();
    let cpu_start = cpu_seconds();
    let mut checksum = Fnv::default();
    let (mut clues, mut attempts, mut seen) = (0, 0, [0u64; 6]);
    let limits = Limits {
        max_attempts: 100_000,
        cancel: None,
    };
    for seed in 1..=n {
        if graded {
            let made = generate_graded(&spec, seed, target.into(), &limits)?;
            checksum.add(made.puzzle.cells());
            clues += made.puzzle.givens();
            attempts += made.attempts;
            seen[made.rating.difficulty as usize] += 1;
        } else {
            let made = generate(&spec, seed, &limits, |_, _| Some(()))?;
            checksum.add(made.puzzle.cells());
            clues += made.puzzle.givens();
            attempts += made.attempts;
        }
    }
    let s = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_start).map(|(end, start)| end - start);
    println!(
        "{n} puzzles in {s:.3}s: {:.0}/s, {:.1} µs each, mean clues {:.1}, attempts {:.2}, checksum {:016x}",
        n as f64 / s,
        s * 1e6 / n as f64,
        clues as f64 / n as f64,
        f64::from(attempts) / n as f64,
        checksum.0
    );
    if let Some(cpu) = cpu {
        println!(
            "CPU time {cpu:.3}s: {:.0}/s per CPU second, {:.1} µs of CPU each",
            n as f64 / cpu,
            cpu * 1e6 / n as f64
        );
    }
    if graded {
        for (l, count) in Difficulty::ALL.iter().zip(seen) {
            print!("{}={count} ", l.name());
        }
        println!();
    }
    Ok(())
}

/// This thread's CPU time in seconds, from Linux's `/proc/thread-self/schedstat` (nanoseconds on
/// the CPU first); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}

/// FNV-1a over every puzzle's cells: equal checksums mean (all but surely) the same puzzles.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, cells: &[u8]) {
        for &byte in cells {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
