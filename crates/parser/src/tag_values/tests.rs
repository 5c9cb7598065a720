//! The tag-value parsers by tables of cases.

use super::*;

/// Each case: the value and whether it is accepted.
fn table<T: fmt::Debug>(parse: impl Fn(&str) -> Result<T, TagValueError>, cases: &[(&str, bool)]) {
    for &(value, ok) in cases {
        let got = parse(value);
        assert_eq!(got.is_ok(), ok, "{value:?}: {got:?}");
    }
}

/// The hand-read fast paths agree with the nom parsers.
#[test]
fn fast_paths_agree_with_nom() {
    for value in [
        "2024.02.29",
        "2024.13.01",
        "0000.00.00",
        "2024.??.01",
        "2024-01-01",
        "2024.1.10",
        "20240.1.10",
        "x024.01.01",
        "2024.01.0\u{e9}",
    ] {
        assert_eq!(date_parts(value), date_parts_nom(value), "{value}");
    }
    for value in [
        "????.??.??",
        "2024.??.??",
        "????.02.30",
        "2024.?1.05",
        "?024.01.01",
    ] {
        assert_eq!(date_parts(value), date_parts_nom(value), "{value}");
    }
    for value in [
        "0",
        "2750",
        "123456789",
        "1234567890",
        "27a0",
        "",
        "+5",
        "-5",
    ] {
        let nom = whole(number::<u32>, value)
            .ok()
            .filter(|_| value.len() <= 9);
        assert_eq!(short_number(value), nom, "{value}");
    }
}

/// The common forms of each tag are read from the bytes (no parse), and the values
/// read so are ones the parsers accept.
#[test]
fn plain_values() {
    let plain: &[(TagKind, &[&str])] = &[
        (
            TagKind::Date,
            &["2024.02.29", "2024.??.??", "????.??.??", "1985.07.??"],
        ),
        (TagKind::Round, &["?", "-", "5", "5.12", "1.1.3", "01"]),
        (TagKind::Elo, &["", "-", "2750", "0"]),
        (TagKind::FideId, &["", "-", "1503014", "123456789"]),
        (
            TagKind::TimeControl,
            &[
                "?",
                "-",
                "40/7200:3600",
                "300+2",
                "3600",
                "40/5400+30:1800+30",
            ],
        ),
        (TagKind::SetUp, &["0", "1"]),
        (TagKind::Time, &["00:00:00", "23:59:60"]),
    ];
    for (kind, values) in plain {
        for value in *values {
            assert!(
                kind.is_plainly_valid(value.as_bytes()),
                "{kind:?} {value:?}"
            );
            assert_eq!(kind.check(value), Ok(()), "{kind:?} {value:?}");
        }
    }
    // Every day of the calendar and a few past it, read by hand as the parser reads it.
    for year in ["1900", "2000", "2023", "2024", "????"] {
        for month in 0..=13 {
            for day in 0..=32 {
                let value = format!("{year}.{month:02}.{day:02}");
                let plain = TagKind::Date.is_plainly_valid(value.as_bytes());
                assert_eq!(plain, parse_date(&value).is_ok(), "{value}");
            }
        }
    }
    // Valid values left to the parsers, and invalid ones.
    let judged: &[(TagKind, &str, bool)] = &[
        (TagKind::TimeControl, "*180", true),
        (TagKind::Elo, "1234567890", true),
        (TagKind::Date, "2023.02.29", false),
        (TagKind::Round, "5.", false),
        (TagKind::TimeControl, "0/7200", false),
        (TagKind::Time, "24:00:00", false),
    ];
    for &(kind, value, ok) in judged {
        assert!(
            !kind.is_plainly_valid(value.as_bytes()),
            "{kind:?} {value:?}"
        );
        assert_eq!(kind.check(value).is_ok(), ok, "{kind:?} {value:?}");
    }
}

proptest::proptest! {
    /// Whatever the hand reading accepts, the tag's parser accepts.
    #[test]
    fn plain_values_are_valid(value in "[0-9?.:/+*-]{0,12}") {
        for kind in [
            TagKind::Date,
            TagKind::Round,
            TagKind::Elo,
            TagKind::FideId,
            TagKind::TimeControl,
            TagKind::SetUp,
            TagKind::Time,
        ] {
            let full = kind.parse(&value);
            if kind.is_plainly_valid(value.as_bytes()) {
                proptest::prop_assert_eq!(full, Ok(()), "{:?} {:?}", kind, value);
            }
            proptest::prop_assert_eq!(kind.check(&value), full, "{:?} {:?}", kind, value);
        }
    }
}

