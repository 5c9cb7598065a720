//! The smallest text edits that turn a game's text into another (`fix`'s, `convert`'s):
//! the two are cut into words and the runs of spaces between them, the words both share
//! in order are kept (a longest common subsequence), and each stretch between kept words
//! becomes one edit. Undo then restores exactly the tokens that changed.

use std::ops::Range;

/// One replacement: the bytes `range` of the old text become `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replace {
    /// Bytes of the old text.
    pub range: Range<usize>,
    /// What they become.
    pub text: String,
}

/// Above this many cells the comparison of the middle is not searched word by word: the
/// changed middle is one edit (a game of thousands of changed words).
const MAX_CELLS: usize = 4_000_000;

/// The edits that make `old` into `new`, in order, not overlapping.
pub fn diff(old: &str, new: &str) -> Vec<Replace> {
    if old == new {
        return Vec::new();
    }
    let a = words(old);
    let b = words(new);
    // The common start and end, word by word.
    let mut head = 0;
    while head < a.len() && head < b.len() && old[a[head].clone()] == new[b[head].clone()] {
        head += 1;
    }
    let mut tail = 0;
    while tail < a.len() - head
        && tail < b.len() - head
        && old[a[a.len() - 1 - tail].clone()] == new[b[b.len() - 1 - tail].clone()]
    {
        tail += 1;
    }
    let (a_mid, b_mid) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let a_start = a_mid
        .first()
        .map_or_else(|| a.get(head).map_or(old.len(), |w| w.start), |w| w.start);
    let b_start = b_mid
        .first()
        .map_or_else(|| b.get(head).map_or(new.len(), |w| w.start), |w| w.start);
    let pairs = if a_mid.len().saturating_mul(b_mid.len()) <= MAX_CELLS {
        common(old, a_mid, new, b_mid)
    } else {
        Vec::new()
    };
    // Each stretch between two kept words (and before the first, after the last).
    let mut out = Vec::new();
    let (mut ai, mut bi) = (a_start, b_start);
    let ends = pairs
        .iter()
        .map(|&(x, y)| (a_mid[x].clone(), b_mid[y].clone()))
        .chain(std::iter::once((
            a_mid.last().map_or(a_start, |w| w.end)..usize::MAX,
            b_mid.last().map_or(b_start, |w| w.end)..usize::MAX,
        )));
    for (wa, wb) in ends {
        if old[ai..wa.start] != new[bi..wb.start] {
            out.push(Replace {
                range: ai..wa.start,
                text: new[bi..wb.start].to_string(),
            });
        }
        ai = wa.end;
        bi = wb.end;
    }
    out
}

/// The words of `text` and the runs of spaces between them, as byte ranges that cover it.
fn words(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=bytes.len() {
        if i == bytes.len() || bytes[i].is_ascii_whitespace() != bytes[start].is_ascii_whitespace()
        {
            out.push(start..i);
            start = i;
        }
    }
    out
}

/// The longest common subsequence of two word lists, as pairs of indexes.
fn common(old: &str, a: &[Range<usize>], new: &str, b: &[Range<usize>]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if old[a[i].clone()] == new[b[j].clone()] {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut pairs = Vec::new();
    while i < n && j < m {
        if old[a[i].clone()] == new[b[j].clone()] {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// `old` with `edits` applied (in order, not overlapping).
pub fn apply(old: &str, edits: &[Replace]) -> String {
    let mut out = String::with_capacity(old.len());
    let mut at = 0;
    for e in edits {
        out.push_str(&old[at..e.range.start]);
        out.push_str(&e.text);
        at = e.range.end;
    }
    out.push_str(&old[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn only_the_changed_words_are_edited() {
        let old = "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 1-0\n";
        let new = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
        let edits = diff(old, new);
        let texts: Vec<&str> = edits.iter().map(|e| &old[e.range.clone()]).collect();
        assert_eq!(texts, ["Cf3", "Cc6", "Ab5"]);
        assert_eq!(apply(old, &edits), new);
        assert!(diff(old, old).is_empty());
        // A word removed with its space, a word added at the end.
        let new = "1. e4 e5 2. Cf3 3. Ab5 a6 1-0 *\n";
        assert_eq!(apply(old, &diff(old, new)), new);
    }

    proptest! {
        /// Whatever the two texts, the edits make the one into the other.
        #[test]
        fn the_edits_make_the_new_text(
            old in "[a-c1 \n]{0,40}",
            new in "[a-c1 \n]{0,40}",
        ) {
            let edits = diff(&old, &new);
            prop_assert_eq!(apply(&old, &edits), new);
            for w in edits.windows(2) {
                prop_assert!(w[0].range.end <= w[1].range.start);
            }
        }
    }
}
