//! Findings about legal moves written otherwise than PGN export writes them:
//! disambiguation, capture and check marks, and other forms.

use crate::checker::GameChecker;
use crate::finding::Code;
use crate::replay::Site;
use planilla_core::san::{
    CaptureMark, CheckMark, Disambiguation, Forms, Lang, Notation, San, SanKind, Suffix,
};
use planilla_core::{Move, MoveKind};

impl GameChecker<'_> {
    /// Reports how the written move `san` (the legal move `m` at `site`) differs from
    /// what PGN export writes, as `notation` found it; in Spanish, the forms its
    /// scoresheets use are no finding.
    #[cold]
    #[inline(never)]
    pub(super) fn notation_findings(
        &mut self,
        san: &San,
        notation: &Notation,
        m: &Move,
        site: &Site,
    ) {
        let before = site.before;
        // Spanish SAN, or castling in a Spanish descriptive game.
        let spanish = self.lang == Lang::Es || self.desc_lang == Some(Lang::Es);
        let canonical_san =
            San::from_move(before, m).with_suffix(Suffix::deserved(&before.play(m)));
        let canonical = canonical_san.to_string_in(self.lang);
        let mut found: Vec<(Code, String)> = Vec::new();
        match notation.disambiguation {
            Disambiguation::Right => {}
            // Long algebraic writes every departure square: no disambiguation to judge.
            _ if self.lan_game => {}
            // Another piece reaches the square, but less than what is written tells
            // them apart (`Nb1d2` where the file is enough).
            Disambiguation::Redundant
                if matches!(
                    canonical_san.kind,
                    SanKind::Normal { file, rank, .. } if file.is_some() || rank.is_some()
                ) =>
            {
                found.push((
                    Code::RedundantDisambiguation,
                    format!(
                        "more of the departure square than the other piece that reaches {} needs: write {canonical}",
                        m.to()
                    ),
                ))
            }
            Disambiguation::Redundant => found.push((
                Code::RedundantDisambiguation,
                format!("no other piece can go to {}: write {canonical}", m.to()),
            )),
            Disambiguation::PinnedOnly => found.push((
                Code::PinnedDisambiguation,
                format!(
                    "the other piece that reaches {} is pinned: {canonical} is enough",
                    m.to()
                ),
            )),
            Disambiguation::NonPreferred => found.push((
                Code::NonPreferredDisambiguation,
                format!("the file tells the pieces apart: write {canonical}"),
            )),
        }
        match notation.capture {
            CaptureMark::Right => {}
            CaptureMark::Missing => found.push((
                Code::CaptureMark,
                format!("a capture written without 'x': {canonical}"),
            )),
            CaptureMark::Spurious => found.push((
                Code::CaptureMark,
                format!("'x' on a move that captures nothing: {canonical}"),
            )),
        }
        // `e.p.`/`a.p.` on a move that is no en-passant capture (on a scoresheet, often a
        // sign that the move before was copied wrong).
        let wrong_en_passant = notation.forms.contains(Forms::EN_PASSANT_MARK)
            && !matches!(m.kind(), MoveKind::EnPassant);
        if wrong_en_passant {
            found.push((
                Code::CaptureMark,
                format!("an en-passant mark on a move that is no en-passant capture: {canonical}"),
            ));
        }
        match notation.check {
            CheckMark::Right => {}
            CheckMark::DoublePlusForMate if spanish => {}
            CheckMark::DoublePlusForMate => found.push((
                Code::CheckMark,
                format!("'++' written for mate: {canonical}"),
            )),
            CheckMark::Missing => found.push((
                Code::CheckMark,
                format!(
                    "the move gives {} but no mark is written: {canonical}",
                    if canonical.ends_with('#') {
                        "mate"
                    } else {
                        "check"
                    }
                ),
            )),
            CheckMark::Wrong => {
                let said = match san.suffix {
                    Some(Suffix::Check) => "'+'",
                    Some(Suffix::Mate) => "'#'",
                    Some(Suffix::DoublePlus) => "'++'",
                    None => "no mark",
                };
                let is = if canonical.ends_with('#') {
                    "mate"
                } else if canonical.ends_with('+') {
                    "check"
                } else {
                    "no check"
                };
                found.push((
                    Code::CheckMark,
                    format!("{said} written but the move gives {is}: {canonical}"),
                ));
            }
        }
        let mut forms = notation.forms.without(Forms::NULL_MOVE);
        // Long algebraic as the game's notation is named once, in its note.
        if self.lan_game {
            forms = forms.without(Forms::LONG_ALGEBRAIC);
        }
        if wrong_en_passant {
            forms = forms.without(Forms::EN_PASSANT_MARK);
        }
        if spanish {
            forms = forms
                .without(Forms::CASTLE_ZEROS)
                .without(Forms::PROMOTION_BARE)
                .without(Forms::EN_PASSANT_MARK);
            if matches!(san.kind, SanKind::Castle(_)) {
                forms = forms.without(Forms::CASTLE_OTHER);
            }
        }
        if !forms.is_empty() {
            let what: Vec<&str> = forms.descriptions().collect();
            found.push((
                Code::NonStandardSan,
                format!("{}: PGN export writes {canonical}", what.join(", ")),
            ));
        }
        if found.is_empty() {
            return;
        }
        for (code, message) in found {
            self.push_at(code, site, message);
        }
    }
}
