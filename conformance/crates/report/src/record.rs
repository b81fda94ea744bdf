//! The judgement of one subject ([`Record`]) and its parts: where the subject
//! came from, what it was, the codec's refusal, what the command produced, and
//! the frames and HTTP exchanges the verdict rests on.

use harness::rules::{Level, Violation};
use harness::{Outcome, Revision};

use super::check::Check;
use super::transport::Transport;
use ground::transcript::Frame;

/// Where a subject came from. Every member is optional because each command
/// knows a different part: a transcript has a file and a line, a vector an id
/// and a frame index, a live run a revision and a transport.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// The file, `None` for standard input.
    pub file: Option<String>,
    /// The 1-based line in the file.
    pub line: Option<usize>,
    /// The golden vector's id (`jsonrpc-2.0/request/id-null`).
    pub vector: Option<String>,
    /// The 0-based index of the frame within a vector or session (as the
    /// JSON documents carry it); people are shown [`Place::frame_number`].
    pub frame: Option<usize>,
    /// The revision the subject was judged under, when records differ in it.
    pub revision: Option<Revision>,
    /// The transport it travelled over (`stdio`, `streamable-http`).
    pub transport: Option<Transport>,
}

impl Place {
    /// The frame as people count, from 1 (`#1` is the first frame, as
    /// `classify` calls the first line 1): what every view for a person
    /// shows. The JSON documents keep the 0-based [`Place::frame`].
    #[must_use]
    pub fn frame_number(&self) -> Option<usize> {
        self.frame.map(|i| i.saturating_add(1))
    }

    /// A line of a transcript.
    #[must_use]
    pub fn at_line(file: Option<String>, line: usize) -> Self {
        Self {
            file,
            line: Some(line),
            ..Self::default()
        }
    }
}

/// What was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A frame's bytes, exactly as read: untrusted, maybe not UTF-8.
    Frame(Vec<u8>),
    /// A line longer than the bound, skipped unread: only its length is known.
    TooLong {
        /// Its length in bytes, without the newline.
        len: usize,
    },
}

/// A codec refusal as every report writes it, members in this order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refusal {
    /// -32700 or -32600.
    pub code: i64,
    /// The rule broken (serialized as its stable id).
    pub rule: harness::rules::RuleId,
    /// Where, as a JSON Pointer.
    pub pointer: String,
    /// What was found.
    pub message: String,
    /// Where the rule is written.
    pub spec: &'static str,
    /// 1-based line within the frame.
    pub line: usize,
    /// 1-based column within the frame, in characters.
    pub column: usize,
}

impl From<&harness::Refusal> for Refusal {
    fn from(r: &harness::Refusal) -> Self {
        Self {
            code: r.code(),
            rule: r.rule().into(),
            pointer: r.pointer().to_owned(),
            message: r.message().to_owned(),
            spec: r.rule().spec(),
            line: r.line(),
            column: r.column(),
        }
    }
}

impl Refusal {
    /// The refusal of a line longer than `--max-frame`, which is never lifted.
    #[must_use]
    pub fn too_long(len: usize, max: usize) -> Self {
        let rule = harness::Rule::JsonFrameTooLarge;
        Self {
            code: rule.code(),
            rule: rule.into(),
            pointer: String::new(),
            message: format!("frame of {len} bytes exceeds --max-frame {max}"),
            spec: rule.spec(),
            line: 1,
            column: 1,
        }
    }

    /// The refusal as a violation of its rule, at MUST: every codec rule is
    /// a MUST (RFC 8259, JSON-RPC 2.0 §4, §5).
    #[must_use]
    pub fn as_violation(&self) -> Violation {
        Violation {
            rule: self.rule,
            level: Level::Must,
            spec: self.spec,
            pointer: self.pointer.clone(),
            message: self.message.clone(),
        }
    }
}

/// What a command produced from the subject, besides its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// `roundtrip`: the lowered frame, JSON text already.
    Lowered(Vec<u8>),
}

/// How a record's note begins when the runner sent the vector's request
/// under a fresh id: the long form says it; the grouped view, which shows
/// the request as sent, leaves it out.
pub const ID_REWRITE_NOTE: &str = "sent with request id ";

/// One HTTP exchange a transport record rests on, as a person reads it:
/// the request as sent and the response as it came, bodies bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpExchange {
    /// `POST`, `GET` or `DELETE`.
    pub method: String,
    /// The URL requested.
    pub url: String,
    /// The request headers as sent, names lowercase; credentials redacted.
    pub request_headers: Vec<(String, String)>,
    /// The start of the request body.
    pub request_body: Option<String>,
    /// The response status.
    pub status: u16,
    /// The response headers a rule reads, `content-type` first.
    pub response_headers: Vec<(String, String)>,
    /// The start of the response body (over SSE, its first message).
    pub response_body: Option<String>,
}

impl HttpExchange {
    /// `POST http://…/mcp`, and the request body's start when it had one.
    #[must_use]
    pub fn request_line(&self) -> String {
        match &self.request_body {
            Some(body) => format!("{} {} {}", self.method, self.url, body),
            None => format!("{} {}", self.method, self.url),
        }
    }

