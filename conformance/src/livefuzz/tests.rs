//! The live fuzzer's budget and its dealing of frames.

use super::*;

/// `--duration` is the whole run's. Nothing
/// found, the fuzzing has all of it; something found, it leaves a third
/// (at most `--minimize-budget`) for confirming and shrinking.
#[test]
fn fuzzing_leaves_a_share_of_the_duration_once_something_is_found() {
    let s = Duration::from_secs;
    assert_eq!(fuzzing_time(s(30), true, false, s(60)), s(30));
    assert_eq!(fuzzing_time(s(30), true, true, s(60)), s(20));
    assert_eq!(fuzzing_time(s(30), true, true, s(4)), s(26));
    assert_eq!(fuzzing_time(s(30), false, true, s(60)), s(30));
}

/// Each confirmation gets an equal share of what is left, but at least
/// what two starts of the peer take: a Python server that took 1.5 s to
/// start got 1 s shares (119 findings in 20 s), and no finding of it was
/// ever confirmed.
#[test]
fn a_confirmation_gets_the_time_a_fresh_peer_takes() {
    let ms = Duration::from_millis;
    let s = Duration::from_secs;
    assert_eq!(confirm_share(s(20), 119, ms(1500)), ms(3500));
    assert_eq!(confirm_share(s(20), 119, ms(200)), s(1));
    assert_eq!(confirm_share(s(20), 4, ms(200)), s(5));
    assert_eq!(confirm_share(s(60), 2, s(1)), s(10), "at most PER_FINDING");
    assert_eq!(
        confirm_share(ms(700), 119, ms(1500)),
        ms(700),
        "never past the end"
    );
}

/// Confirming and shrinking end at `--minimize-budget` after they
/// begin, and never past the run's `--duration`.
#[test]
fn minimizing_ends_within_the_duration() {
    let s = Duration::from_secs;
    let started = Instant::now();
    let at = |secs| started + s(secs);
    assert_eq!(minimizing_ends(started, Some(s(30)), at(20), s(60)), at(30));
    assert_eq!(minimizing_ends(started, Some(s(30)), at(20), s(4)), at(24));
    assert_eq!(minimizing_ends(started, None, at(20), s(60)), at(80));
}
