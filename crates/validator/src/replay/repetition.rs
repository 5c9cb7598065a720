//! Repetition: the keys of each line's positions since its last irreversible move,
//! and how often a position occurred, counted through a variation's ancestors.
//!
//! A variation does not copy its parent's keys: it counts through them, since the
//! parent does not move while the variation is read. Long runs of reversible moves keep
//! a count per key, and a small filter proves most positions new without a scan.

/// The repetition keys of one line. A variation does not copy its parent's keys: it
/// counts through them (`base`), since the parent does not move while the variation is
/// read. A long run of reversible moves keeps a count per key, so counting repetitions
/// stays linear in the number of moves.
#[derive(Default)]
pub(super) struct History {
    /// The keys of this line's positions, in order, from its first (a variation's start).
    pub(super) keys: Vec<u64>,
    /// First key that may recur: after the last irreversible move.
    since: usize,
    /// `since` before the last move, and `None` when history restarted there (a null
    /// move: a variation replacing it starts a history of its own).
    prev_since: Option<usize>,
    /// Occurrences of each key in `keys[since..]`, kept once that run is long.
    counts: Option<KeyCounts>,
    /// `counts` before the last move, when that move was irreversible.
    prev_counts: Option<KeyCounts>,
    /// The parent's keys `[start..end]` that come before this line's own keys.
    base: Option<Base>,
    /// A filter of the keys in `keys[since..]`, one for each parity of their index
    /// (the side to move): bit `key >> 58` of `seen[i % 2]` is set for every key at
    /// index `i`. A clear bit proves a position new without a scan (see
    /// [`History::may_recur`]).
    seen: [u64; 2],
}

#[derive(Clone, Copy)]
struct Base {
    start: usize,
    end: usize,
}

/// A run of reversible moves this long keeps a count per key.
const COUNTED_RUN: usize = 48;

