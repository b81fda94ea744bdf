//! The observe step of a probe: what its exchange showed, read before the
//! judge gives its verdict ([`observe`]), so nothing changes a verdict after
//! it is given.

use harness::{Outcome, Revision};

use super::{batch, http_answers};
use crate::driver::{Class, Live};
use crate::judge::{Observed, Silence};
use crate::transport::http::HttpFact;
use crate::transport::Kind;
use crate::vectors::{Answer, Vector};

/// What one probe's exchange showed, read before the judge gives its
/// verdict: what the judge reads, the notes on how it was read, and the
/// verdict when what was seen decides it instead of the judge.
pub(super) struct Observation {
    /// The frames the judge reads, or the silence.
    pub(super) observed: Observed,
    /// The verdict decided by what was seen, whatever the judge says: a
    /// -32020 refusal of a body that truly mismatched its header is the
    /// transport's own answer (a pass); silence proves nothing when the
    /// liveness ping after it died too, or when the queue overflowed (the
    /// answer may be among the dropped): not observed.
    pub(super) decided: Option<Outcome>,
    /// A notification refused over Streamable HTTP with an HTTP error status
    /// ([`http_answers::refused_notification`]): its body is not a reply.
    pub(super) refusal: Option<String>,
    /// A batch answered one response per SSE event, gathered into one array
    /// ([`batch::gathered_batch`]).
    pub(super) gathered: Option<String>,
    /// The -32020 header-mismatch refusal that decided the verdict
    /// ([`http_answers::header_mismatch_answer`]).
    pub(super) mismatch: Option<String>,
}

/// Reads what `vector`'s probe got over a transport of `kind` (`report`, and
/// the HTTP exchanges made while it ran, `new_facts`) into what the judge
/// reads, before it judges. It reads no live connection, so an exchange can
/// be judged after its process was closed ([`super::peers::Exchange`]).
pub(super) fn observe(
    kind: Kind,
    new_facts: &[HttpFact],
    vector: &Vector,
    revision: Revision,
    report: &crate::driver::ProbeReport,
    expects_answer: bool,
) -> Observation {
    let mut frames: Vec<Vec<u8>> = report
        .frames
        .iter()
        .filter(|r| {
            !matches!(
                r.class,
                Class::LivenessAnswer | Class::TooLong(_) | Class::OtherExchange
            )
        })
        .map(|r| r.bytes.clone())
        .collect();
    // Text a stdio server wrote between messages (a log line) is no answer:
    // it breaks the stdio sentence once, judged over the whole revision
    // ([`stdout_text::record`]), and the judge reads the messages alone.
    if kind == Kind::Stdio && revision.is_mcp() {
        frames.retain(|f| !crate::lines::is_stdout_text(f));
    }
    let gathered = batch::gathered_batch(kind, revision, &vector.frame, report, new_facts);
    let gathered_note = gathered.as_ref().map(|(_, note)| note.clone());
    if let Some((batch, _)) = gathered {
        frames = batch;
    }
    let silence = match report.live {
        Live::Closed { .. } | Live::SendFailed(_) => Silence::PeerClosed,
        Live::Answered(_) | Live::Unresponsive => Silence::TimedOut,
    };
    let refusal = http_answers::refused_notification(
        kind,
        report.exchange,
        new_facts,
        &frames,
        expects_answer,
        revision,
    );
    if refusal.is_some() {
        // The refusal's body is HTTP's answer, not a JSON-RPC reply.
        frames.clear();
    }
    let expects_error = matches!(vector.answer, Some(Answer::Error { .. }));
    let status = report.exchange.and_then(|x| {
        new_facts
            .iter()
            .find(|f| f.exchange == Some(x))
            .map(|f| f.status)
    });
    let mismatch = http_answers::header_mismatch_answer(
        kind,
        revision,
        expects_error,
        &vector.frame,
        status,
        &frames,
    );
    let observed = if frames.is_empty() {
        Observed::Silence(silence)
    } else {
        Observed::Frames(frames)
    };
    let decided = match (silence_unseen(report, &observed, expects_answer), &mismatch) {
        (Some(why), _) => Some(Outcome::NotObserved { why }),
        (None, Some(_)) => Some(Outcome::Pass),
        (None, None) => None,
    };
    Observation {
        observed,
        decided,
        refusal,
        gathered: gathered_note,
        mismatch,
    }
}

/// Why the silence after a probe shows nothing, so its verdict is not
/// observed: the transport dropped frames while it ran (the answer may be
/// among them), or, for a frame that should get no reply, the liveness ping
/// after it was not answered either (a peer that died or hung says nothing
/// whatever it was sent; only a live peer's silence is an answer).
pub(super) fn silence_unseen(
    report: &crate::driver::ProbeReport,
    observed: &Observed,
    expects_answer: bool,
) -> Option<String> {
    if !matches!(observed, Observed::Silence(_)) {
        return None;
    }
    if report.transport_dropped > 0 {
        return Some(format!(
            "{} frames were dropped while this probe ran (the peer flooded)",
            report.transport_dropped
        ));
    }
    let dead = match &report.live {
        Live::Answered(_) => return None,
        Live::Unresponsive => "the peer stopped answering".to_owned(),
        Live::Closed { status, .. } => format!(
            "the peer's output ended ({})",
            status.as_deref().unwrap_or("still running")
        ),
        Live::SendFailed(e) => format!("a frame could not be sent: {e}"),
    };
    (!expects_answer).then(|| {
        format!(
            "no reply is due, but the liveness ping after the frame got no answer either ({dead}): silence from a peer that is not answering shows nothing"
        )
    })
}
