use planilla_core::unwinnable::Solver;
use planilla_core::{Color, Position, Validation};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(path).unwrap();
    let mut s = Solver::default();
    let t = std::time::Instant::now();
    let mut k = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() > 3)
        .take(n)
    {
        let pos = Position::from_fen(line[2..].trim(), Validation::Relaxed).unwrap();
        for c in Color::ALL {
            std::hint::black_box(s.winnability(&pos, c));
        }
        k += 1;
    }
    eprintln!("{k} positions {:?} nodes {}", t.elapsed(), s.nodes());
}
