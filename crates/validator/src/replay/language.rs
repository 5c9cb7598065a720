//! Language choice: which piece letters a game is written in, decided from the letters
//! of its moves, by replaying the readings they leave when they do not decide, and
//! guessed from the last game's letters to save a pass over the tokens.

use crate::checker::{Checker, Config, GameChecker, Recording};
use crate::finding::{Code, Finding};
use crate::replay::MoveNotation;
use planilla_core::Position;
use planilla_core::detect::{
    Detection, candidates, detect, first_letter, letters_of, same_reading,
};
use planilla_core::san::{Lang, San, SanKind};
use planilla_parser::TokenKind;
use planilla_parser::encoding::decode;

/// The piece letters a game's moves use (variations included), collected while it is
/// replayed (see [`planilla_core::detect::letters_of`]).
#[derive(Debug, Default)]
pub(crate) struct Letters {
    /// Piece letters, bit `c - b'A'`.
    pub(crate) used: u32,
    /// Whether a figurine is used.
    pub(crate) figurines: bool,
}

impl Letters {
    pub(crate) fn add(&mut self, (used, figurines): (u32, bool)) {
        self.used |= used;
        self.figurines |= figurines;
    }

    /// The letters of a move [`San::parse`] read from ASCII `text`: the piece letter
    /// first, and the promotion piece after `=` (what `letters_of` finds there).
    #[inline]
    pub(crate) fn add_plain(&mut self, text: &[u8], san: &San) {
        if let SanKind::Normal {
            promotion: Some(_), ..
        } = san.kind
        {
            self.add(letters_of(text));
        } else if let Some(&c) = text.first() {
            self.used |= first_letter(c);
        }
    }
}

