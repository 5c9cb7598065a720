//! What `fix` promises on any input.

use crate::convert::games;
use planilla_converter::{FixOptions, Fixer};
use planilla_core::san::Lang;
use planilla_parser::Joiner;
use planilla_validator::{Checker, Config, Rules, RulesChoice, Severity};

/// The options a selector byte chooses: bit 0 `--repair`, bit 1 a `--to` language (bits
/// 2-4 which), bits 5-6 the rules (`by-date` or an edition).
pub fn fix_options(selector: u8) -> FixOptions {
    let to = (selector & 2 != 0).then(|| Lang::ALL[(selector as usize >> 2) % Lang::ALL.len()]);
    let rules = match (selector >> 5) & 3 {
        3 => RulesChoice::ByDate,
        n => RulesChoice::Edition(Rules::ALL[n as usize]),
    };
    FixOptions {
        from: None,
        to,
        rules,
        notation: None,
        repair: selector & 1 != 0,
    }
}

/// What one run of the properties saw: games in, written, rejected, and the separator
/// lines written between games in the output and the rejects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FixTally {
    /// Games read from the input.
    pub games: u64,
    /// Games made whole and written.
    pub written: u64,
    /// Games rejected.
    pub rejected: u64,
    /// Separator lines written (output and rejects).
    pub separators: u64,
}

/// Asserts what `fix` promises on `input` with `options`, written as `planilla fix -o OUT
/// --rejects REJ` writes it (each file through a [`Joiner`]): `check` (the same rules) on
/// the output reports no error; `fix` (the same options) on the output changes nothing,
/// both reading it in the `--to` language when one was asked for,
/// rejects nothing and writes the same bytes; the output reads back as the games written
/// and the rejects as the games rejected, each with the bytes it came with, so games in =
/// games written + games rejected. `what` names the input in the messages.
///
/// # Panics
///
/// On the first broken promise.
pub fn fix_properties(input: &[u8], options: FixOptions, what: &str) -> FixTally {
    let input_games = games(input);
    let mut fixer = Fixer::new(options);
    let (mut out, mut rejects) = (Vec::new(), Vec::new());
    let (mut out_joiner, mut rejects_joiner) = (Joiner::new(), Joiner::new());
    let mut rejected = Vec::new();
    let mut written = Vec::new();
    for game in &input_games {
        let fixed = fixer.fix(game);
        match fixed.rejected {
            Some(raw) => {
                rejects_joiner.write(&mut rejects, &raw).unwrap();
                rejected.push(raw);
            }
            None => {
                out_joiner.write(&mut out, &fixed.bytes).unwrap();
                written.push(fixed.bytes);
            }
        }
    }
    let shown = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();

    // Each file reads back as its games, each with its bytes.
    let read_back: Vec<Vec<u8>> = games(&out).iter().map(|g| g.bytes().to_vec()).collect();
    assert!(
        read_back == written,
        "{what}: the output does not read back as the games written ({} read, {} written): {:?}",
        read_back.len(),
        written.len(),
        shown(&out)
    );
    let rejects_back: Vec<Vec<u8>> = games(&rejects).iter().map(|g| g.bytes().to_vec()).collect();
    assert!(
        rejects_back == rejected,
        "{what}: the rejects do not read back as the games rejected ({} read, {} rejected): {:?}",
        rejects_back.len(),
        rejected.len(),
        shown(&rejects)
    );
    assert_eq!(input_games.len(), written.len() + rejected.len());

    // `check` finds no error in the output, and `fix` finds nothing to do. Output written
    // in a language asked for is read in it: Dutch `Pc3` (a knight) and Spanish `Pc3` (a
    // pawn) may both replay, and the language detected would be Spanish.
    let output = games(&out);
    let lang = options.to.or(options.from);
    let mut checker = Checker::new(Config {
        rules: options.rules,
        lang,
        notation: options.notation,
    });
    let mut again = Fixer::new(FixOptions {
        from: lang,
        ..options
    });
    let mut findings = Vec::new();
    let mut text = Vec::new();
    let mut joiner = Joiner::new();
    for game in &output {
        findings.clear();
        checker.check(game, &mut findings);
        let errors: Vec<_> = findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .collect();
        assert!(
            errors.is_empty(),
            "{what}: check finds errors in fix's output: {errors:?} in {:?}",
            shown(game.bytes())
        );
        let fixed = again.fix(game);
        assert!(
            fixed.rejected.is_none() && fixed.changes.is_empty(),
            "{what}: a second fix changes {:?}: {:?} {:?}",
            shown(game.bytes()),
            fixed.changes,
            fixed.reported
        );
        joiner.write(&mut text, &fixed.bytes).unwrap();
    }
    assert!(
        text == out,
        "{what}: a second fix writes other bytes: {:?} then {:?}",
        shown(&out),
        shown(&text)
    );
    FixTally {
        games: input_games.len() as u64,
        written: written.len() as u64,
        rejected: rejected.len() as u64,
        separators: out_joiner.separators() + rejects_joiner.separators(),
    }
}
