//! `fix`: a game rewritten whole, or set apart as it came. The rewrite is `convert`'s
//! (every replayed move in canonical SAN, every other byte passed through), with the
//! parts the record itself shows to be wrong rewritten too: the result (made to agree
//! with the final position where it decides it, drawn for a win on time the winner
//! could never have mated in, made to agree with the result written after the moves
//! and with a DGT result signal), results written as scoresheets write them,
//! moves written after the game's end (kept in a comment) and the DGT signal itself
//! (removed). Each change is a [`Change`] naming the `check` code it answers. A game
//! that no rewrite makes whole (an illegal or ambiguous move, a syntax error, a signal
//! the tags contradict) is rejected: its bytes are kept as they came.
//!
//! ```
//! use planilla_converter::{FixOptions, Fixer};
//! use planilla_parser::Game;
//!
//! let pgn = "[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4 *\n";
//! let fixed = Fixer::new(FixOptions::default()).fix(&Game::from_bytes(pgn, Default::default()));
//! assert_eq!(fixed.bytes, b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
//! assert_eq!(fixed.changes.len(), 3);
//! assert!(fixed.rejected.is_none());
//! ```

use crate::outcome::unchanged;
use crate::{Edit, Options, OutputEncoding, Replay, rewrite, stops_replay};
use planilla_core::san::Lang;
use planilla_parser::{Game, Token, TokenKind};
use planilla_validator::{
    Checker, Code, Config, Finding, MoveNotation, RepairOutcome, RulesChoice, internal_error,
    result_meaning,
};

/// What `fix` writes, and how it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FixOptions {
    /// The language the moves are written in, or `None` to decide it per game.
    pub from: Option<Lang>,
    /// The language to write, or `None` for each game's own.
    pub to: Option<Lang>,
    /// The draw rules (which automatic draws end a game).
    pub rules: RulesChoice,
    /// The source notation, or `None` to read each move in the notation its form is.
    pub notation: Option<MoveNotation>,
    /// `--repair`: a game whose first bad move has exactly one reading within one edit
    /// that lets the game replay to its end is fixed with that reading (a
    /// `repaired-move` change) instead of being rejected.
    pub repair: bool,
}

/// One change `fix` made to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The `check` code of what the change answers.
    pub code: Code,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The ply of the move changed (or of the first one), `None` for a result.
    pub ply: Option<u32>,
    /// 1-based line in the file of the text changed.
    pub line: u64,
    /// 1-based column, in characters of the decoded line.
    pub column: u64,
    /// The text as it was (decoded).
    pub before: String,
    /// The text as written now (empty: removed).
    pub after: String,
}

/// One game through `fix`.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// What goes to the output, in UTF-8: the fixed game, or a rejected game's own text
    /// (decoded by its encoding rule).
    pub bytes: Vec<u8>,
    /// A rejected game's bytes exactly as they were read; `None` for a game made whole.
    pub rejected: Option<Vec<u8>>,
    /// The changes made, in the order of the text.
    pub changes: Vec<Change>,
    /// The findings reported beside the changes: why a game was rejected, or what a
    /// whole game keeps (a result no PGN result says, a language guessed).
    pub reported: Vec<Finding>,
    /// Half-moves replayed.
    pub plies: u64,
}

impl Fixed {
    /// The result for a game planilla failed on (a panic while fixing it, given what
    /// the panic said): rejected, with an `internal-error` finding naming it.
    pub fn failed(game: &Game, panic: &str) -> Fixed {
        let message = format!("planilla failed to fix this game ({panic}); please report it");
        reject(game, vec![internal_error(game, message)], 0)
    }
}

/// Fixes games one after another, keeping the replay's state from one game to the next
/// (as [`crate::Converter`] does).
#[derive(Debug)]
pub struct Fixer {
    options: FixOptions,
    checker: Checker,
    /// The TRF's result for the game being fixed ([`Fixer::fix_with`]).
    trf: Option<&'static str>,
}