type KeyCounts = std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// Repetition keys are Zobrist keys, already uniformly spread: they hash to themselves.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl History {
    /// A history starting at one position, with room for `capacity` keys in `keys` (a
    /// list of an earlier line, reused: cleared here).
    pub(super) fn starting(key: u64, capacity: usize, mut keys: Vec<u64>) -> History {
        keys.clear();
        keys.reserve(capacity.max(1));
        keys.push(key);
        History {
            keys,
            seen: [seen_bit(key), 0],
            ..History::default()
        }
    }

    /// A variation's history, branching from the position `before_last` (before this
    /// line's last move) or from the current position, whose key is `start_key`; its
    /// keys go into `keys` (a list of an earlier variation, reused: cleared here).
    pub(super) fn branch(&self, before_last: bool, start_key: u64, mut keys: Vec<u64>) -> History {
        // The start position is the variation's first key; the base holds the parent's
        // keys before it that may recur.
        let len = self.keys.len();
        let base = if before_last {
            self.prev_since.map(|start| Base {
                start,
                end: len - 2,
            })
        } else {
            Some(Base {
                start: self.since,
                end: len - 1,
            })
        };
        keys.clear();
        keys.reserve(16);
        keys.push(start_key);
        History {
            keys,
            base,
            seen: [seen_bit(start_key), 0],
            ..History::default()
        }
    }

    /// Occurrences of `key` in `keys[start..end]`.
    /// The position counted stands at index `target` (in this line's numbering, past
    /// its last key): only keys an even number of plies before it, four or more, can
    /// be the same position (the same side to move, and a piece that left a square needs
    /// two moves of its side to come back).
    fn count_in(&self, start: usize, end: usize, key: u64, target: usize) -> u32 {
        let len = self.keys.len();
        let counted = if start == self.since {
            self.counts.as_ref().map(|c| (c, len))
        } else if Some(start) == self.prev_since && self.since + 1 == len {
            self.prev_counts.as_ref().map(|c| (c, len - 1))
        } else {
            None
        };
        let scan = |keys: &[u64]| keys.iter().filter(|&&k| k == key).count() as u32;
        match counted {
            // The counts cover `keys[start..upto]`, a key or two more than asked.
            Some((counts, upto)) if end <= upto && upto - end <= 2 => {
                counts.get(&key).copied().unwrap_or(0) - scan(&self.keys[end..upto])
            }
            _ => {
                let Some(mut hi) = target.checked_sub(4).map(|t| t.min(end.wrapping_sub(1))) else {
                    return 0;
                };
                if (target - hi) % 2 == 1 {
                    let Some(h) = hi.checked_sub(1) else { return 0 };
                    hi = h;
                }
                if end == 0 || hi < start {
                    return 0;
                }
                self.keys[start..=hi]
                    .iter()
                    .rev()
                    .step_by(2)
                    .filter(|&&k| k == key)
                    .count() as u32
            }
        }
    }

    /// Records the position after a move: its key, and whether the move was
    /// irreversible (a capture or a pawn move) or a null move (history restarts).
    #[inline(always)]
    pub(super) fn push(&mut self, key: u64, restart: Restart) {
        // Nearly every move, inlined: reversible in a short run without counts, or
        // irreversible after one.
        let len = self.keys.len();
        if restart != Restart::Null
            && self.counts.is_none()
            && self.prev_counts.is_none()
            && len < self.keys.capacity()
            && len + 1 - self.since < COUNTED_RUN
        {
            self.prev_since = Some(self.since);
            // Branch-free: an irreversible move starts the run (and its filter) anew.
            let keep = u64::from(restart != Restart::Irreversible).wrapping_neg();
            self.seen[0] &= keep;
            self.seen[1] &= keep;
            if restart == Restart::Irreversible {
                self.since = len;
            }
            self.seen[len & 1] |= seen_bit(key);
            self.keys.push(key);
            return;
        }
        self.push_slow(key, restart);
    }

    /// Whether `key`, about to be pushed, may stand in `keys[since..]` at an index of
    /// its own parity: `false` proves that it does not.
    #[inline]
    fn may_recur(&self, key: u64) -> bool {
        self.seen[self.keys.len() & 1] & seen_bit(key) != 0
    }

    #[inline(never)]
    fn push_slow(&mut self, key: u64, restart: Restart) {
        self.prev_counts = None;
        if restart != Restart::No {
            self.seen = [0, 0];
        }
        self.seen[self.keys.len() & 1] |= seen_bit(key);
        match restart {
            Restart::No => {
                self.prev_since = Some(self.since);
                if let Some(counts) = &mut self.counts {
                    *counts.entry(key).or_insert(0) += 1;
                }
            }
            Restart::Irreversible => {
                self.prev_since = Some(self.since);
                self.prev_counts = self.counts.take();
                self.since = self.keys.len();
            }
            Restart::Null => {
                self.prev_since = None;
                self.counts = None;
                self.since = self.keys.len();
                self.base = None;
            }
        }
        self.keys.push(key);
        if self.counts.is_none() && self.keys.len() - self.since >= COUNTED_RUN {
            self.count_run();
        }
    }

    /// Starts counting the keys of the current run, once it is long.
    #[cold]
    fn count_run(&mut self) {
        let mut counts = KeyCounts::default();
        for &k in &self.keys[self.since..] {
            *counts.entry(k).or_insert(0) += 1;
        }
        self.counts = Some(counts);
    }
}

/// The bit of `key` in [`History::seen`].
#[inline]
fn seen_bit(key: u64) -> u64 {
    1 << (key >> 58)
}

/// How a move changes what may recur.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Restart {
    /// A reversible move: every earlier position of the run may recur.
    No,
    /// A capture or a pawn move: no earlier position can recur.
    Irreversible,
    /// A null move: the history restarts, and a variation replacing it starts a
    /// history of its own.
    Null,
}