#[test]
fn dates() {
    table(
        parse_date,
        &[
            ("2024.02.29", true),
            ("2023.02.29", false),
            ("1900.02.29", false),
            ("2000.02.29", true),
            ("????.02.29", true),
            ("????.02.30", false),
            ("2024.??.31", true),
            ("2024.??.32", false),
            ("2024.04.31", false),
            ("2024.12.31", true),
            ("2024.13.01", false),
            ("2024.00.01", false),
            ("2024.01.00", false),
            ("1985.??.??", true),
            ("????.??.??", true),
            ("2024.01.??", true),
            ("2024.1.5", false),
            ("2024-01-05", false),
            ("2024.01.05 ", false),
            ("?", false),
            ("", false),
            ("2024.?1.05", false),
            ("24.01.05", false),
            ("20240105", false),
        ],
    );
    assert_eq!(
        parse_date("2024.??.07"),
        Ok(Date {
            year: Some(2024),
            month: None,
            day: Some(7)
        })
    );
}

#[test]
fn rounds() {
    table(
        |v| parse_round(v).map(|r| r.numbers().collect::<Vec<_>>()),
        &[
            ("?", true),
            ("-", true),
            ("5", true),
            ("5.12", true),
            ("1.1", true),
            ("01", true),
            ("1.2.3", true),
            ("", false),
            ("5.", false),
            (".5", false),
            ("5..1", false),
            ("R5", false),
            ("5a", false),
            ("??", false),
            ("99999999999", false),
        ],
    );
    assert_eq!(parse_round("5.12"), Ok(Round::Numbers("5.12")));
    assert_eq!(
        parse_round("5.12").unwrap().numbers().collect::<Vec<_>>(),
        [5, 12]
    );
    assert_eq!(parse_round("?").unwrap().numbers().count(), 0);
}

#[test]
fn ratings_and_fide_ids() {
    table(
        parse_elo,
        &[
            ("2750", true),
            ("0", true),
            ("-", true),
            ("", true),
            ("?", false),
            ("2750.5", false),
            ("+2700", false),
            ("-2700", false),
            ("unrated", false),
        ],
    );
    table(
        parse_fide_id,
        &[
            ("1503014", true),
            ("123456789", true),
            ("1234567890", false),
            ("", true),
            ("-", true),
            ("?", false),
            ("12 34", false),
            ("abc", false),
        ],
    );
    assert_eq!(parse_elo("2750"), Ok(Some(2750)));
    assert_eq!(parse_fide_id("-"), Ok(None));
}

#[test]
fn set_up_and_times() {
    table(
        parse_set_up,
        &[
            ("0", true),
            ("1", true),
            ("2", false),
            ("", false),
            ("true", false),
        ],
    );
    table(
        parse_time,
        &[
            ("00:00:00", true),
            ("23:59:59", true),
            ("12:30:60", true),
            ("24:00:00", false),
            ("12:60:00", false),
            ("12:00:61", false),
            ("1:00:00", false),
            ("12:00", false),
            ("12.00.00", false),
            ("??:??:??", false),
        ],
    );
}

#[test]
fn time_controls() {
    let cases = [
        ("?", true),
        ("-", true),
        ("40/7200:3600", true),
        ("300+2", true),
        ("*180", true),
        ("3600", true),
        ("40/7200:20/3600:900+30", true),
        ("40/5400+30:1800+30", true),
        ("60+0", true),
        ("0/7200", false),
        ("99999999999", false),
        ("", false),
        ("40/", false),
        ("/7200", false),
        ("300+", false),
        ("+2", false),
        ("300:", false),
        (":300", false),
        ("*", false),
        ("*40/180", false),
        ("300+2+1", false),
        ("90 min + 30 s", false),
        ("15 min. + 10 s. per move", false),
        ("5'+3\"", false),
        ("G/90", false),
        ("??", false),
    ];
    table(parse_time_control, &cases);
    table(check_time_control, &cases);
    let period = |moves, seconds, increment, sandclock| Period {
        moves,
        seconds,
        increment,
        sandclock,
    };
    assert_eq!(
        parse_time_control("40/5400+30:1800+30"),
        Ok(TimeControl::Periods(vec![
            period(Some(40), 5400, 30, false),
            period(None, 1800, 30, false)
        ]))
    );
    assert_eq!(
        parse_time_control("*180"),
        Ok(TimeControl::Periods(vec![period(None, 180, 0, true)]))
    );
    assert_eq!(parse_time_control("?"), Ok(TimeControl::Unknown));
    assert_eq!(parse_time_control("-"), Ok(TimeControl::None));
}