    /// `HTTP 400 (application/json) {…}`: the status, the content type and
    /// the body's start, as a person reads the answer.
    #[must_use]
    pub fn response_line(&self) -> String {
        let mut line = format!("HTTP {}", self.status);
        if let Some((_, ct)) = self
            .response_headers
            .iter()
            .find(|(n, _)| n == "content-type")
        {
            line.push_str(&format!(" ({ct})"));
        }
        match &self.response_body {
            Some(body) => {
                line.push(' ');
                line.push_str(body);
            }
            None => line.push_str(" with no body"),
        }
        line
    }
}

/// The judgement of one subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Where it came from.
    pub place: Place,
    /// What it was.
    pub subject: Subject,
    /// What was concluded.
    pub outcome: Outcome,
    /// The single rule checked, for rule-by-rule records.
    pub check: Option<Check>,
    /// The rules broken, when rules were judged (empty: none broken); `None`
    /// when the command only lifted the subject.
    pub violations: Option<Vec<Violation>>,
    /// The codec's refusal, when the subject did not lift.
    pub refusal: Option<Refusal>,
    /// What the command produced.
    pub payload: Option<Payload>,
    /// The exchange the verdict rests on, in order; empty for a lone frame.
    pub wire: Vec<Frame>,
    /// The HTTP exchanges a transport verdict rests on (bounded), where the
    /// wire log of frames cannot show it: statuses, headers, bodies.
    pub http: Vec<HttpExchange>,
    /// What a person should know that the outcome does not say: where a reply
    /// departs from the expected answer, a convention not met, a peer that
    /// exited. Peer-supplied text in them is escaped by every view.
    pub notes: Vec<String>,
    /// Rules broken here that are run-level ambiguities
    /// ([`RuleId::run_level_ambiguity`](harness::rules::RuleId::run_level_ambiguity)): no part of the
    /// outcome; the report says each once ([`Report::ambiguities`](super::Report::ambiguities)).
    pub ambiguities: Vec<harness::rules::RuleId>,
}

impl Record {
    /// A record with nothing found yet.
    #[must_use]
    pub fn new(place: Place, subject: Subject, outcome: Outcome) -> Self {
        Self {
            place,
            subject,
            outcome,
            check: None,
            violations: None,
            refusal: None,
            payload: None,
            wire: Vec::new(),
            http: Vec::new(),
            notes: Vec::new(),
            ambiguities: Vec::new(),
        }
    }

    /// The frames the peer sent in answer to the probe, in order: its wire
    /// log's frames from the peer, less its own requests and notifications
    /// (a `list_changed` it sent meanwhile answers nothing), the answers to
    /// the runner's own later requests (the liveness request after a probe)
    /// and, over stdio under MCP, the text a server wrote between messages
    /// (judged on its own as `stdio.stdout-text`).
    #[must_use]
    pub fn answers(&self) -> Vec<&Frame> {
        let id = |frame: &[u8]| {
            serde_json::from_slice::<serde_json::Value>(frame)
                .ok()
                .and_then(|v| v.get("id").cloned())
        };
        let followups: Vec<serde_json::Value> = self
            .wire
            .iter()
            .filter(|w| w.from == harness::Direction::ClientToServer)
            .skip(1)
            .filter_map(|w| id(&w.bytes))
            .collect();
        let stdio_mcp = self.place.transport.as_ref().and_then(Transport::kind)
            == Some(ground::transport::Kind::Stdio)
            && self.place.revision.is_some_and(Revision::is_mcp);
        self.wire
            .iter()
            .filter(|w| w.from == harness::Direction::ServerToClient)
            .filter(|w| id(&w.bytes).is_none_or(|i| !followups.contains(&i)))
            .filter(|w| !(stdio_mcp && ground::lines::is_stdout_text(&w.bytes)))
            .filter(|w| !peer_initiated(&w.bytes))
            .collect()
    }

    /// The record of one catalogue `rule` judged on a transport rather than
    /// on a frame (the runner's transport judge, the HTTP client judge): at
    /// `vector`, with each of `broken` as a violation at the rule's level and
    /// the reference it has in `revision`, over `transport` when one was
    /// spoken (a client's cursor tally spans the transports it used).
    #[must_use]
    pub fn of_transport_rule(
        vector: String,
        revision: Revision,
        transport: Option<ground::transport::Kind>,
        rule: harness::rules::RuleId,
        outcome: Outcome,
        broken: Vec<String>,
    ) -> Self {
        let info = rule.info();
        let spec = info.cite(revision);
        let mut record = Record::new(
            Place {
                vector: Some(vector),
                revision: Some(revision),
                transport: transport.map(Transport::One),
                ..Place::default()
            },
            Subject::Frame(Vec::new()),
            outcome,
        );
        record.check = Some(Check {
            rule: rule.into(),
            level: info.level,
            spec: spec.into(),
        });
        record.violations = Some(
            broken
                .into_iter()
                .map(|message| Violation {
                    rule,
                    level: info.level,
                    spec,
                    pointer: String::new(),
                    message,
                })
                .collect(),
        );
        record
    }
}

