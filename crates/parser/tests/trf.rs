//! The TRF reader and writer: any records written read back as the same records, and
//! a file read, written and read again gives the same records (line numbers aside).

use planilla_parser::trf::{self, Colour, Header, Player, ResultCode, RoundField, Tournament};
use proptest::prelude::*;

const CODES: [char; 12] = ['+', '-', 'W', 'D', 'L', '1', '=', '0', 'H', 'F', 'U', 'Z'];

fn round_field() -> impl Strategy<Value = RoundField> {
    (
        prop::option::of(1u32..=9999),
        prop::option::of(prop::bool::ANY),
        prop::option::of(0usize..CODES.len()),
    )
        .prop_map(|(opponent, colour, result)| RoundField {
            opponent,
            colour: colour.map(|w| if w { Colour::White } else { Colour::Black }),
            result: result.map(|i| ResultCode::from_char(CODES[i]).expect("a code")),
        })
}

/// Text of at most `max` characters, letters from several scripts among them, without
/// spaces at its ends.
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec![
            'a', 'Z', 'é', 'ü', 'ß', 'Ł', 'ñ', 'Ж', 'я', '李', ' ', ',', '-', '.', '\'', '1', '_',
        ]),
        1..=max,
    )
    .prop_map(|chars| chars.into_iter().collect::<String>().trim().to_string())
}

fn player(rank: u32) -> impl Strategy<Value = Player> {
    (
        (
            prop::sample::select(vec!["", "m", "w", "f"]),
            prop::sample::select(vec!["", "GM", "IM", "wim", "FM", "CM", "WCM"]),
            text(33).prop_filter("a name", |n| !n.is_empty()),
            prop::option::of(1000u32..=3000),
            prop::sample::select(vec!["", "NOR", "ESP", "FID"]),
            prop::option::of(1u64..=99_999_999_999),
        ),
        (
            prop::sample::select(vec!["", "1990/11/30", "2010/01/01", "1975"]),
            prop::sample::select(vec!["", "0.0", "4.5", "11.5"]),
            prop::option::of(1u32..=9999),
            proptest::collection::vec(round_field(), 0..12),
        ),
    )
        .prop_map(
            move |(
                (sex, title, name, rating, federation, fide_id),
                (birth, points, place, mut rounds),
            )| {
                while rounds.last().is_some_and(RoundField::is_blank) {
                    rounds.pop();
                }
                Player {
                    line: 0,
                    rank,
                    sex: sex.to_string(),
                    title: title.to_string(),
                    name,
                    rating,
                    federation: federation.to_string(),
                    fide_id,
                    birth: birth.to_string(),
                    points: points.to_string(),
                    place,
                    rounds,
                }
            },
        )
}

fn header() -> impl Strategy<Value = Header> {
    (
        prop::sample::select(vec!["012", "022", "042", "092", "132", "XXR", "XXC", "###"]),
        text(60),
    )
        .prop_map(|(code, text)| Header {
            line: 0,
            code: code.to_string(),
            text,
        })
}

fn tournament() -> impl Strategy<Value = Tournament> {
    (
        proptest::collection::vec(header(), 0..6),
        proptest::collection::btree_set(1u32..=9999, 0..12),
    )
        .prop_flat_map(|(headers, ranks)| {
            let players: Vec<_> = ranks.into_iter().map(player).collect();
            (Just(headers), players)
        })
        .prop_map(|(headers, players)| Tournament {
            headers,
            players,
            byes: Vec::new(),
        })
}

/// The records without their line numbers.
fn unlined(mut t: Tournament) -> Tournament {
    t.headers.iter_mut().for_each(|h| h.line = 0);
    t.players.iter_mut().for_each(|p| p.line = 0);
    t.byes.iter_mut().for_each(|b| b.line = 0);
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Records written read back as themselves, without a fault.
    #[test]
    fn written_records_read_back(t in tournament()) {
        let written = trf::write(&t);
        let read = trf::read(written.as_bytes());
        prop_assert_eq!(read.errors, vec![]);
        prop_assert_eq!(unlined(read.tournament), t);
    }

    /// A file read, written back and read again: the same records (here with LF line
    /// ends and the names in Latin-1 where they can be).
    #[test]
    fn read_write_read(t in tournament()) {
        let written = trf::write(&t).replace("\r\n", "\n");
        let latin1: Vec<u8> = written
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect();
        let first = trf::read(&latin1);
        let again = trf::read(trf::write(&first.tournament).as_bytes());
        prop_assert_eq!(again.errors, vec![]);
        prop_assert_eq!(unlined(again.tournament), unlined(first.tournament));
    }
}

/// The shipped tournaments read back the same once written.
#[test]
fn the_corpus_files_read_write_read() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpora/trf");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("corpora/trf") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "trf") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let first = trf::read(&bytes);
        let again = trf::read(trf::write(&first.tournament).as_bytes());
        assert_eq!(again.errors, [], "{}", path.display());
        assert_eq!(
            unlined(again.tournament),
            unlined(first.tournament),
            "{}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 4, "only {seen} TRF files in corpora/trf");
}
