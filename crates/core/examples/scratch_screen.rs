use planilla_core::unwinnable::*;
use planilla_core::{Position, Validation};
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (label, fen) = line.split_at(2);
        let pos = Position::from_fen(fen.trim(), Validation::Relaxed).unwrap();
        if label == "--" && !pos.is_insufficient_material() && !may_be_dead(pos.board()) {
            n += 1;
            println!("{}", fen.trim());
        }
    }
    eprintln!("{n}");
}
