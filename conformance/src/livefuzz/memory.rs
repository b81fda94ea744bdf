//! Memory growth of a peer this run started, judged on a trend and not on two
//! points: a runtime's heap grows in steps (an arena, a GC's next threshold)
//! and falls back in saw teeth, so first-versus-last calls a single step a
//! leak and misses a slow climb that a GC happened to dip at the end.
//!
//! A series of resident-set samples is a finding only when all three hold:
//! the least-squares slope over the whole series is at least
//! [`Thresholds::slope_kib_per_s`], the slope over its second half is still at
//! least half of that (the climb goes on to the end: a step early in the run
//! flattens out), and the median of the last quarter is at least
//! [`Thresholds::ratio`] times the median of the first quarter (the growth is
//! large against where the peer started, not noise around it).
//!
//! No rule of JSON-RPC 2.0 or MCP bounds a server's memory: the finding is
//! reported for the peer's authors, at SHOULD level, with no rule.

use std::time::Duration;

/// One sample: when (since the peer started being sampled) and `VmRSS`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Seconds since the series began.
    pub t: f64,
    /// Resident memory, KiB.
    pub kib: u64,
}

/// What counts as sustained growth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// The least slope, KiB per second, over the whole series.
    pub slope_kib_per_s: f64,
    /// The least ratio of the last quarter's median to the first quarter's.
    pub ratio: f64,
    /// The fewest samples a series needs to be judged at all.
    pub min_samples: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            // 1 MiB/s is 60 MiB a minute: far above an allocator's drift,
            // well below what a per-frame leak of a few KiB at hundreds of
            // frames per second gives.
            slope_kib_per_s: 1024.0,
            ratio: 1.5,
            min_samples: 8,
        }
    }
}

/// Sustained growth, as found.
#[derive(Debug, Clone, PartialEq)]
pub struct Growth {
    /// The whole series' slope, KiB/s.
    pub slope_kib_per_s: f64,
    /// The first quarter's median, KiB.
    pub first_kib: u64,
    /// The last quarter's median, KiB.
    pub last_kib: u64,
    /// How many samples, over how long.
    pub samples: usize,
    /// The series' span.
    pub span: Duration,
}

impl Growth {
    /// The finding's detail, in words.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "VmRSS grew steadily, {:.0} KiB/s by least squares over {} samples in {:.1}s, \
             from a median of {} KiB (first quarter) to {} KiB (last quarter)",
            self.slope_kib_per_s,
            self.samples,
            self.span.as_secs_f64(),
            self.first_kib,
            self.last_kib
        )
    }
}

/// The least-squares slope of `kib` over `t`; `None` for fewer than two
/// samples or no spread in time.
#[must_use]
pub fn slope(samples: &[Sample]) -> Option<f64> {
    if samples.len() < 2 {
        return None;
    }
    let n = samples.len() as f64;
    let mean_t = samples.iter().map(|s| s.t).sum::<f64>() / n;
    let mean_y = samples.iter().map(|s| s.kib as f64).sum::<f64>() / n;
    let (mut cov, mut var) = (0.0, 0.0);
    for s in samples {
        let dt = s.t - mean_t;
        cov += dt * (s.kib as f64 - mean_y);
        var += dt * dt;
    }
    (var > 0.0).then(|| cov / var)
}

fn median(samples: &[Sample]) -> u64 {
    let mut values: Vec<u64> = samples.iter().map(|s| s.kib).collect();
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

/// Whether `samples` (one peer process, in time order) grew in a sustained
/// way under `limits`.
#[must_use]
pub fn sustained_growth(samples: &[Sample], limits: &Thresholds) -> Option<Growth> {
    if samples.len() < limits.min_samples.max(4) {
        return None;
    }
    let whole = slope(samples)?;
    let half = slope(&samples[samples.len() / 2..])?;
    let quarter = samples.len() / 4;
    let first = median(&samples[..quarter]);
    let last = median(&samples[samples.len() - quarter..]);
    let grew = first > 0 && last as f64 >= limits.ratio * first as f64;
    if whole >= limits.slope_kib_per_s && half >= limits.slope_kib_per_s / 2.0 && grew {
        let span = samples[samples.len() - 1].t - samples[0].t;
        Some(Growth {
            slope_kib_per_s: whole,
            first_kib: first,
            last_kib: last,
            samples: samples.len(),
            span: Duration::from_secs_f64(span.max(0.0)),
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::fuzzing::mutate::Rng;

    /// `n` samples 100 ms apart from `f(t)`, with ±`noise` KiB of jitter.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "synthetic KiB values, clamped at zero and far below 2^52"
    )]
    fn series(n: usize, noise: u64, f: impl Fn(f64) -> f64) -> Vec<Sample> {
        let mut rng = Rng::new(7);
        (0..n)
            .map(|i| {
                let t = i as f64 * 0.1;
                let jitter = (rng.next_u64() % (2 * noise + 1)) as f64 - noise as f64;
                Sample {
                    t,
                    kib: (f(t) + jitter).max(0.0) as u64,
                }
            })
            .collect()
    }

    #[test]
    fn flat_with_noise_is_no_finding() {
        // 60 MiB, ±4 MiB of jitter, for 30 s.
        let flat = series(300, 4096, |_| 61_440.0);
        assert_eq!(sustained_growth(&flat, &Thresholds::default()), None);
    }

    #[test]
    fn a_steady_climb_is_a_finding() {
        // 40 MiB growing 3 MiB/s for 20 s, ±2 MiB of jitter.
        let climb = series(200, 2048, |t| 40_960.0 + 3072.0 * t);
        let growth = sustained_growth(&climb, &Thresholds::default()).expect("a leak");
        assert!(
            (growth.slope_kib_per_s - 3072.0).abs() < 200.0,
            "{growth:?}"
        );
        assert!(2 * growth.last_kib >= 3 * growth.first_kib, "{growth:?}");
        assert!(growth.describe().contains("least squares"));
    }

    #[test]
    fn one_step_early_in_the_run_is_no_finding() {
        // A heap that doubles once at 2 s and stays: first-vs-last would call
        // it growth; the second half is flat.
        let step = series(300, 512, |t| if t < 2.0 { 30_000.0 } else { 90_000.0 });
        assert!(slope(&step).unwrap() > 0.0);
        assert_eq!(sustained_growth(&step, &Thresholds::default()), None);
    }

    #[test]
    fn a_gc_saw_tooth_is_no_finding() {
        // Climbs 20 MiB/s for 1 s, collected back, again and again.
        let saw = series(300, 256, |t| 50_000.0 + 20_480.0 * (t % 1.0));
        assert_eq!(sustained_growth(&saw, &Thresholds::default()), None);
    }

    #[test]
    fn a_slow_climb_below_the_ratio_or_too_few_samples_is_no_finding() {
        // 2 MiB/s but from 1 GiB: +40 MiB in 20 s is under 1.5×.
        let big = series(200, 128, |t| 1_048_576.0 + 2048.0 * t);
        assert_eq!(sustained_growth(&big, &Thresholds::default()), None);
        let climb = series(5, 0, |t| 1000.0 + 100_000.0 * t);
        assert_eq!(sustained_growth(&climb, &Thresholds::default()), None);
    }

    #[test]
    fn the_slope_is_least_squares() {
        let line: Vec<Sample> = (0..10)
            .map(|i| Sample {
                t: f64::from(i),
                kib: 100 + 7 * u64::from(i as u32),
            })
            .collect();
        assert!((slope(&line).unwrap() - 7.0).abs() < 1e-9);
        assert_eq!(slope(&line[..1]), None);
    }
}
