//! The generator's speed on one core, without the service: `cargo run --release -p sudoku-core
//! --example genspeed -- BOX_ROWS BOX_COLS SYMMETRY COUNT MINIMAL(1|0) [LEVEL|any|none]`, e.g.
//! `-- 3 3 none 20000 1` (no grading), `-- 3 3 rotate-180 500 1 hard`, `-- 3 3 none 500 1 any`.
//!
//! Prints puzzles a second, mean clues and mean attempts (full grids drawn) per puzzle, and with a
//! level (or `any`), how many of each level came.

use std::time::Instant;
use sudoku_core::generator::{Limits, Spec, Symmetry, generate, generate_graded};
use sudoku_core::grader::Difficulty;
use sudoku_core::grid::Shape;

const LEVELS: [Difficulty; 6] = [
    Difficulty::Beginner,
    Difficulty::Easy,
    Difficulty::Medium,
    Difficulty::Hard,
    Difficulty::Expert,
    Difficulty::Extreme,
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let br: usize = args.get(1).map_or(Ok(3), |a| a.parse())?;
    let bc: usize = args.get(2).map_or(Ok(3), |a| a.parse())?;
    let sym: Symmetry = args.get(3).map_or("none", |a| a).parse()?;
    let n: u64 = args.get(4).map_or(Ok(2000), |a| a.parse())?;
    let minimal = args.get(5).is_none_or(|a| a == "1");
    let level = args.get(6).map_or("none", |a| a).to_ascii_uppercase();
    let target = LEVELS.into_iter().find(|l| l.name() == level);
    let graded = level != "NONE";
    let shape = Shape::new(br, bc).ok_or("no such box shape")?;
    let spec = Spec::new(shape, sym, minimal)?;
    let t = Instant::now();
    let (mut clues, mut attempts, mut seen) = (0, 0, [0u64; 6]);
    let limits = Limits {
        max_attempts: 100_000,
        cancel: None,
    };
    for seed in 1..=n {
        if graded {
            let made = generate_graded(&spec, seed, target, &limits)?;
            clues += made.puzzle.givens();
            attempts += made.attempts;
            seen[made.rating.difficulty as usize] += 1;
        } else {
            let made = generate(&spec, seed, &limits, |_, _| Some(()))?;
            clues += made.puzzle.givens();
            attempts += made.attempts;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} puzzles in {s:.3}s: {:.0}/s, {:.1} µs each, mean clues {:.1}, attempts {:.2}",
        n as f64 / s,
        s * 1e6 / n as f64,
        clues as f64 / n as f64,
        f64::from(attempts) / n as f64
    );
    if graded {
        for (l, count) in LEVELS.iter().zip(seen) {
            print!("{}={count} ", l.name());
        }
        println!();
    }
    Ok(())
}
