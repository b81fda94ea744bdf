//! The events of an HTTP response's SSE stream, read chunk by chunk through
//! the one SSE parser ([`Splitter`]) with the transports' bound: no more than
//! `bound` bytes may arrive between two events handed out, so a stream that
//! never dispatches one (an endless line, endless comments) costs bounded
//! memory and is abandoned.
//!
//! The stream is read as UTF-8 text (WHATWG HTML §9.2.5: "Streams must be
//! decoded using the UTF-8 decode algorithm"), as the transports always
//! read it: an event is parsed only from the text before the first byte that
//! is not UTF-8, and a stream that ends on such bytes is malformed. One
//! leading byte order mark is dropped. A CR that ends the bytes received so
//! far waits for the next chunk (it may be half of a CRLF), so an event whose
//! last line end is a CR that nothing follows is never dispatched.

use futures_util::{Stream, StreamExt};

use crate::transport::error::error_chain;
use crate::transport::event_stream::Splitter;

/// Why a stream's events stopped before its end.
#[derive(Debug)]
pub enum StreamError {
    /// The connection failed (the text is its error chain).
    Transport(String),
    /// This many bytes arrived without a complete event, past the bound.
    TooLong(usize),
    /// The stream ended on bytes that are not UTF-8.
    Utf8(std::string::FromUtf8Error),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Transport(why) => f.write_str(why),
            StreamError::TooLong(n) => write!(f, "{n} bytes without a complete event"),
            StreamError::Utf8(e) => write!(f, "UTF8 error: {e}"),
        }
    }
}

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The event type: `message` when the stream named none.
    pub event: String,
    /// The joined `data` fields.
    pub data: String,
    /// The last event ID (empty: none yet), carried forward from earlier
    /// events as the SSE standard's lastEventId is.
    pub id: String,
}

/// A byte order mark, as UTF-8.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// The events of `stream`, bounded.
pub struct Events<S> {
    stream: S,
    bound: usize,
    /// Bytes received that are no part of an event handed out yet: the
    /// bound's count, from the first byte after the last event's blank line.
    pending: usize,
    /// Bytes received since the chunk that completed the last event: what
    /// the stream's end reports as never dispatched. A comment or a blank
    /// line sent with the last event is part of its chunk, not a fault.
    since_last_chunk: usize,
    splitter: Splitter,
    ready: std::collections::VecDeque<SseEvent>,
    /// Bytes from the first that is not (yet) UTF-8 on: an incomplete
    /// character waits here for the next chunk.
    undecoded: Vec<u8>,
    /// Some text was parsed: a byte order mark is dropped only before any.
    started: bool,
    /// A CR ended the text so far.
    held_cr: bool,
    ended: bool,
}

impl<S, B, E> Events<S>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    E: std::error::Error,
{
    /// Reads `stream`, allowing `bound` bytes between two events.
    pub fn new(stream: S, bound: usize) -> Self {
        Events {
            stream,
            bound,
            pending: 0,
            since_last_chunk: 0,
            // No event can outgrow the byte bound, so the parser's own
            // bound never cuts one.
            splitter: Splitter::new(bound),
            ready: std::collections::VecDeque::new(),
            undecoded: Vec::new(),
            started: false,
            held_cr: false,
            ended: false,
        }
    }

    /// How many bytes arrived since the last event handed out: at the
    /// stream's end, bytes no blank line ever dispatched.
    pub fn undispatched(&self) -> usize {
        self.since_last_chunk
    }

