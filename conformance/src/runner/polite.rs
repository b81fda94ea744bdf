//! `run --mode polite`: what a run leaves out to judge a deployed server the
//! way a well-behaved client talks to it, and how it says so.
//!
//! Polite mode sends only what a client that follows the spec would send:
//! the handshake, the requests and notifications of the `y_` vectors (a
//! frame that conforms, inside a clean session), the liveness `ping`, and
//! the calls of tools the user allowed. It leaves out every frame the suite
//! itself calls malformed, every probe made to see how a server takes
//! abuse (forged headers, dead sessions, extra streams), and anything sent
//! at once beside something else: one session at a time, one revision at a
//! time. How fast and how much goes out is the run's
//! [`Pacer`](crate::transport::pacer::Pacer)'s business, shared with the
//! live-session stack.
//!
//! Every check left out is still reported, as not applicable with the
//! reason, so the report shows what a full run would add; a check left out
//! never counts as a pass and never fails the run.

use harness::rules::RuleId;
use harness::Outcome;

use super::plan;
use crate::transport::pacer::Halt;
use crate::vectors::{Codec, Vector, Verdict};

/// How much of the suite a run plays (`run --mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Mode {
    /// Every probe: malformed frames, abuse of the transport, sessions at
    /// once. For a server under test, not one serving users.
    #[default]
    Full,
    /// Only what a well-behaved client sends, one session at a time.
    Polite,
}

impl Mode {
    /// Its name, as `--mode` takes it and the report states it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Polite => "polite",
        }
    }
}

/// The start of every reason a check is left out for.
pub const LEFT_OUT: &str = "polite mode: ";

/// The largest frame polite mode sends: every well-formed vector frame is
/// far smaller; one past it is a frame sent to see how a server takes size.
pub const MAX_POLITE_FRAME: usize = 16 << 10;

/// Why polite mode leaves `vector` out; `None` when a well-behaved client
/// could send its frame as it is, where the runner sends it.
#[must_use]
pub fn left_out(vector: &Vector) -> Option<String> {
    let why = if matches!(vector.codec, Codec::Refuses { .. }) || !vector.violations.is_empty() {
        "sends a malformed frame (one the codec refuses or that breaks a MUST of its own)"
    } else if vector.verdict == Verdict::Refuse {
        "sends a frame the spec says a server must refuse"
    } else if vector.verdict == Verdict::ImplementationDefined {
        "sends a frame whose handling the spec leaves open (an odd id, a request before the handshake): no client needs to"
    } else if vector.frame.len() > MAX_POLITE_FRAME {
        "sends an oversized frame"
    } else if plan::is_opening(vector) && vector.needs.opening && !is_handshake(vector) {
        "sends a request before the handshake"
    } else if plan::off_map(vector) {
        "sends a frame that breaks a session rule by itself (cancels, answers or reports progress on something never sent)"
    } else {
        return None;
    };
    Some(format!("{LEFT_OUT}{why}"))
}

/// Whether `vector`'s frame is a handshake request.
fn is_handshake(vector: &Vector) -> bool {
    serde_json::from_slice::<serde_json::Value>(&vector.frame)
        .ok()
        .and_then(|v| v.get("method").and_then(|m| m.as_str()).map(str::to_owned))
        .is_some_and(|m| m == "initialize" || m == "server/discover")
}

/// Why polite mode leaves out the case probe (a call of an allowed tool by
/// a case-changed name).
pub const CASE_PROBE: &str =
    "polite mode: calls a tool by a case-changed name, which a client that read tools/list never does";

/// Why polite mode leaves out the JSON-RPC id-reuse check.
pub const ID_REUSE: &str = "polite mode: sends a request id a second time";

/// The transport judge's probes that make requests of their own, by the
/// first rule their table entry files, and why polite mode leaves each out.
/// The entries that only read the sessions' exchanges send nothing and are
/// all kept; an entry that makes requests and is missing here is left out
/// too ([`http_probe_left_out`]), for the generic reason.
///
/// | Probe | Sends | Why left out |
/// |---|---|---|
/// | Origin (Streamable, SSE) | a request with a foreign `Origin` | a forged header, the shape of a DNS-rebinding attack |
/// | Session required / terminated | POSTs without a session id, and with one ended by DELETE | requests a client never makes: no session, a dead one |
/// | Protocol version 400 | an unsupported `MCP-Protocol-Version` | a malformed header |
/// | GET stream | extra GET streams held for seconds, resumed with `Last-Event-ID` | a second listening stream beside the session's; outside the pacer |
/// | No broadcast | two GET streams at once on one session | concurrency: a flood in small |
/// | Header/body mismatch | a header that contradicts the body | a malformed request |
/// | Version header mismatch (2026) | `MCP-Protocol-Version` unlike `_meta` | a malformed request |
/// | Method not found 404 (2026) | an unknown method on its own | a request no client sends, outside the pacer |
/// | Name header decoded (2026) | Base64-encoded name headers, some mangled | malformed headers |
/// | Custom headers (2026) | requests with missing and invalid parameter headers | malformed requests |
/// | Authorization (`--auth`) | requests without a token, with expired, foreign, unsigned tokens | forged credentials |
pub const HTTP_PROBES_LEFT_OUT: &[(RuleId, &str)] = &[
    (
        RuleId::McpHttpOrigin403,
        "sends a request with a foreign Origin, a forged header",
    ),
    (
        RuleId::McpHttpSseOriginValidate,
        "sends a request with a foreign Origin, a forged header",
    ),
    (
        RuleId::McpHttpSessionRequired400,
        "sends requests without a session id and with one already ended",
    ),
    (
        RuleId::McpHttpProtocolVersion400,
        "sends an unsupported MCP-Protocol-Version header",
    ),
    (
        RuleId::McpHttpGetStreamOr405,
        "opens extra GET streams held for seconds and resumes them, beside the session's own",
    ),
    (
        RuleId::McpHttpNoBroadcast,
        "opens two GET streams at once on one session",
    ),
    (
        RuleId::McpHttpHeaderBodyMatch,
        "sends a header that contradicts the body",
    ),
    (
        RuleId::McpHttpVersionHeaderMismatch400,
        "sends an MCP-Protocol-Version header unlike the body's",
    ),
    (
        RuleId::McpHttpMethodNotFound404,
        "sends an unknown method outside any session",
    ),
    (
        RuleId::McpHttpNameHeaderDecoded,
        "sends encoded name headers, some of them mangled",
    ),
    (
        RuleId::McpHttpParamHeaderMissingRefused,
        "sends requests with missing and invalid parameter headers",
    ),
    (
        RuleId::McpAuthUnauthenticated401,
        "sends requests without a token and with expired, foreign and unsigned ones",
    ),
];

