//! Latency per method and the run's counts. Latencies are kept whole (one
//! `u32` of microseconds per answer: 4 MB for a million) and sorted once at
//! the end, so the percentiles are exact rather than bucketed.

use std::collections::BTreeMap;
use std::time::Duration;

/// Every answer's latency for one method, in microseconds.
#[derive(Debug, Clone, Default)]
pub struct Latencies {
    micros: Vec<u32>,
}

impl Latencies {
    /// One answer that took `took`.
    pub fn add(&mut self, took: Duration) {
        self.micros
            .push(u32::try_from(took.as_micros()).unwrap_or(u32::MAX));
    }

    /// Takes in another session's.
    pub fn merge(&mut self, other: Latencies) {
        self.micros.extend(other.micros);
    }

    /// How many answers.
    #[must_use]
    pub fn count(&self) -> usize {
        self.micros.len()
    }

    /// The percentiles asked for (`0.5`, `0.95`, `0.99`), nearest rank, over
    /// the sorted latencies; `None` with no answer.
    #[must_use]
    pub fn percentiles(&self, at: &[f64]) -> Option<Vec<Duration>> {
        if self.micros.is_empty() {
            return None;
        }
        let mut sorted = self.micros.clone();
        sorted.sort_unstable();
        let n = sorted.len();
        Some(
            at.iter()
                .map(|p| {
                    // Nearest rank: the smallest value with at least p of
                    // the answers at or below it.
                    #[expect(
                        clippy::cast_possible_truncation,
                        reason = "a rank within n, which is a usize: the ceiling of p·n fits"
                    )]
                    let rank = ((p * n as f64).ceil() as usize).clamp(1, n);
                    Duration::from_micros(u64::from(sorted[rank - 1]))
                })
                .collect(),
        )
    }
}

/// What a load run did, judged or not.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Requests sent under load (the handshake and discovery not counted).
    pub sent: u64,
    /// Answers matched to a request sent under load.
    pub answered: u64,
    /// Requests with no answer within `--timeout`.
    pub unanswered: u64,
    /// Answers that came after their request's time ran out.
    pub late: u64,
    /// Lines past `--max-frame`, skipped unread.
    pub too_long: u64,
    /// Answers that were errors.
    pub errors: u64,
    /// Answers judged by the verdict on one like them ([`super::memo`]).
    pub recalled: u64,
    /// How long the load phase ran, from the first request to the last answer.
    pub elapsed: Duration,
    /// Latency per method.
    pub latency: BTreeMap<String, Latencies>,
    /// Sessions opened.
    pub sessions: usize,
    /// Whether Ctrl-C ended it.
    pub interrupted: bool,
}

impl Stats {
    /// Answers per second over the load phase.
    #[must_use]
    pub fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            let answered = self.answered as f64;
            answered / secs
        } else {
            0.0
        }
    }

    /// Takes in one session's numbers.
    pub fn merge(&mut self, other: Stats) {
        self.sent += other.sent;
        self.answered += other.answered;
        self.unanswered += other.unanswered;
        self.late += other.late;
        self.errors += other.errors;
        self.recalled += other.recalled;
        self.too_long += other.too_long;
        self.elapsed = self.elapsed.max(other.elapsed);
        self.sessions += other.sessions;
        self.interrupted |= other.interrupted;
        for (method, l) in other.latency {
            self.latency.entry(method).or_default().merge(l);
        }
    }

    /// One line per method: count, p50, p95, p99 (milliseconds).
    #[must_use]
    pub fn table(&self) -> String {
        let mut out = format!(
            "{:<16} {:>9} {:>9} {:>9} {:>9}\n",
            "method", "answers", "p50 ms", "p95 ms", "p99 ms"
        );
        for (method, l) in &self.latency {
            let ms = |d: Duration| format!("{:.3}", d.as_secs_f64() * 1000.0);
            if let Some(p) = l.percentiles(&[0.5, 0.95, 0.99]) {
                out.push_str(&format!(
                    "{method:<16} {:>9} {:>9} {:>9} {:>9}\n",
                    l.count(),
                    ms(p[0]),
                    ms(p[1]),
                    ms(p[2])
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank_over_every_answer() {
        let mut l = Latencies::default();
        assert_eq!(l.percentiles(&[0.5]), None);
        for ms in 1..=100 {
            l.add(Duration::from_millis(ms));
        }
        let p = l.percentiles(&[0.5, 0.95, 0.99, 1.0]).unwrap();
        assert_eq!(
            p,
            [50, 95, 99, 100].map(Duration::from_millis).to_vec(),
            "nearest rank over 1..=100 ms"
        );
        let mut s = Stats {
            answered: 500,
            elapsed: Duration::from_secs(2),
            ..Stats::default()
        };
        s.latency.insert("ping".into(), l);
        assert!((s.rate() - 250.0).abs() < 1e-9);
        assert!(s.table().contains("ping"), "{}", s.table());
    }
}