    /// The next event, `None` at the stream's end, or why reading stopped.
    pub async fn next(&mut self) -> Option<Result<SseEvent, StreamError>> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Some(Ok(event));
            }
            if self.ended {
                return None;
            }
            match self.stream.next().await {
                Some(Ok(chunk)) => {
                    let chunk = chunk.as_ref();
                    self.pending += chunk.len();
                    self.since_last_chunk += chunk.len();
                    if self.pending > self.bound {
                        self.ended = true;
                        return Some(Err(StreamError::TooLong(self.pending)));
                    }
                    match self.decode(chunk) {
                        // What follows the chunk's last event is the next
                        // event's first bytes: they count from there.
                        Ok(Some(after)) => {
                            self.pending = after;
                            self.since_last_chunk = 0;
                        }
                        Ok(None) => {}
                        Err(len) => {
                            self.ended = true;
                            return Some(Err(StreamError::TooLong(len)));
                        }
                    }
                }
                Some(Err(e)) => {
                    self.ended = true;
                    return Some(Err(StreamError::Transport(error_chain(&e))));
                }
                None => {
                    self.ended = true;
                    if !self.undecoded.is_empty() {
                        let bytes = std::mem::take(&mut self.undecoded);
                        if let Err(e) = String::from_utf8(bytes) {
                            return Some(Err(StreamError::Utf8(e)));
                        }
                    }
                    return None;
                }
            }
        }
    }

    /// Parses what of `chunk` is UTF-8 text, keeping the rest undecoded.
    /// When it completed an event: how many bytes received are not part of
    /// one yet (after the last event's blank line, a held CR, an incomplete
    /// character). `Err` with an event's length when it outgrew the parser's
    /// bound.
    fn decode(&mut self, chunk: &[u8]) -> Result<Option<usize>, usize> {
        self.undecoded.extend_from_slice(chunk);
        let valid = match std::str::from_utf8(&self.undecoded) {
            Ok(text) => text.len(),
            Err(e) => e.valid_up_to(),
        };
        if valid == 0 {
            return Ok(None);
        }
        let rest = self.undecoded.split_off(valid);
        let mut text = std::mem::replace(&mut self.undecoded, rest);
        if !std::mem::replace(&mut self.started, true) && text.starts_with(BOM) {
            text.drain(..BOM.len());
        }
        if std::mem::take(&mut self.held_cr) {
            text.insert(0, b'\r');
        }
        if text.last() == Some(&b'\r') {
            text.pop();
            self.held_cr = true;
        }
        let mut after = None;
        for event in self.splitter.feed(&text) {
            // A CR dispatched the event; the LF of its CRLF ends nothing more.
            let mut tail = &text[event.end..];
            if text[..event.end].ends_with(b"\r") && tail.starts_with(b"\n") {
                tail = &tail[1..];
            }
            after = Some(tail.len() + usize::from(self.held_cr) + self.undecoded.len());
            let data = match event.data {
                Ok(data) => String::from_utf8_lossy(&data).into_owned(),
                // The byte bound counts every event from its first byte, so
                // this is not reached; were it, the event is too long, never
                // dropped in silence.
                Err(len) => return Err(len),
            };
            let event_type = if event.name.is_empty() {
                "message".to_owned()
            } else {
                event.name
            };
            self.ready.push_back(SseEvent {
                event: event_type,
                data,
                id: event.id,
            });
        }
        Ok(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(chunks: &[&[u8]], bound: usize) -> (Vec<Result<SseEvent, String>>, usize) {
        let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
            chunks.iter().map(|c| Ok(c.to_vec())).collect();
        let mut events = Events::new(futures_util::stream::iter(chunks), bound);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut out = Vec::new();
            while let Some(next) = events.next().await {
                out.push(next.map_err(|e| e.to_string()));
            }
            (out, events.undispatched())
        })
    }

    fn event(event: &str, data: &str, id: &str) -> Result<SseEvent, String> {
        Ok(SseEvent {
            event: event.into(),
            data: data.into(),
            id: id.into(),
        })
    }

    #[test]
    fn events_carry_their_type_data_and_last_id() {
        let (got, left) = read(
            &[
                b"\xEF\xBB\xBFid: 7\nevent: endpoint\ndata: /m\n\ndata: {}\r",
                b"\n\r\n",
            ],
            1024,
        );
        assert_eq!(
            got,
            [event("endpoint", "/m", "7"), event("message", "{}", "7")]
        );
        assert_eq!(left, 0);
    }

    #[test]
    fn a_stream_that_never_dispatches_is_abandoned_at_the_bound() {
        let (got, _) = read(&[b": keep-alive\n\n", b": keep-alive\n\n"], 20);
        assert_eq!(got, [Err("28 bytes without a complete event".to_owned())]);
    }

    #[test]
    fn bytes_left_undispatched_are_counted() {
        let (got, left) = read(&[b"data: a\n\n", b"data: b\r"], 1024);
        assert_eq!(got, [event("message", "a", "")]);
        assert_eq!(left, 8);
    }

    #[test]
    fn nothing_after_bytes_that_are_not_utf8_is_parsed() {
        let (got, _) = read(&[b"data: a\n\ndata: \xFF\n\ndata: c\n\n"], 1024);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], event("message", "a", ""));
        assert!(got[1].as_ref().is_err_and(|e| e.starts_with("UTF8 error")));
        // A character cut between chunks is whole again.
        let (got, _) = read(&[b"data: \xC3", b"\xA9\n\n"], 1024);
        assert_eq!(got, [event("message", "\u{e9}", "")]);
    }

    /// The bytes of an event that began in the chunk that completed the one
    /// before count towards the bound: an event past it is abandoned as too
    /// long, never dropped in silence with the stream read on.
    #[test]
    fn an_event_begun_beside_the_last_one_counts_from_its_first_byte() {
        let (got, _) = read(&[b"data: a\n\ndata: 0123", b"45678901234567890\n\n"], 20);
        assert_eq!(
            got,
            [
                event("message", "a", ""),
                Err("29 bytes without a complete event".to_owned())
            ]
        );
        // Within the bound, the same split delivers both.
        let (got, left) = read(&[b"data: a\n\ndata: 0123", b"456\n\n"], 20);
        assert_eq!(
            got,
            [event("message", "a", ""), event("message", "0123456", "")]
        );
        assert_eq!(left, 0);
    }

    /// What the stream's end reports undispatched is what came in chunks
    /// after the one that completed the last event, as it always was: a
    /// comment sent with the last event is no fault.
    #[test]
    fn undispatched_bytes_are_those_of_later_chunks() {
        let (got, left) = read(&[b"data: a\n\n: keep-alive\n\n"], 1024);
        assert_eq!(got, [event("message", "a", "")]);
        assert_eq!(left, 0);
    }
}