impl GameChecker<'_> {
    /// Replays in the language the letters of the game's moves decide (see
    /// [`GameChecker::detect_language`]). That is nearly always the language of the
    /// previous game (English for a checker's first game: most games are): the replay
    /// starts in that one, collects the letters as it goes and, when they decide
    /// otherwise, drops its findings and starts again. The findings are the same either
    /// way; the guess only saves a pass over the tokens.
    pub(crate) fn replay_detecting(&mut self, start: Position) {
        let findings = self.out.len();
        let recorded = match &self.recording {
            Recording::Played(played) => played.len(),
            _ => 0,
        };
        let plies = self.plies;
        let guess = self.verdict.guess().unwrap_or(Lang::En);
        self.lang = guess;
        let (used, figurines) = self.replay(start);
        // A game read (in part) in a notation without SAN's letters keeps the guess its
        // SAN moves (castling, often nothing else) do not rule out.
        let fits_guess =
            || !figurines && (0..26).all(|b| used & (1 << b) == 0 || guess.has_letter(b'A' + b));
        if self.verdict.by_letters_used(used, figurines) == Some(guess)
            || (self.other_read.is_some() && fits_guess())
        {
            if let Some(note) = self.language_note() {
                self.out.insert(findings, note);
            }
            return;
        }
        self.out.truncate(findings);
        if let Recording::Played(played) = &mut self.recording {
            played.truncate(recorded);
        }
        self.plies = plies;
        self.lang = self.detect_language(&start);
        let at = self.out.len();
        self.replay(start);
        // Made after the replay, which collects the letters it names. An ambiguous
        // game's note already names the language it was read in.
        if !self.lang_ambiguous
            && let Some(note) = self.language_note()
        {
            self.out.insert(at, note);
        }
    }

    /// The note that names the game's notation when it is not SAN (`the game is written
    /// in English descriptive notation`), or its language when SAN was read in another
    /// language than English that no `--lang` named.
    pub(crate) fn language_note(&self) -> Option<Finding> {
        let words = if self.notation() != MoveNotation::San {
            self.notation_words(&self.lang_name(" letters", false))?
        } else if self.lang == Lang::En || self.config.lang.is_some() {
            return None;
        } else {
            self.lang_name(" notation", true)
        };
        let first = self
            .game
            .tokens()
            .iter()
            .find(|t| t.kind == TokenKind::San)?;
        let message = format!("the game is written in {words}");
        let at = first.start as usize;
        Some(self.finding(Code::NotationLanguage, at, message))
    }

    /// The language's name and `what` (` notation`, ` letters`), and the others that
    /// read the game's letters the same way, named before `what` when `inside`
    /// (`Spanish (or Italian: the same letters) notation`), else after it.
    fn lang_name(&self, what: &str, inside: bool) -> String {
        let name = self.lang.name();
        let others = same_reading(self.lang, self.letters.used);
        if others.is_empty() {
            return format!("{name}{what}");
        }
        let others: Vec<&str> = others.iter().map(|l| l.name()).collect();
        let others = format!(" (or {}: the same letters)", others.join(" or "));
        if inside {
            format!("{name}{others}{what}")
        } else {
            format!("{name}{what}{others}")
        }
    }

    /// Decides the language from the letters of every move and, where they leave two
    /// readings, by replaying the main line; reports two legal readings instead of
    /// guessing (and goes on with the first). Runs only when
    /// the guess of [`GameChecker::replay_detecting`] was wrong.
    #[cold]
    fn detect_language(&mut self, start: &Position) -> Lang {
        let game = self.game;
        let main_line_moves = || {
            let mut depth = 0u32;
            game.tokens().iter().filter_map(move |t| {
                match t.kind {
                    TokenKind::VariationStart => depth += 1,
                    TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                    TokenKind::San if depth == 0 => return Some(game.token_bytes(t)),
                    _ => {}
                }
                None
            })
        };
        // Every move, variations included.
        let all_moves = || {
            game.tokens()
                .iter()
                .filter(|t| t.kind == TokenKind::San)
                .map(|t| game.token_bytes(t))
        };
        // The letters of every move rule languages out; nearly always they decide: no
        // list, no replay.
        let others = all_moves()
            .map(letters_of)
            .fold((0, false), |(u, f), (mu, mf)| (u | mu, f | mf));
        if let Some(lang) = self.verdict.by_letters_used(others.0, others.1) {
            return lang;
        }
        let texts: Vec<_> = main_line_moves()
            .map(|m| decode(m, game.encoding_choice()))
            .collect();
        let moves: Vec<&[u8]> = texts.iter().map(|text| text.as_bytes()).collect();
        if moves.is_empty() {
            return Lang::En;
        }
        // With variations, a reading must replay them too: the main line alone may be
        // legal in two languages that the variations tell apart, or the same in both
        // while the variations read differently.
        let has_variations = game
            .tokens()
            .iter()
            .any(|t| t.kind == TokenKind::VariationStart);
        let whole = has_variations
            .then(|| candidates(&moves, others))
            .filter(|langs| langs.len() > 1)
            .and_then(|langs| self.whole_game_detection(&langs));
        match whole.unwrap_or_else(|| detect(start, &moves, others)) {
            Detection::Lang(lang) => lang,
            Detection::Ambiguous(langs) => {
                let names: Vec<&str> = langs.iter().map(|l| l.name()).collect();
                let first = game
                    .tokens()
                    .iter()
                    .find(|t| t.kind == TokenKind::San)
                    .map_or(0, |t| t.start);
                let message = format!(
                    "every move replays legally in {} notation with different moves: checked as {}; choose with --lang",
                    names.join(" and "),
                    langs[0].name()
                );
                self.game_note(Code::NotationLanguage, first as usize, message);
                self.lang_ambiguous = true;
                langs[0]
            }
        }
    }

    /// Among `langs`, the readings under which every move of the game, variations
    /// included, replays: the one (or, with different moves, the several) that do, or
    /// `None` when none does (the main line then decides, see [`detect`]).
    #[cold]
    fn whole_game_detection(&self, langs: &[Lang]) -> Option<Detection> {
        let mut complete: Vec<(Lang, Vec<Option<San>>)> = Vec::new();
        for &lang in langs {
            let mut out = Vec::new();
            let mut played = Vec::new();
            let config = Config {
                lang: Some(lang),
                ..self.config
            };
            Checker::new(config).check_recording(self.game, &mut out, &mut played);
            let failed = out
                .iter()
                .any(|f| matches!(f.code, Code::IllegalMove | Code::AmbiguousMove));
            let moves: Vec<Option<San>> = played.into_iter().map(|p| p.san).collect();
            if !failed && !complete.iter().any(|(_, m)| *m == moves) {
                complete.push((lang, moves));
            }
        }
        match complete.len() {
            0 => None,
            1 => Some(Detection::Lang(complete[0].0)),
            _ => Some(Detection::Ambiguous(
                complete.into_iter().map(|(l, _)| l).collect(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::{GameStats, PlayedMove};
    use planilla_parser::{Encoding, Game};

    /// A game's findings, recorded moves and counts, checked by a checker that checked
    /// `before` first (which leaves the language guess of the next game).
    fn checked_after(before: &str, game: &str) -> (Vec<Finding>, Vec<PlayedMove>, GameStats) {
        let mut checker = Checker::new(Config::default());
        let mut out = Vec::new();
        checker.check(&Game::from_bytes(before, Encoding::Auto), &mut out);
        out.clear();
        let mut played = Vec::new();
        let game = Game::from_bytes(game, Encoding::Auto);
        let stats = checker.check_recording(&game, &mut out, &mut played);
        (out, played, stats)
    }

    /// The replay starts in the language the previous game was read in and starts
    /// again when the letters decide otherwise: whatever came before, a game gets the
    /// same findings (the language note in its place among them) and the same moves.
    #[test]
    fn a_game_reads_the_same_whatever_came_before() {
        let games = [
            // English, with findings before and after the language would be noted.
            "[FEN \"bad\"]\n\n1. e4 e5 *\n",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Qe2 Qe7 6. Ke1 *\n",
            // Spanish, with an illegal move and a variation in English letters.
            "1. e4 e5 2. Cf3 Cc6 3. Ab5 (3. Bb5 Nf6) 3... a6 4. Axc6 dxc6 5. De2 De8 *\n",
            // Spanish with a missed check mark and a promotion letter.
            "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8D *\n",
            // German.
            "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lxc6 dxc6 *\n",
            // Letters that two languages read differently, both legally: detected by replay.
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. Rb1 *\n",
            // No moves at all.
            "[Event \"x\"]\n\n*\n",
            // Spanish letters only after an illegal move (the line stopped): they
            // still decide the language.
            "1. e4 e5 2. e5 Cc6 3. Cf3 *\n",
            // A promotion piece as the only piece letter.
            "[FEN \"8/P3k3/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=D+ *\n",
            // Piece letters only in a variation: they decide the language too.
            "1. e4 (1. Cf3 Cf6 2. g3 g6 3. Ag2 Ag7) 1... e5 2. d4 exd4 *\n",
            // French `F` only in a variation, with letters French shares with others.
            "1. e4 e5 2. Cf3 (2. Fc4 Cf6 3. d3) 2... Cc6 *\n",
        ];
        use Lang::{De, En, Es, Fr};
        let langs = [
            None,
            Some(En),
            Some(Es),
            Some(Es),
            Some(De),
            Some(En),
            Some(En),
            Some(Es),
            Some(Es),
            Some(Es),
            Some(Fr),
        ];
        for (game, lang) in games.into_iter().zip(langs) {
            let alone = checked_after("", game);
            assert_eq!(alone.2.lang, lang, "{game:?}");
            // A checker's first game, with no verdict of the letters yet.
            let (mut out, mut played) = (Vec::new(), Vec::new());
            let game_read = Game::from_bytes(game, Encoding::Auto);
            let stats =
                Checker::new(Config::default()).check_recording(&game_read, &mut out, &mut played);
            assert_eq!((out, played, stats), alone, "{game:?} first");
            if game.contains("(1. Cf3") || game.contains("(2. Fc4") {
                let codes: Vec<Code> = alone.0.iter().map(|f| f.code).collect();
                assert_eq!(codes, [Code::NotationLanguage], "{game:?}");
            }
            for before in games {
                assert_eq!(
                    checked_after(before, game),
                    alone,
                    "{game:?} after {before:?}"
                );
            }
        }
        // The language note stands before the replay's findings, as when detected first.
        let (spanish, _, stats) = checked_after(games[0], games[2]);
        assert_eq!(stats.lang, Some(Lang::Es));
        let codes: Vec<Code> = spanish.iter().map(|f| f.code).collect();
        assert_eq!(codes.first(), Some(&Code::NotationLanguage), "{codes:?}");
        assert!(codes.len() > 1, "{codes:?}");
    }
}
