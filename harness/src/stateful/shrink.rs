//! Shrinking a failing sequence: delta debugging by removal. Chunks of the
//! sequence are dropped, halves first, then smaller, down to single
//! operations, until no operation can go and the failure still shows. The
//! live half runs each candidate on a fresh peer; this half only proposes,
//! so it is pure and can be tested without one.

/// Proposes ever shorter candidates of a failing sequence.
#[derive(Debug, Clone)]
pub struct Shrinker<T> {
    best: Vec<T>,
    chunk: usize,
    at: usize,
    /// Whether the pass at chunk size 1 removed something (then it runs
    /// again: a removal can make another possible).
    removed_in_pass: bool,
    done: bool,
}

impl<T: Clone> Shrinker<T> {
    /// A shrinker of `failing`, a sequence known to fail.
    #[must_use]
    pub fn new(failing: Vec<T>) -> Self {
        let chunk = (failing.len() / 2).max(1);
        let done = failing.len() <= 1;
        Shrinker {
            best: failing,
            chunk,
            at: 0,
            removed_in_pass: false,
            done,
        }
    }

    /// The next candidate to try, `None` once nothing more can be removed.
    /// Each candidate must be answered with [`Shrinker::verdict`] before the
    /// next is asked for.
    #[must_use]
    pub fn candidate(&mut self) -> Option<Vec<T>> {
        loop {
            if self.done {
                return None;
            }
            if self.at < self.best.len() {
                let end = (self.at + self.chunk).min(self.best.len());
                let mut out = self.best[..self.at].to_vec();
                out.extend_from_slice(&self.best[end..]);
                if out.is_empty() {
                    // The empty sequence fails nothing: skip it.
                    self.at = end;
                    continue;
                }
                return Some(out);
            }
            // The pass is over.
            if self.chunk > 1 {
                self.chunk /= 2;
            } else if !self.removed_in_pass {
                self.done = true;
            }
            self.at = 0;
            self.removed_in_pass = false;
        }
    }

    /// Whether the last candidate still failed: then it is the new best,
    /// else the chunk it dropped stays.
    pub fn verdict(&mut self, still_fails: bool) {
        let end = (self.at + self.chunk).min(self.best.len());
        if still_fails {
            self.best.drain(self.at..end);
            self.removed_in_pass = true;
        } else {
            self.at = end;
        }
    }

    /// The shortest failing sequence found so far.
    #[must_use]
    pub fn best(&self) -> &[T] {
        &self.best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shrinks `ops` against `fails` to the end, returning the result and
    /// how many candidates were tried.
    fn shrink(ops: Vec<u32>, fails: impl Fn(&[u32]) -> bool) -> (Vec<u32>, usize) {
        let mut s = Shrinker::new(ops);
        let mut tried = 0;
        while let Some(c) = s.candidate() {
            tried += 1;
            s.verdict(fails(&c));
        }
        (s.best().to_vec(), tried)
    }

    #[test]
    fn a_failure_needing_two_steps_in_order_keeps_exactly_them() {
        // Fails when a 3 comes somewhere after a 7.
        let fails = |ops: &[u32]| {
            ops.iter()
                .position(|&o| o == 7)
                .is_some_and(|i| ops[i..].contains(&3))
        };
        let ops: Vec<u32> = (0..40).map(|i| [1, 7, 2, 5, 3, 9][i % 6]).collect();
        assert!(fails(&ops));
        let (best, tried) = shrink(ops, fails);
        assert_eq!(best, vec![7, 3]);
        assert!(tried < 200, "{tried}");
    }

    #[test]
    fn one_operation_is_left_alone() {
        let mut s = Shrinker::new(vec![1]);
        assert!(s.candidate().is_none());
        assert_eq!(s.best(), &[1]);
    }
}
