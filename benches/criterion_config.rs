//! The measurement settings every wirecheck bench uses, shared by path with the
//! lossless-`Value` bench (its own workspace), so the ratios `report.py` divides
//! come from runs measured alike.

use std::time::Duration;

use criterion::Criterion;

/// Half a second of warm-up, two seconds of measurement, fifty samples: the whole
/// table in a few minutes on two cores.
pub fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}