impl Fixer {
    /// A fixer with no game fixed yet.
    pub fn new(options: FixOptions) -> Fixer {
        Fixer {
            options,
            checker: Checker::new(Config {
                rules: options.rules,
                lang: options.from,
                notation: options.notation,
            }),
            trf: None,
        }
    }

    /// Fixes one game.
    pub fn fix(&mut self, game: &Game) -> Fixed {
        self.fix_with(game, None)
    }

    /// Fixes one game whose tournament report gives it the result `trf` (`fix --trf`:
    /// the result the TRF check found the game's to differ from, as PGN writes it). The
    /// result becomes the TRF's (a `trf-result` change) unless the record itself
    /// decides another: the end on the board, a win on time the winner cannot mate in
    /// (Law 6.9), a DGT result signal.
    pub fn fix_with(&mut self, game: &Game, trf: Option<&'static str>) -> Fixed {
        self.trf = trf;
        let replay = Replay::of(&mut self.checker, game);
        let plies = replay.stats.plies;
        // Moves that did not replay, a FEN that does not stand, a text that is not PGN:
        // no rewrite of the result or the notation makes those whole.
        // A missing result alone is the one syntax error a rewrite mends: the result is
        // written after the moves.
        let unterminated = only_missing_result(game, &replay);
        let broken: Vec<Finding> = replay
            .findings
            .iter()
            .filter(|f| stops_replay(f.code) || (f.code == Code::SyntaxError && !unterminated))
            .cloned()
            .collect();
        if !broken.is_empty() || game.skipped_bytes() > 0 {
            if self.options.repair && game.skipped_bytes() == 0 {
                return self.repair(game, replay, broken);
            }
            return reject(game, broken, plies);
        }
        let lang = replay.stats.lang.or(self.options.from).unwrap_or(Lang::En);
        let to = self.options.to.unwrap_or(lang);
        let plan = match Plan::of(game, &replay, lang, to, self.trf) {
            Ok(plan) => plan,
            Err(why) => return reject(game, why, plies),
        };
        // A move after checkmate or stalemate inside a variation is an error the rewrite
        // does not mend, unless the variation hangs off the main line's moves after its
        // end, which go into a comment whole. (A variation that goes on after a draw by
        // a rule, an annotator's line past a fivefold repetition, is a faithful record:
        // `move-after-draw`, a warning, and kept.)
        let unmended: Vec<Finding> = replay
            .findings
            .iter()
            .filter(|f| {
                f.code == Code::MoveAfterGameEnd
                    && !f.variation.is_empty()
                    && plan.after_end.is_none_or(|at| (f.line, f.column) < at)
            })
            .cloned()
            .collect();
        if !unmended.is_empty() {
            return reject(game, unmended, plies);
        }
        let mut changes = plan.changes;
        let mut reported: Vec<Finding> = replay
            .findings
            .iter()
            .filter(|f| {
                (plan.kept_non_standard && f.code == Code::NonStandardResult)
                    || (replay.stats.lang_ambiguous && f.code == Code::NotationLanguage)
            })
            .cloned()
            .collect();
        reported.sort_by_key(|f| (f.line, f.column));
        let options = Options {
            from: self.options.from,
            to,
            notation: self.options.notation,
            rules: self.options.rules,
            ..Options::default()
        };
        let converted = rewrite(game, replay, &options, &plan.edits);
        changes.sort_by_key(|(at, _)| *at);
        Fixed {
            bytes: converted.text.into_bytes(),
            rejected: None,
            changes: changes.into_iter().map(|(_, c)| c).collect(),
            reported,
            plies,
        }
    }
}

