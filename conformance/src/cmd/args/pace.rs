//! `--mode`, `--rate` and `--budget`: how much a live run sends, and how
//! fast, parsed into the one [`Pacer`] its sessions share; and the notice a
//! run against a server off this machine gives before it sends anything.

use std::net::IpAddr;
use std::time::Duration;

use crate::runner::polite::Mode;
use crate::transport::pacer::{Pace, Pacer};

/// The rate polite mode holds to when `--rate` is not given: a person
/// clicking through a client sends about as much.
pub const POLITE_RATE: f64 = 2.0;

/// The longest `Retry-After` polite mode waits out (once) before going on.
pub const RETRY_CAP: Duration = Duration::from_secs(30);

/// `--mode`, `--rate` and `--budget`, shared by the commands that talk to a
/// live server.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct PaceArgs {
    /// `full` (the default): every probe, malformed frames and abuse of
    /// the transport (forged headers, dead sessions, extra streams)
    /// included, several sessions at once. `polite`: only what a
    /// well-behaved client sends, one session at a time, at most --rate
    /// requests a second; the first 429 or 503 stops the run (one
    /// Retry-After of up to 30 s is waited out first) and what was not
    /// run is reported as such, never failed. For a server serving users.
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: Option<Mode>,
    /// At most N requests a second, across every session of the run (`2`,
    /// `0.5`). Default: 2 under --mode polite, no bound otherwise. In a full
    /// run the transport probes' own requests are not paced.
    #[arg(long, value_name = "N", value_parser = rate)]
    pub rate: Option<f64>,
    /// At most N requests of the sessions in all. Once spent, no session
    /// sends more: the checks left are reported as not run (not observed),
    /// never failed.
    #[arg(long, value_name = "N")]
    pub budget: Option<u64>,
}

impl PaceArgs {
    /// The mode asked for (`full` when none).
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode.unwrap_or_default()
    }

    /// The pacer these arguments ask for: polite mode stops on a busy
    /// answer and has a default rate; full mode only counts, unless bounded.
    #[must_use]
    pub fn pacer(&self) -> Pacer {
        let polite = self.mode() == Mode::Polite;
        Pacer::new(Pace {
            rate: self.rate.or(polite.then_some(POLITE_RATE)),
            budget: self.budget,
            stop_when_busy: polite,
            retry_cap: RETRY_CAP,
        })
    }
}

/// `--rate`: requests a second, from one an hour to a million: the pacer
/// waits `1 / rate` seconds between requests, which a rate near zero would
/// make longer than any duration can hold.
fn rate(s: &str) -> Result<f64, String> {
    let rate: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is no number of requests a second"))?;
    if rate.is_finite() && (1.0 / 3600.0..=1e6).contains(&rate) {
        Ok(rate)
    } else {
        Err(format!(
            "`{s}`: a rate is a number of requests a second from 0.0003 (one an hour) to 1000000"
        ))
    }
}

/// Whether `url`'s host is this machine: `localhost`, 127.0.0.0/8 or ::1,
/// as the HTTP client will read the URL (WHATWG's parser, so a URL that a
/// hand split would read otherwise is judged by where it really goes). A
/// URL whose host cannot be read counts as elsewhere.
#[must_use]
pub fn is_loopback(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = parsed.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The one line said before a full run against `url` when no `--mode` was
/// given and the server is not on this machine (it may be serving users):
/// what is about to be sent, and how to be polite instead.
#[must_use]
pub fn notice(url: &str, mode_given: bool, requests: usize) -> Option<String> {
    (!mode_given && !is_loopback(url)).then(|| {
        format!(
            "wirecheck run: about to send {} the full suite, malformed frames and forged headers included, about {requests} requests, several sessions at once; for a server serving users pass --mode polite (only what a well-behaved client sends, 2 requests a second, stopping at the first 429 or 503)",
            super::shown_url(url)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_this_machine_and_others_are_not() {
        for url in [
            "http://127.0.0.1:3001/mcp",
            "http://127.8.9.10/mcp",
            "http://localhost:8080",
            "http://LOCALHOST/mcp",
            "http://[::1]:3000/mcp",
            "http://user@127.0.0.1:1/x",
        ] {
            assert!(is_loopback(url), "{url}");
            assert_eq!(notice(url, false, 10), None, "{url}");
        }
        for url in [
            "http://example.com/mcp",
            "http://10.0.0.1:3001/mcp",
            "http://[::2]/mcp",
            "http://localhost.example.com/mcp",
            "http://128.0.0.1/",
        ] {
            assert!(!is_loopback(url), "{url}");
            let line = notice(url, false, 1234).unwrap();
            assert!(line.contains("about 1234 requests"), "{line}");
            assert!(line.contains("--mode polite"), "{line}");
            assert!(!line.contains('\n'));
            // Asked for by name, full or polite: nothing said.
            assert_eq!(notice(url, true, 1234), None);
        }
    }

    #[test]
    fn a_rate_is_positive_and_polite_has_one_by_default() {
        assert_eq!(rate("0.5"), Ok(0.5));
        for bad in ["0", "-1", "inf", "NaN", "fast", "1e-20", "1e9"] {
            assert!(rate(bad).is_err(), "{bad}");
        }
        let polite = PaceArgs {
            mode: Some(Mode::Polite),
            ..PaceArgs::default()
        };
        assert_eq!(polite.pacer().pace().rate, Some(POLITE_RATE));
        assert!(polite.pacer().pace().stop_when_busy);
        let full = PaceArgs::default().pacer().pace();
        assert_eq!(
            (full.rate, full.budget, full.stop_when_busy),
            (None, None, false)
        );
    }
}
