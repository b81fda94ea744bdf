//! A batch answered over a Streamable HTTP SSE stream, one response per
//! event, gathered into the one array the vector judge reads (2025-03-26
//! basic/transports §Sending Messages to the Server 6). Not a transport
//! probe: it reshapes a vector's answer before the vector is judged.

use harness::rules::RuleId;
use harness::Revision;

use super::http_answers::probe_post;
use crate::driver::{Class, ProbeReport};
use crate::transport::http::HttpFact;
use crate::transport::{HttpKind, Kind};

/// A batch probe answered over a Streamable HTTP SSE stream one response per
/// event: the responses gathered into the one array the judge reads, with the
/// note saying so; `None` for anything else.
///
/// MCP 2025-03-26 basic/transports §Sending Messages to the Server 6: "The SSE
/// stream SHOULD eventually include one JSON-RPC _response_ per each JSON-RPC
/// _request_ sent in the POST body. These _responses_ **MAY** be batched." So
/// the stream, not one event of it, answers the batch: the first event alone
/// is not "a batch answered with a single object". Each response keeps its
/// bytes (they are joined with `,` inside `[` `]`, nothing re-encoded), so
/// the codec still judges every member of each; the wire log keeps the
/// events as they came. Only where batches exist (2025-03-26): from
/// 2025-06-18 on the POST body "MUST be a single JSON-RPC request,
/// notification, or response", so a batch there is judged as the fault it
/// is, and answers to its elements are not gathered into a batch answer.
#[must_use]
pub fn gathered_batch(
    kind: Kind,
    revision: Revision,
    probe: &[u8],
    report: &ProbeReport,
    new_facts: &[HttpFact],
) -> Option<(Vec<Vec<u8>>, String)> {
    let batches = RuleId::McpBatchMustReceive
        .info()
        .revisions
        .contains(revision);
    if !batches
        || kind != Kind::Http(HttpKind::Streamable)
        || !probe.trim_ascii_start().starts_with(b"[")
    {
        return None;
    }
    let post = probe_post(report.exchange, new_facts)?;
    let streamed = post.content_type.as_deref().is_some_and(|ct| {
        ct.trim_start()
            .to_ascii_lowercase()
            .starts_with("text/event-stream")
    });
    let single = |bytes: &[u8]| bytes.trim_ascii_start().starts_with(b"{");
    let answers: Vec<&[u8]> = report
        .of(&Class::ProbeAnswer)
        .map(|r| r.bytes.as_slice())
        .filter(|b| single(b))
        .collect();
    if !streamed || answers.is_empty() {
        return None;
    }
    let mut batch = b"[".to_vec();
    batch.extend(answers.join(&b","[..]));
    batch.push(b']');
    // The peer's own frames keep their place before the answer, as the judge
    // reads them (a stream's notifications come before its responses).
    let mut frames: Vec<Vec<u8>> = Vec::new();
    let mut placed = false;
    for r in &report.frames {
        match r.class {
            Class::ProbeAnswer if single(&r.bytes) => {
                if !placed {
                    frames.push(std::mem::take(&mut batch));
                    placed = true;
                }
            }
            Class::LivenessAnswer | Class::TooLong(_) | Class::OtherExchange => {}
            _ => frames.push(r.bytes.clone()),
        }
    }
    let note = format!(
        "the batch was answered on an SSE stream, {} response event(s) gathered into one array for the judge (MCP 2025-03-26 basic/transports §Sending Messages to the Server 6: the responses \"MAY be batched\", so one per event is allowed)",
        answers.len()
    );
    Some((frames, note))
}