impl Fixer {
    /// `--repair` of a game that does not replay (`broken`: why): the unique repair of
    /// its first bad move applied and the game fixed as any other, with the repair
    /// reported first; a reject when there is no unique repair (the readings named when
    /// several replay the game), or when the repaired game still cannot be made whole.
    #[cold]
    fn repair(&mut self, game: &Game, replay: Replay, mut broken: Vec<Finding>) -> Fixed {
        let plies = replay.stats.plies;
        let Some(repair) = replay.repair else {
            return reject(game, broken, plies);
        };
        let candidate = match &repair.outcome {
            RepairOutcome::Unique(candidate) => candidate,
            RepairOutcome::Ambiguous(candidates) => {
                let readings: Vec<String> = candidates
                    .iter()
                    .map(|c| c.san.to_string_in(repair.lang))
                    .collect();
                let note = format!(
                    "; --repair: {} readings of '{}' replay the game to its end ({}): not repaired",
                    readings.len(),
                    repair.written,
                    readings.join(", ")
                );
                // The finding of the move searched, or the game's first.
                let searched = broken.iter().position(|f| f.ply == Some(repair.ply));
                if let Some(f) = broken.get_mut(searched.unwrap_or(0)) {
                    f.message.push_str(&note);
                }
                return reject(game, broken, plies);
            }
            RepairOutcome::None => return reject(game, broken, plies),
        };
        let text = candidate.san.to_string_in(repair.lang);
        let repaired = game.with_replaced(repair.span, text.as_bytes());
        // The repaired game is read in the language the search read it in.
        let options = FixOptions {
            from: Some(repair.lang),
            repair: false,
            ..self.options
        };
        let mut fixed = Fixer::new(options).fix_with(&repaired, self.trf);
        if fixed.rejected.is_some() {
            return reject(game, broken, plies);
        }
        let location = game.location(repair.span.0 as usize);
        fixed.changes.insert(
            0,
            Change {
                code: Code::RepairedMove,
                game: game.index(),
                ply: Some(repair.ply),
                line: location.line,
                column: location.column,
                before: repair.written.clone(),
                after: text,
            },
        );
        fixed
    }
}

/// A game rejected for `why`: written as it came.
fn reject(game: &Game, why: Vec<Finding>, plies: u64) -> Fixed {
    Fixed {
        // UTF-8 holds every character: this never fails.
        bytes: unchanged(game, OutputEncoding::Utf8).unwrap_or_default(),
        rejected: Some(game.bytes().to_vec()),
        changes: Vec::new(),
        reported: why,
        plies,
    }
}

/// Whether the game's one syntax error is that its moves end without a result: the
/// parser reports that right after the last token, and nothing else is malformed.
fn only_missing_result(game: &Game, replay: &Replay) -> bool {
    let syntax = |f: &&Finding| f.code == Code::SyntaxError;
    let Some(last) = game.tokens().last() else {
        return false;
    };
    let mut parsed = game
        .findings()
        .iter()
        .filter(|f| f.kind == planilla_parser::FindingKind::Syntax);
    let at_end = parsed.next().is_some_and(|f| f.span.start == last.end);
    at_end && parsed.next().is_none() && replay.findings.iter().filter(syntax).count() == 1
}

