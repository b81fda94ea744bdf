//! The HTTP exchanges the transport judge's tests vary one field at a time.

use crate::transport::http::{Exhibit, HttpFact};

/// A POST of one request answered 200 with an SSE stream that carried its
/// response and then ended.
pub(crate) fn sse_answer() -> HttpFact {
    HttpFact {
        method: "POST".into(),
        url: "http://127.0.0.1/mcp".into(),
        status: 200,
        content_type: Some("text/event-stream".into()),
        headers: Vec::new(),
        expected_answer: true,
        holds_request: true,
        frames: 1,
        exchange: Some(1),
        event_ids: Vec::new(),
        ended_after_answer: Some(true),
        first_event: None,
        error_codes: Vec::new(),
        exhibit: Exhibit::default(),
    }
}
