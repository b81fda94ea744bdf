//! The one reader of every duration a command takes (`--timeout`, `--grace`,
//! `--duration`, …): `5s`, `50ms`, `1.5s`, `2m`, bounded so that adding one
//! to a clock reading never overflows.

use std::time::Duration;

/// The longest duration any option takes.
const MAX_DURATION: Duration = Duration::from_secs(30 * 86_400);

/// The shortest `--timeout` a run takes: below it the clock, not the
/// server, decides whether an answer counts (against the reference peer,
/// `--timeout 1ms` failed hundreds of MUSTs it keeps).
const MIN_ANSWER_TIMEOUT: Duration = Duration::from_millis(100);

/// `5s`, `50ms`, `1.5s`, `2m`.
pub(crate) fn duration(s: &str) -> Result<Duration, String> {
    let (number, unit) = s
        .find(|c: char| c.is_ascii_alphabetic())
        .map_or((s, "s"), |i| s.split_at(i));
    let n: f64 = number
        .parse()
        .map_err(|_| format!("`{s}` is not a duration such as 5s or 50ms"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        _ => return Err(format!("`{s}`: the unit is ms, s or m")),
    };
    let d = Duration::try_from_secs_f64(secs).map_err(|e| format!("`{s}`: {e}"))?;
    // Every wait and budget is added to a clock reading, which a duration of
    // centuries would overflow (a panic, where bad input gets an error).
    if d > MAX_DURATION {
        return Err(format!(
            "`{s}`: longer than {} days, the most any wait or budget may be",
            MAX_DURATION.as_secs() / 86_400
        ));
    }
    Ok(d)
}

/// [`duration`], more than zero: a budget or a wait of nothing would judge
/// nothing.
pub(crate) fn positive_duration(s: &str) -> Result<Duration, String> {
    match duration(s)? {
        Duration::ZERO => Err(format!("`{s}`: must be more than zero")),
        d => Ok(d),
    }
}

/// A `--timeout` for answers a run judges: at least [`MIN_ANSWER_TIMEOUT`].
pub(crate) fn answer_timeout(s: &str) -> Result<Duration, String> {
    match positive_duration(s)? {
        d if d < MIN_ANSWER_TIMEOUT => Err(format!(
            "`{s}`: at least {}ms: a shorter wait judges the clock, not the server (an answer it has not had time to send counts as missing, a MUST broken)",
            MIN_ANSWER_TIMEOUT.as_millis()
        )),
        d => Ok(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--timeout` takes 100ms and more: below it the clock decides.
    #[test]
    fn an_answer_timeout_is_at_least_100ms() {
        assert_eq!(answer_timeout("100ms"), Ok(Duration::from_millis(100)));
        assert_eq!(answer_timeout("5s"), Ok(Duration::from_secs(5)));
        assert!(answer_timeout("99ms")
            .unwrap_err()
            .contains("at least 100ms"));
        assert!(answer_timeout("0s").is_err());
    }

    #[test]
    fn durations_parse_with_their_units() {
        assert_eq!(duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(duration("50ms"), Ok(Duration::from_millis(50)));
        assert_eq!(duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert!(duration("5h").is_err());
        assert!(duration("fast").is_err());
        // Bounded, so adding it to a clock reading cannot overflow.
        assert!(duration("10000000000000000000s").is_err());
        assert!(duration("43200m").is_ok());
        assert!(duration("43201m").is_err());
        assert_eq!(duration("0s"), Ok(Duration::ZERO));
        assert!(positive_duration("0ms").is_err());
        assert_eq!(positive_duration("1ms"), Ok(Duration::from_millis(1)));
    }
}