/// Whether `result` is one PGN defines.
fn is_pgn(result: &str) -> bool {
    matches!(result, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// The edits that make a game whole, and the changes they (and the rewrite of the
/// moves) make, each at its byte offset.
struct Plan {
    edits: Vec<Edit>,
    changes: Vec<(u32, Change)>,
    /// The result is one no PGN result says (`0-0`): kept, and its finding reported.
    kept_non_standard: bool,
    /// Where the comment that keeps the main line's moves after its end starts (line,
    /// column), when there is one: the variations after it go into it too.
    after_end: Option<(u64, u64)>,
}

/// The main line as written: its moves (token indexes, the n-th is ply n) and the
/// result written after them.
struct MainLine {
    moves: Vec<usize>,
    marker: Option<usize>,
}

impl MainLine {
    fn of(game: &Game, replay: &Replay) -> MainLine {
        let tokens = game.tokens();
        let mut depth = 0usize;
        let mut moves = Vec::new();
        let mut marker = None;
        for (i, token) in tokens.iter().enumerate() {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::San if depth == 0 => moves.push(i),
                TokenKind::Result if depth == 0 => marker = Some(i),
                _ => {}
            }
        }
        // The game's last word may be a result the tokenizer read as a glyph (`+/-`) or
        // as castling that did not play (`0-0`, the double forfeit).
        if let Some(last) = tokens.len().checked_sub(1) {
            let token = tokens[last];
            let bytes = game.token_bytes(&token);
            let is_result = match token.kind {
                TokenKind::Glyph => matches!(bytes, b"+/-" | b"-/+"),
                TokenKind::San => {
                    bytes == b"0-0" && !replay.played.iter().any(|p| p.span.0 == token.start)
                }
                _ => false,
            };
            if is_result {
                marker = Some(last);
                moves.retain(|&m| m != last);
            }
        }
        MainLine { moves, marker }
    }
}

impl Plan {
    fn of(
        game: &Game,
        replay: &Replay,
        lang: Lang,
        to: Lang,
        trf: Option<&'static str>,
    ) -> Result<Plan, Vec<Finding>> {
        let tokens = game.tokens();
        let main = MainLine::of(game, replay);
        let mut plan = Plan {
            edits: Vec::new(),
            changes: Vec::new(),
            kept_non_standard: false,
            after_end: None,
        };
        let end = replay.stats.main_end;
        let signal_at = end
            .signal
            .and_then(|(ply, _)| main.moves.get(ply as usize - 1));

        let result = plan.decide_result(game, replay, &main, trf)?;
        plan.result_tag(game, result);

        // Moves written after the end on the board: into a comment, up to the signal or
        // the result.
        if let Some((ended, _)) = end.board
            && let Some(&first) = main.moves.get(ended as usize)
            && signal_at.is_none_or(|&s| s > first)
        {
            let stop = match (signal_at, main.marker) {
                (Some(&signal), _) => with_number(tokens, signal),
                (None, Some(marker)) => marker,
                (None, None) => tokens.len(),
            };
            let start = with_number(tokens, first);
            let span = tokens[start].start..tokens[stop - 1].end;
            let written = game.decode(span.start as usize..span.end as usize);
            let kept: String = written
                .chars()
                .map(|c| match c {
                    '{' => '(',
                    '}' => ')',
                    c => c,
                })
                .collect();
            let text = format!("{{after the game's end: {kept}}}");
            let at = game.location(span.start as usize);
            plan.after_end = Some((at.line, at.column));
            // The code `check` gave the first of them: after a draw by a rule the moves
            // were played and are only no part of the game.
            let code = replay
                .findings
                .iter()
                .find(|f| f.variation.is_empty() && f.ply == Some(ended + 1))
                .map(|f| f.code)
                .filter(|&code| code == Code::MoveAfterDraw)
                .unwrap_or(Code::MoveAfterGameEnd);
            plan.change(game, code, Some(ended + 1), span.clone(), &text);
        }
        // The signal's placements are no moves: each is removed with its move number, its
        // glyphs and the space before it; comments between them stay.
        if let (Some(&first), Some((ply, _))) = (signal_at, end.signal) {
            let placements = main.moves.iter().filter(|&&m| m >= first);
            let mut removed = Vec::new();
            for &m in placements {
                let start = with_number(tokens, m);
                let mut last = m;
                while tokens
                    .get(last + 1)
                    .is_some_and(|t| matches!(t.kind, TokenKind::Glyph | TokenKind::Nag))
                    && main.marker != Some(last + 1)
                {
                    last += 1;
                }
                let from = if start > 0 {
                    tokens[start - 1].end
                } else {
                    tokens[start].start
                };
                removed.push(game.decode(tokens[start].start as usize..tokens[last].end as usize));
                // A token glued to the last placement (`Kxe4?1/2-1/2`) keeps a space
                // from the token before the placements.
                let glued = tokens
                    .get(last + 1)
                    .is_some_and(|t| t.start == tokens[last].end);
                plan.edits.push(Edit {
                    start: from,
                    end: tokens[last].end,
                    text: if glued { " ".into() } else { String::new() },
                });
            }
            let at = tokens[with_number(tokens, first)].start;
            plan.report(
                game,
                Code::DgtResultSignal,
                Some(ply),
                at,
                &removed.join(" "),
                "",
            );
        }
        // A result written before the game's last token (`*1`, `1-0 2.`) and a missing
        // result reported at its end: the text after the result is no part of a game fix
        // can write whole.
        if main.marker.is_some_and(|m| m + 1 < tokens.len())
            && replay.findings.iter().any(|f| f.code == Code::SyntaxError)
        {
            let why = replay
                .findings
                .iter()
                .filter(|f| f.code == Code::SyntaxError);
            return Err(why.cloned().collect());
        }
        match main.marker {
            Some(marker) => plan.result_marker(game, tokens[marker], result),
            None if plan.add_marker(game, result) => {}
            None => {
                let why = replay
                    .findings
                    .iter()
                    .filter(|f| f.code == Code::SyntaxError);
                return Err(why.cloned().collect());
            }
        }
        plan.draw_offers(game);
        plan.moves(game, replay, lang, to);
        plan.edits.sort_by_key(|e| e.start);
        // Two edits of one text would write it twice or lose it: a bug, never a guess.
        if plan.edits.windows(2).any(|w| w[0].end > w[1].start) {
            let message = "planilla could not plan the changes of this game (two of them \
                           overlap): it is kept as it came; please report it";
            return Err(vec![internal_error(game, message.to_string())]);
        }
        Ok(plan)
    }

    /// The result the game gets, and the code of a change to it: the end on the board
    /// decides; else a win on time the winner cannot mate in (a draw, Law 6.9); else a
    /// DGT signal the written results do not contradict; else the TRF's result (`fix
    /// --trf`); else the result written after the moves (or the tag's, when that one is
    /// `*`).
    fn decide_result(
        &mut self,
        game: &Game,
        replay: &Replay,
        main: &MainLine,
        trf: Option<&'static str>,
    ) -> Result<(&'static str, Code), Vec<Finding>> {
        let tag = game.tag("Result").and_then(|t| result_meaning(&t));
        let marker = main
            .marker
            .and_then(|i| result_meaning(&game.decode(game.tokens()[i].span())));
        let end = replay.stats.main_end;
        if let Some((_, result)) = end.board {
            return Ok((result, Code::ResultMismatch));
        }
        // A win on time the winner could never have turned into a mate (Law 6.9).
        if end.drawn_on_time {
            return Ok(("1/2-1/2", Code::TimeoutUnwinnable));
        }
        if let Some((_, signal)) = end.signal {
            let agrees = |r: Option<&str>| r.is_none_or(|r| r == "*" || r == signal);
            if agrees(tag) && agrees(marker) {
                return Ok((signal, Code::DgtResultSignal));
            }
            // The signal and a result written by hand disagree: which one is right is
            // not the record's to say.
            let why = replay
                .findings
                .iter()
                .filter(|f| matches!(f.code, Code::DgtResultSignal | Code::ResultMismatch))
                .cloned()
                .collect();
            return Err(why);
        }
        if let Some(trf) = trf {
            return Ok((trf, Code::TrfResult));
        }
        let decisive = |r: &Option<&'static str>| r.filter(|r| is_pgn(r) && *r != "*");
        let result = match marker {
            Some("*") => decisive(&tag).unwrap_or("*"),
            Some(m) => m,
            None => tag.unwrap_or("*"),
        };
        self.kept_non_standard = !is_pgn(result);
        Ok((result, Code::ResultMismatch))
    }

    /// Writes `result` after the last token of a game whose moves end without one (the
    /// only syntax error it has, or it was rejected), where the reader reads it: on the
    /// same line after a move, on the next line after a `;` comment or a `%` escape line
    /// (which run to their line's end), and on a line of its own after a blank line in a
    /// game of tags only. Returns false, writing nothing, for a result no PGN result says
    /// (the game is then rejected).
    fn add_marker(&mut self, game: &Game, (result, _): (&'static str, Code)) -> bool {
        let Some(last) = game.tokens().last() else {
            return true;
        };
        if !is_pgn(result) {
            return false;
        }
        let end = game.bytes().len() as u32;
        let rest = game.decode(last.end as usize..end as usize);
        let text = match last.kind {
            TokenKind::LineComment | TokenKind::Escape => on_a_line(&rest, false, result, game),
            TokenKind::Tag => on_a_line(&rest, true, result, game),
            // At the end of the input, a line end closes the game: the next input's first
            // game would otherwise start on its line.
            _ if rest.is_empty() => format!(" {result}\n"),
            _ => format!(" {result}{rest}"),
        };
        self.report(game, Code::SyntaxError, None, last.end, "", result);
        self.edits.push(Edit {
            start: last.end,
            end,
            text,
        });
        true
    }

    /// Makes the Result tag say `result` (a tag that is missing stays missing; one given
    /// twice is rewritten twice).
    fn result_tag(&mut self, game: &Game, (result, code): (&'static str, Code)) {
        // Every Result tag: a second one with the same value is no fault, and must not
        // become one by keeping the old value.
        let tags = game
            .tags()
            .iter()
            .filter(|t| game.bytes()[t.name_span()].eq_ignore_ascii_case(b"Result"));
        for tag in tags {
            let written = game.decode(tag.value_span());
            let Some(code) = rewrite_code(&written, result, code) else {
                continue;
            };
            let token = game.tokens()[tag.token as usize];
            let value = tag.value_span();
            let text = format!(
                "{}{result}{}",
                game.decode(token.start as usize..value.start),
                game.decode(value.end..token.end as usize)
            );
            self.change(game, code, None, token.start..token.end, &text);
        }
    }

    /// Makes the result after the moves say `result`.
    fn result_marker(&mut self, game: &Game, token: Token, (result, code): (&'static str, Code)) {
        let written = game.decode(token.span());
        let Some(code) = rewrite_code(&written, result, code) else {
            return;
        };
        self.change(game, code, None, token.start..token.end, result);
    }

    /// The draw-offer mark `(=)`, which the rewrite writes as the comment `{(=)}`.
    fn draw_offers(&mut self, game: &Game) {
        for token in game.tokens() {
            if token.kind == TokenKind::DrawOffer && !self.edited(token.start) {
                let written = game.decode(token.span());
                let after = format!("{{{written}}}");
                self.report(
                    game,
                    Code::NonStandardSan,
                    None,
                    token.start,
                    &written,
                    &after,
                );
            }
        }
    }

    /// Every replayed move whose text is not the canonical SAN of its own language:
    /// the rewrite writes it canonically (a translation by `--to` is no change).
    fn moves(&mut self, game: &Game, replay: &Replay, lang: Lang, to: Lang) {
        let mut canonical = String::new();
        for played in &replay.played {
            if self.edited(played.span.0) {
                continue;
            }
            let written = game.decode(played.span.0 as usize..played.span.1 as usize);
            canonical.clear();
            match &played.san {
                Some(san) => san.write(lang, &mut canonical),
                None => canonical.push_str("--"),
            }
            if written == canonical {
                continue;
            }
            let mut after = String::new();
            match &played.san {
                Some(san) => san.write(to, &mut after),
                None => after.push_str("--"),
            }
            let ply = Some(played.ply);
            self.report(
                game,
                Code::NonStandardSan,
                ply,
                played.span.0,
                &written,
                &after,
            );
        }
    }

    /// Whether the byte `at` lies in an edit.
    fn edited(&self, at: u32) -> bool {
        self.edits.iter().any(|e| (e.start..e.end).contains(&at))
    }

    /// Replaces the bytes `span` by `text`, and reports it.
    fn change(
        &mut self,
        game: &Game,
        code: Code,
        ply: Option<u32>,
        span: std::ops::Range<u32>,
        text: &str,
    ) {
        let before = game.decode(span.start as usize..span.end as usize);
        self.report(game, code, ply, span.start, before.trim(), text);
        // A token glued to the text replaced stays apart from the new text.
        let glued = game
            .bytes()
            .get(span.end as usize)
            .is_some_and(|b| !b.is_ascii_whitespace());
        let text = if glued {
            format!("{text} ")
        } else {
            text.to_string()
        };
        self.edits.push(Edit {
            start: span.start,
            end: span.end,
            text,
        });
    }

    /// Reports a change at byte `at`.
    fn report(
        &mut self,
        game: &Game,
        code: Code,
        ply: Option<u32>,
        at: u32,
        before: &str,
        after: &str,
    ) {
        let location = game.location(at as usize);
        let change = Change {
            code,
            game: game.index(),
            ply,
            line: location.line,
            column: location.column,
            before: before.to_string(),
            after: after.to_string(),
        };
        self.changes.push((at, change));
    }
}

/// `rest` (the text after a game's last token) with `result` written on a line of its
/// own after the line of that token (after a blank line too with `blank`), in the game's
/// own line ends; the lines after it stay as they were.
fn on_a_line(rest: &str, blank: bool, result: &str, game: &Game) -> String {
    let bytes = game.bytes();
    let first_line_end = bytes.iter().position(|&b| b == b'\n');
    let line_end = if first_line_end.is_some_and(|i| i > 0 && bytes[i - 1] == b'\r') {
        "\r\n"
    } else {
        "\n"
    };
    let (head, tail) = rest.split_at(rest.find('\n').map_or(rest.len(), |i| i + 1));
    let mut text = String::with_capacity(rest.len() + result.len() + 3 * line_end.len());
    text.push_str(head);
    if !head.ends_with('\n') {
        text.push_str(line_end);
    }
    if blank {
        text.push_str(line_end);
    }
    text.push_str(result);
    text.push_str(line_end);
    text.push_str(tail);
    text
}

/// The code of rewriting the result `written` as `result` (`code` when it meant another
/// one, `non-standard-result` when it meant that one in a form PGN does not define), or
/// `None` when it stays: it is `result` already, or means a result no PGN result says,
/// which is kept as written.
fn rewrite_code(written: &str, result: &str, code: Code) -> Option<Code> {
    let meaning = result_meaning(written);
    if written == result || (!is_pgn(result) && meaning == Some(result)) {
        None
    } else if meaning == Some(result) {
        Some(Code::NonStandardResult)
    } else {
        Some(code)
    }
}

/// The token index where the move at `index` starts with its move number, if one is
/// written right before it.
fn with_number(tokens: &[Token], index: usize) -> usize {
    if index > 0 && tokens[index - 1].kind == TokenKind::MoveNumber {
        index - 1
    } else {
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planilla_parser::Encoding;

    /// `pgn` fixed with the default options: its text (`None` when rejected) and the
    /// codes of its changes.
    fn fix(pgn: &str) -> (Option<String>, Vec<Code>) {
        let game = Game::from_bytes(pgn.as_bytes(), Encoding::Auto);
        let fixed = Fixer::new(FixOptions::default()).fix(&game);
        let codes = fixed.changes.iter().map(|c| c.code).collect();
        let text = fixed
            .rejected
            .is_none()
            .then(|| String::from_utf8(fixed.bytes).unwrap());
        (text, codes)
    }

    /// The paths the golden files do not take, each with what it gives.
    #[test]
    fn edges_of_the_rewrite() {
        use Code::*;
        let variation = "1. e4 (1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 \
                         Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4) 1... e5 *\n";
        let cases: [(&str, Option<&str>, &[Code]); 16] = [
            // A variation that goes on past a fivefold repetition: a faithful record of
            // moves played after a draw (`move-after-draw`, a warning), kept as it is.
            (variation, Some(variation), &[]),
            // A win on time for a knight against a queen, which cannot mate: a draw.
            (
                "[FEN \"8/8/8/8/8/4N1K1/8/q5k1 b - - 0 1\"]\n[Termination \"Time forfeit\"]\n\n\
                 1... Qa2 1-0\n",
                Some(
                    "[FEN \"8/8/8/8/8/4N1K1/8/q5k1 b - - 0 1\"]\n[Termination \"Time forfeit\"]\n\n\
                     1... Qa2 1/2-1/2\n",
                ),
                &[TimeoutUnwinnable],
            ),
            // A game that ended before its first move (a FEN set up as stalemate): every
            // move goes into the comment.
            (
                "[FEN \"k7/2Q5/1K6/8/8/8/8/8 b - - 0 1\"]\n\n1... Ka8 2. Qc8# 1-0\n",
                Some(
                    "[FEN \"k7/2Q5/1K6/8/8/8/8/8 b - - 0 1\"]\n\n{after the game's end: 1... Ka8 2. Qc8#} 1/2-1/2\n",
                ),
                &[MoveAfterGameEnd, ResultMismatch],
            ),
            // A signal that starts with Black's placement, a comment between: removed
            // with it, the result set from it; no Result tag is added.
            (
                "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ke2 Kd5 {signal} 5. Ke4 *\n",
                Some("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ke2 {signal} 1-0\n"),
                &[DgtResultSignal, DgtResultSignal],
            ),
            // A result glued to the signal's last placement keeps a space before it.
            (
                "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ke2 Kd5 {signal} 5. Ke4?*\n",
                Some("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ke2 {signal} 1-0\n"),
                &[DgtResultSignal, DgtResultSignal],
            ),
            // A result written in a scoresheet form, no tag.
            (
                "1. e4 e5 0.5-0.5\n",
                Some("1. e4 e5 1/2-1/2\n"),
                &[NonStandardResult],
            ),
            // `*` with a decided tag: the movetext follows the tag.
            (
                "[Result \"0-1\"]\n\n1. e4 *\n",
                Some("[Result \"0-1\"]\n\n1. e4 0-1\n"),
                &[ResultMismatch],
            ),
            // Nothing to do: the text is the input's.
            ("1. e4 e5 2. Nf3 *\n", Some("1. e4 e5 2. Nf3 *\n"), &[]),
            // Moves that end without a result, at the end of the input: the result
            // and a line end are written after them.
            ("1. e4 e5", Some("1. e4 e5 *\n"), &[SyntaxError]),
            // After a `;` comment or a `%` line, which run to the line's end: on the
            // next line, in the game's own line ends.
            ("1. e4 e5 ;c", Some("1. e4 e5 ;c\n*\n"), &[SyntaxError]),
            (
                "1. e4 e5 ;c\r\n\r\n",
                Some("1. e4 e5 ;c\r\n*\r\n\r\n"),
                &[SyntaxError],
            ),
            ("4\n%", Some("4\n%\n*\n"), &[SyntaxError]),
            // A game of tags only: on a line of its own after a blank line.
            (
                "[Black \"x\"]",
                Some("[Black \"x\"]\n\n*\n"),
                &[SyntaxError],
            ),
            (
                "[Black \"x\"]\n\n\n",
                Some("[Black \"x\"]\n\n*\n\n\n"),
                &[SyntaxError],
            ),
            // Another syntax error besides: rejected.
            ("1. e4 ) e5\n", None, &[]),
            // A null move in the game is no move: rejected.
            ("1. e4 -- 2. d4 *\n", None, &[]),
        ];
        for (pgn, text, codes) in cases {
            let (got, got_codes) = fix(pgn);
            assert_eq!(got.as_deref(), text, "{pgn}");
            assert_eq!(got_codes, codes, "{pgn}");
        }
    }

    /// A game planilla failed on is rejected, its bytes kept, with an `internal-error`
    /// finding naming it.
    #[test]
    fn a_failed_game_is_rejected_as_it_came() {
        let game = Game::from_bytes(&b"[Event \"Caf\xe9\"]\n\n1. e4 *\n"[..], Encoding::Auto);
        let fixed = Fixed::failed(&game, "boom");
        assert_eq!(fixed.rejected.as_deref(), Some(game.bytes()));
        assert_eq!(fixed.bytes, "[Event \"Café\"]\n\n1. e4 *\n".as_bytes());
        assert_eq!(fixed.reported[0].code, Code::InternalError);
        assert!(fixed.reported[0].message.contains("boom"));
    }
}
