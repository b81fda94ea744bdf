//! What a live run's document says about the run besides its records: who
//! was judged, how, when, by which wirecheck.

use std::time::Duration;

use harness::Revision;

/// The peer a live run judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// The command line that started it (stdio), or its URL (HTTP).
    pub target: String,
    /// The transport spoken (`stdio`, `streamable-http`).
    pub transport: crate::Transport,
    /// What its TLS looked like, over `https://`.
    pub tls: Option<TlsSeen>,
    /// The keys of the variables `--env` added to its environment: never
    /// their values, which may be secrets.
    pub env: Vec<String>,
    /// The directory it was started in (`--cwd`), when one was given.
    pub cwd: Option<String>,
    /// What its processes wrote to stderr, as much as the run keeps; `None`
    /// when they wrote nothing (or it is no process).
    pub stderr: Option<Stderr>,
}

impl Peer {
    /// `target` over `transport`, nothing else said of it.
    #[must_use]
    pub fn new(target: impl Into<String>, transport: impl Into<crate::Transport>) -> Peer {
        Peer {
            target: target.into(),
            transport: transport.into(),
            tls: None,
            env: Vec::new(),
            cwd: None,
            stderr: None,
        }
    }
}

/// A server's TLS as one handshake saw it: enough to tell which server and
/// which certificate were judged, and whether that certificate was checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSeen {
    /// The protocol version agreed (`TLSv1_3`).
    pub version: String,
    /// The cipher suite agreed (`TLS13_AES_256_GCM_SHA384`).
    pub cipher_suite: String,
    /// The SHA-256 of the server's certificate (DER), lowercase hex.
    pub certificate_sha256: String,
    /// Whether the certificate was verified against the trusted roots;
    /// `false` only under `--insecure`.
    pub verified: bool,
}

impl TlsSeen {
    /// The TLS in a few words, for the run's line and the terminal.
    #[must_use]
    pub fn line(&self) -> String {
        let short: String = self.certificate_sha256.chars().take(16).collect();
        let checked = if self.verified {
            "verified"
        } else {
            "NOT verified (--insecure)"
        };
        format!(
            "{} {}, certificate sha256:{short}… {checked}",
            self.version, self.cipher_suite
        )
    }
}

/// The start of what a peer's processes wrote to stderr, bounded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stderr {
    /// The bytes kept, as text: a byte sequence that is not UTF-8 is
    /// replaced by U+FFFD, so the document stays JSON whatever was written.
    pub text: String,
    /// The bytes written past what was kept, counted and dropped.
    pub dropped: u64,
}

impl Stderr {
    /// The most a run keeps of its peer's stderr, across all its
    /// processes.
    pub const CAP: usize = 16 << 10;

    /// `bytes` as kept text and `dropped` as counted; `None` when nothing
    /// was written at all.
    #[must_use]
    pub fn of(bytes: &[u8], dropped: u64) -> Option<Stderr> {
        (!bytes.is_empty() || dropped > 0).then(|| Stderr {
            text: String::from_utf8_lossy(bytes).into_owned(),
            dropped,
        })
    }
}

/// What a run document says about the run besides its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunInfo {
    /// The wirecheck version that made it.
    pub tool_version: String,
    /// The command line wirecheck was run with, one argument each.
    pub argv: Vec<String>,
    /// Who was judged.
    pub peer: Peer,
    /// The revisions judged, oldest first.
    pub revisions: Vec<Revision>,
    /// The revisions asked for, as given (`--revision`: `all`, `auto` or
    /// one), when the document says it.
    pub asked: Option<String>,
    /// The SHA-256 of the vectors played (every file under `jsonrpc-2.0/`
    /// and `mcp/`, by path), when the document says it: two runs with the
    /// same digest played the same probes.
    pub vectors_digest: Option<String>,
    /// When the run started, as RFC 3339 UTC text ([`rfc3339`]).
    pub started: String,
    /// How long it took.
    pub duration: Duration,
    /// How much of the suite was played and at what pace (`run --mode`),
    /// when the document says it.
    pub pace: Option<PaceInfo>,
}

/// How a live run paced what it sent: its mode, its bounds, and what it
/// sent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PaceInfo {
    /// `full` (every probe) or `polite` (only what a well-behaved client sends).
    pub mode: String,
    /// `--rate`: at most this many requests a second, when bounded.
    pub rate: Option<f64>,
    /// `--budget`: at most this many requests in all, when bounded.
    pub budget: Option<u64>,
    /// The requests the run's sessions sent (frames: one HTTP request each
    /// over HTTP, one line over stdio).
    pub requests: u64,
    /// The most of them sent within any one second.
    pub peak_per_second: u64,
    /// Why the run stopped sending before its end, if it did.
    pub stopped: Option<String>,
}

// `rate` is a positive finite number (`--rate` refuses anything else, and
// a document's is read as JSON, which has no NaN): equality is total.
impl Eq for PaceInfo {}

impl PaceInfo {
    /// The pace in words (`polite mode, 2/s, 74 requests, peak 2/s`).
    #[must_use]
    pub fn line(&self) -> String {
        let mut out = format!("{} mode", self.mode);
        if let Some(rate) = self.rate {
            out.push_str(&format!(", at most {rate}/s"));
        }
        if let Some(budget) = self.budget {
            out.push_str(&format!(", budget {budget}"));
        }
        out.push_str(&format!(
            ", {} requests sent, peak {}/s",
            self.requests, self.peak_per_second
        ));
        if let Some(why) = &self.stopped {
            out.push_str(&format!("; stopped: {why}"));
        }
        out
    }
}

impl RunInfo {
    /// The run in one line: what was judged, how, under which revisions,
    /// how long it took, and by which wirecheck.
    #[must_use]
    pub fn line(&self) -> String {
        let revisions: Vec<&str> = self.revisions.iter().map(|r| r.name()).collect();
        let mut out = format!(
            "{} over {}; revisions {}",
            self.peer.target,
            self.peer.transport,
            if revisions.is_empty() {
                "none judged".to_owned()
            } else {
                revisions.join(", ")
            }
        );
        if let Some(asked) = &self.asked {
            out.push_str(&format!(" (--revision {asked})"));
        }
        if let Some(pace) = &self.pace {
            out.push_str(&format!("; {}", pace.line()));
        }
        out.push_str(&format!(
            "; started {}, {:.1} s; wirecheck {}",
            self.started,
            self.duration.as_secs_f64(),
            self.tool_version
        ));
        if let Some(tls) = &self.peer.tls {
            out.push_str(&format!("; TLS {}", tls.line()));
        }
        if let Some(digest) = &self.vectors_digest {
            // By characters: a document read back may hold any text here.
            let short: String = digest.chars().take(12).collect();
            out.push_str(&format!(", vectors sha256:{short}"));
        }
        out
    }
}

/// `t` as RFC 3339 UTC text to the second (`2026-12-03T21:05:45Z`): the
/// proleptic Gregorian date of the Unix day (Howard Hinnant's
/// `civil_from_days`), no date library. The one clock text of the project:
/// the run document's start, the matrix's, a reference-peer task's times.
#[must_use]
pub fn rfc3339(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