/// How often `key` occurred in the history of the line `at` of a stack of lines, its
/// variation's ancestors included, since the last irreversible move.
#[inline]
pub(super) fn occurrences(histories: &[History], at: usize, key: u64) -> u32 {
    let own = &histories[at];
    // Nothing before the line's own keys to count, and either fewer than four
    // reversible plies since the last capture or pawn move or a key the filter has not
    // seen: no position can have recurred (the common case). One branch, nearly always
    // taken: tested one by one, these conditions mispredicted (measured: the chain
    // cost about 4% of `check -j1`'s CPU time).
    let alone = (own.since != 0) | own.base.is_none();
    if alone & ((own.keys.len() - own.since < 4) | !own.may_recur(key)) {
        return 0;
    }
    // The counted position comes after the line's last key; a variation's first key
    // stands where its base ends.
    let mut target = own.keys.len();
    let mut n = own.count_in(own.since, own.keys.len(), key, target);
    // Every line's keys start with its first position: `since` is 0 until a restart.
    let mut base = if own.since == 0 { own.base } else { None };
    let mut at = at;
    while let Some(b) = base {
        at -= 1;
        let parent = &histories[at];
        target += b.end;
        n += parent.count_in(b.start, b.end, key, target);
        base = if b.start == 0 { parent.base } else { None };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of the model: the keys that may recur, copied at every step, and every
    /// key from the game's start.
    #[derive(Clone)]
    struct ModelLine {
        live: Vec<u64>,
        prev_live: Option<Vec<u64>>,
        all: Vec<u64>,
    }

    /// The histories of a stack of lines against a model that copies every key list:
    /// random moves (reversible, irreversible, null), variations branching before the
    /// last move or at the current position, long reversible runs (counted per key) and
    /// few distinct keys (many repetitions).
    #[test]
    fn history_counts_what_a_copying_model_counts() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..400 {
            // Every other round, restarts are rare: long runs, counted per key.
            let restarts = if round % 2 == 0 { 30 } else { 600 };
            // Keys spread over the filter's bits three ways (`History::seen`): all on
            // one bit (it proves nothing), each on its own, and several on one.
            let spread = |key: u64| match round % 3 {
                0 => key,
                1 => key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                _ => (key % 3) << 58 | key,
            };
            let mut stack = vec![History::starting(0, 1, Vec::new())];
            let mut model = vec![ModelLine {
                live: vec![0],
                prev_live: None,
                all: vec![0],
            }];
            let mut moved = vec![false];
            let steps = 50 + next(800);
            for _ in 0..steps {
                let at = stack.len() - 1;
                match next(20) {
                    0 if stack.len() < 6 => {
                        let before_last = moved[at] && next(2) == 0;
                        let m = &model[at];
                        let start = m.all.len() - 1 - usize::from(before_last);
                        let start_key = m.all[start];
                        let all = m.all[..=start].to_vec();
                        let live = if before_last {
                            m.prev_live.clone().unwrap_or_else(|| vec![start_key])
                        } else {
                            m.live.clone()
                        };
                        // A reused list comes with keys of an earlier variation.
                        let reused = vec![start_key ^ 1; next(4) as usize];
                        stack.push(stack[at].branch(before_last, start_key, reused));
                        model.push(ModelLine {
                            live,
                            prev_live: None,
                            all,
                        });
                        moved.push(false);
                    }
                    1 if stack.len() > 1 => {
                        stack.pop();
                        model.pop();
                        moved.pop();
                    }
                    _ => {
                        // Keys as in chess: the side to move in the low bit, and never the
                        // key of two plies before (a piece that left cannot be back).
                        let all = &model[at].all;
                        let parity = all.len() as u64 % 2;
                        let key = loop {
                            let key = spread(next(5) * 2 + parity);
                            if all.len() < 2 || all[all.len() - 2] != key {
                                break key;
                            }
                        };
                        let restart = match next(restarts) {
                            0 => Restart::Null,
                            1..=2 => Restart::Irreversible,
                            _ => Restart::No,
                        };
                        let expected = model[at].live.iter().filter(|&&k| k == key).count();
                        let counted = occurrences(&stack, at, key);
                        if restart == Restart::No {
                            assert_eq!(counted as usize, expected);
                        }
                        stack[at].push(key, restart);
                        let m = &mut model[at];
                        m.prev_live = (restart != Restart::Null).then(|| m.live.clone());
                        if restart != Restart::No {
                            m.live.clear();
                        }
                        m.live.push(key);
                        m.all.push(key);
                        moved[at] = true;
                    }
                }
            }
        }
    }
}