/// Whether a frame is wholly the peer's own: a request or notification
/// (an object with `method`), or a batch of them.
fn peer_initiated(bytes: &[u8]) -> bool {
    let own = |v: &serde_json::Value| v.get("method").is_some();
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Array(items)) => !items.is_empty() && items.iter().all(own),
        Ok(v) => own(&v),
        Err(_) => false,
    }
}

/// The HTTP exchange a transport record rests on, shown by every view that
/// shows evidence, and kept by the run document.
#[cfg(test)]
mod http_exchange_tests {
    use super::*;
    use crate::{document, html, terminal, Command, Report};

    /// A refused-origin probe as the transport judge files it: a 200 where
    /// 403 was due, with a body holding markup.
    fn origin_record() -> Record {
        let mut record = Record::of_transport_rule(
            "run/2025-11-25/http/origin-403".into(),
            Revision::Mcp2025_11_25,
            Some(ground::transport::Kind::STREAMABLE_HTTP),
            harness::rules::RuleId::McpHttpOrigin403,
            Outcome::Fail,
            vec!["a request with a foreign Origin was answered 200, not 403 Forbidden".into()],
        );
        record.http.push(HttpExchange {
            method: "POST".into(),
            url: "http://127.0.0.1:9/mcp".into(),
            request_headers: vec![
                ("origin".into(), "http://evil.invalid".into()),
                ("authorization".into(), "(redacted)".into()),
            ],
            request_body: Some(r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into()),
            status: 200,
            response_headers: vec![("content-type".into(), "text/html".into())],
            response_body: Some("<h1>hello</h1>".into()),
        });
        record
    }

    fn report_of(record: Record) -> Report {
        let mut report = Report::new(Command::Run);
        report.records.push(record);
        report
    }

    #[test]
    fn the_html_page_shows_the_exchange_escaped_and_no_empty_frame_box() {
        let page = html::render(&report_of(origin_record()));
        assert!(page.contains("HTTP exchange"), "{page}");
        assert!(page.contains("POST http://127.0.0.1:9/mcp"));
        assert!(page.contains("origin: http://evil.invalid"));
        assert!(page.contains("→ HTTP 200"));
        assert!(page.contains("content-type: text/html"));
        // Peer text is escaped, never markup.
        assert!(page.contains("&lt;h1&gt;hello&lt;/h1&gt;"));
        assert!(!page.contains("<h1>hello"));
        // The transport record's empty subject is not drawn as a frame.
        assert!(!page.contains("<pre></pre>"), "{page}");
        // Nor is its empty pointer.
        assert!(!page.contains("at <code></code>"), "{page}");
    }

    #[test]
    fn the_terminal_shows_what_was_sent_and_got_over_http() {
        let text = terminal::to_fix(&report_of(origin_record()), false);
        assert!(
            text.contains("sent: POST http://127.0.0.1:9/mcp {"),
            "{text}"
        );
        assert!(
            text.contains("got:  HTTP 200 (text/html) <h1>hello</h1>"),
            "{text}"
        );
    }

    #[test]
    fn the_run_document_keeps_the_exchange() {
        let report = report_of(origin_record());
        let bytes = document::to_vec(&report);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains(r#""status": 200"#), "{text}");
        let back = document::from_slice(&bytes).unwrap();
        assert_eq!(back.records[0].http, report.records[0].http);
    }

    /// A hostile peer's flood (many frames, each huge) does not make the
    /// page as large as the flood: it stays under a cap.
    #[test]
    fn the_html_page_stays_small_whatever_the_wire_logs_hold() {
        let mut report = Report::new(Command::Run);
        for i in 0..50 {
            let mut record = origin_record();
            record.place.vector = Some(format!("run/2025-11-25/flood/{i}"));
            record.wire = (0..100)
                .map(|_| Frame::untimed(harness::Direction::ServerToClient, vec![b'x'; 16 * 1024]))
                .collect();
            report.records.push(record);
        }
        // 50 records × 100 frames × 16 KiB: 80 MiB of frames.
        let page = html::render(&report);
        assert!(page.len() < 3 * 1024 * 1024, "{} bytes", page.len());
        assert!(page.contains("… 76 more frames"));
    }

    #[test]
    fn an_exchange_without_a_body_says_so() {
        let mut x = origin_record().http.remove(0);
        x.response_body = None;
        assert_eq!(x.response_line(), "HTTP 200 (text/html) with no body");
    }
}

#[cfg(test)]
mod place_tests {
    use super::*;

    /// A person counts frames from 1; the documents keep the index from 0.
    #[test]
    fn a_frame_is_numbered_from_one_for_people() {
        let first = Place {
            frame: Some(0),
            ..Place::default()
        };
        assert_eq!(first.frame_number(), Some(1));
        let tenth = Place {
            frame: Some(9),
            ..Place::default()
        };
        assert_eq!(tenth.frame_number(), Some(10));
        assert_eq!(Place::default().frame_number(), None);
    }
}
