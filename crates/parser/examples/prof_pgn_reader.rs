//! Profiling aid: reads one file with pgn-reader and the every-token visitor.
use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .expect("usage: prof_pgn_reader FILE");
    let mut reader = pgn_reader::Reader::new(std::fs::File::open(path)?);
    let mut visitor = EveryToken::default();
    reader.visit_all_games(&mut visitor)?;
    println!(
        "{} games, {} events, {}",
        visitor.games, visitor.events, visitor.bytes
    );
    Ok(())
}
/// A visitor that takes every token pgn-reader offers and looks at its bytes.
#[derive(Default)]
struct EveryToken {
    games: u64,
    events: u64,
    bytes: u64,
}

impl Visitor for EveryToken {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += (name.len() + value.as_bytes().len()) as u64;
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san: SanPlus) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += u64::from(san.suffix.is_some());
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _movetext: &mut (), nag: Nag) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += u64::from(nag.0);
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        _movetext: &mut (),
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += comment.as_bytes().len() as u64;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<Self::Output, Skip> {
        self.events += 1;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, _movetext: &mut ()) -> ControlFlow<Self::Output> {
        self.events += 1;
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _movetext: &mut (), _outcome: Outcome) -> ControlFlow<Self::Output> {
        self.events += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> Self::Output {
        self.games += 1;
    }
}