/// Why polite mode leaves out the transport probe whose table entry files
/// `rules` first and makes requests of its own.
#[must_use]
pub fn http_probe_left_out(rules: &[RuleId]) -> String {
    let why = rules
        .first()
        .and_then(|first| HTTP_PROBES_LEFT_OUT.iter().find(|(r, _)| r == first))
        .map_or(
            "makes requests of its own beside the sessions",
            |(_, why)| why,
        );
    format!("{LEFT_OUT}{why}")
}

/// The outcome a check judged once the pacer stopped admitting gets: not
/// observed, since what it saw may be cut short by the stop (an unanswered
/// request, a session ended early), never a pass and never a failure. An
/// outcome that was no verdict stays.
#[must_use]
pub fn after_halt(outcome: &Outcome, halt: &Halt) -> Option<Outcome> {
    matches!(outcome, Outcome::Pass | Outcome::Fail | Outcome::Warning)
        .then(|| Outcome::NotObserved { why: not_run(halt) })
}

/// The reason of a check not run because the pacer stopped.
#[must_use]
pub fn not_run(halt: &Halt) -> String {
    format!("not run: {halt}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::is_probe;

    fn probes() -> Vec<Vector> {
        let (all, errors) = crate::vectors::embedded();
        assert!(errors.is_empty(), "{errors:?}");
        all.into_iter().filter(is_probe).collect()
    }

    /// Polite mode keeps only frames that lift, break nothing, and are no
    /// larger than a client's; it still plays a good part of the suite.
    #[test]
    fn polite_keeps_only_well_formed_frames_and_keeps_some() {
        let all = probes();
        let kept: Vec<&Vector> = all.iter().filter(|v| left_out(v).is_none()).collect();
        for vector in &kept {
            assert!(harness::lift(&vector.frame).is_ok(), "{}", vector.id);
            assert_eq!(vector.verdict, Verdict::Accept, "{}", vector.id);
            assert!(vector.violations.is_empty(), "{}", vector.id);
            assert!(vector.frame.len() <= MAX_POLITE_FRAME, "{}", vector.id);
        }
        assert!(
            kept.len() * 4 > all.len(),
            "{} of {}",
            kept.len(),
            all.len()
        );
        assert!(kept.len() < all.len());
        let left = all.iter().filter_map(left_out).collect::<Vec<_>>();
        assert!(left.iter().all(|why| why.starts_with(LEFT_OUT)));
    }

    /// Each reason is about the frame, so a person reading the report sees
    /// what was not sent and why.
    #[test]
    fn a_malformed_frame_and_a_request_before_the_handshake_are_left_out() {
        let all = probes();
        let named = |id: &str| all.iter().find(|v| v.id == id).unwrap();
        let params = named("mcp/2025-11-25/base/params-array");
        assert!(left_out(params).unwrap().contains("malformed"));
        let before = named("mcp/2025-11-25/lifecycle/request-before-initialize");
        assert!(left_out(before).is_some());
        assert_eq!(
            left_out(named("mcp/2025-11-25/base/request-id-string")),
            None
        );
    }

    /// Every transport probe that makes requests was decided on, with a
    /// reason of its own: a new one must be added to the table.
    #[test]
    fn every_requesting_http_probe_has_its_own_reason() {
        for rules in crate::runner::http_judge::requesting() {
            let why = http_probe_left_out(rules);
            assert!(!why.contains("of its own beside"), "{rules:?}");
        }
        assert_eq!(
            crate::runner::http_judge::requesting().count(),
            HTTP_PROBES_LEFT_OUT.len()
        );
        let halt = Halt::Budget { of: 3 };
        assert_eq!(
            after_halt(&Outcome::Fail, &halt),
            Some(Outcome::NotObserved {
                why: "not run: the request budget of 3 (--budget) was spent".into()
            })
        );
        let na = Outcome::NotApplicable { why: "x".into() };
        assert_eq!(after_halt(&na, &halt), None);
    }
}
