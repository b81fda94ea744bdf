//! Server-sent events cut from a byte stream chunk by chunk, with a bound: the
//! one SSE parser, for the HTTP transports' response streams (through
//! [`super::http::events`], which adds their byte bound and text rules), the
//! HTTP proxy's judging copy (the forwarded bytes never pass through here),
//! `load`'s answers, the custom header probes' answers, and the raw fields of
//! a stream's first block, which no dispatched event shows
//! ([`Splitter::blocks`], for `transport::http::first_event`).
//!
//! The rules are the WHATWG HTML Living Standard's §9.2.6 "Interpreting an
//! event stream": a line ends at CRLF, LF or CR; `field:value` loses one
//! space after the colon; a line starting with `:` is a comment; `data`
//! lines are joined with LF; `id` sets the last event ID, which every later
//! event carries until another `id` (one holding NUL is ignored); a blank
//! line dispatches the event, and an event with an empty data buffer is not
//! dispatched. A field value past the bound is counted, not kept, so an
//! endless event costs nothing (the `eventsource-stream` crate, which the
//! transports once used, kept any line however long).

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, empty when absent (the type is then `message`).
    pub name: String,
    /// The joined `data`, or its length when it went past the bound.
    pub data: Result<Vec<u8>, usize>,
    /// The last event ID when the event was dispatched (empty: none yet).
    pub id: String,
    /// Where in the chunk just fed the event's dispatching blank line ended.
    pub end: usize,
}

impl SseEvent {
    /// Whether this event carries a JSON-RPC message: an unnamed or
    /// `message` event (2025-11-25 basic/transports §Sending Messages; the
    /// 2024-11-05 HTTP+SSE transport's "message events").
    pub fn is_message(&self) -> bool {
        self.name.is_empty() || self.name == "message"
    }
}

/// The raw fields of one event block, as the blank line that ended it found
/// them: what no dispatched event shows (a block of an `id` and an empty
/// `data` dispatches none, and a dispatched event's id is carried forward).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The block's last `id` field, as sent.
    pub id: Option<String>,
    /// The block's `data` fields joined with LF, if it had any.
    pub data: Option<String>,
}

/// The splitter's state between chunks.
#[derive(Debug)]
pub struct Splitter {
    max: usize,
    /// The current line, or its length once past the bound.
    line: Vec<u8>,
    line_len: usize,
    /// The last byte was CR: an LF right after it ends nothing more.
    after_cr: bool,
    data: Vec<u8>,
    data_len: usize,
    has_data: bool,
    name: String,
    /// The last event ID buffer: not reset by a dispatch.
    last_id: String,
    /// The blocks ended so far, when they are asked for ([`Splitter::blocks`]).
    blocks: Option<Vec<Block>>,
    /// The current block's last `id` field, kept only when blocks are.
    block_id: Option<Vec<u8>>,
}

impl Splitter {
    /// A parser that keeps at most `max` bytes of an event not yet ended.
    #[must_use]
    pub fn new(max: usize) -> Self {
        Self {
            max,
            line: Vec::new(),
            line_len: 0,
            after_cr: false,
            data: Vec::new(),
            data_len: 0,
            has_data: false,
            name: String::new(),
            last_id: String::new(),
            blocks: None,
            block_id: None,
        }
    }

    /// The blocks of `bytes` that carried an `id` or a `data` field, in
    /// order, each as raw as a blank line ended it (blocks of comments,
    /// `event` or `retry` alone make none). Values past `max` are cut.
    pub fn blocks(bytes: &[u8], max: usize) -> Vec<Block> {
        let mut splitter = Splitter::new(max);
        splitter.blocks = Some(Vec::new());
        splitter.feed(bytes);
        splitter.blocks.unwrap_or_default()
    }

    /// Feeds a chunk; the events that ended in it, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for (i, &b) in chunk.iter().enumerate() {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\r' | b'\n' => {
                    self.after_cr = b == b'\r';
                    if let Some(mut event) = self.end_line() {
                        // A CR may still be followed by its LF; the event has
                        // ended either way (the LF is skipped above).
                        event.end = i + 1;
                        events.push(event);
                    }
                }
                _ => {
                    self.line_len += 1;
                    if self.line.len() < self.max + 16 {
                        self.line.push(b);
                    }
                }
            }
        }
        events
    }

    /// A line ended: process its field, or dispatch on a blank line.
    fn end_line(&mut self) -> Option<SseEvent> {
        let line = std::mem::take(&mut self.line);
        let len = std::mem::replace(&mut self.line_len, 0);
        if len == 0 {
            let id = self.block_id.take();
            if let Some(blocks) = &mut self.blocks {
                if id.is_some() || self.has_data {
                    blocks.push(Block {
                        id: id.map(|id| String::from_utf8_lossy(&id).into_owned()),
                        data: self
                            .has_data
                            .then(|| String::from_utf8_lossy(&self.data).into_owned()),
                    });
                }
            }
            return self.dispatch();
        }
        if line.first() == Some(&b':') {
            return None;
        }
        let (field, value, value_len) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let skip = usize::from(line.get(colon + 1) == Some(&b' '));
                let start = colon + 1 + skip;
                (&line[..colon], &line[start.min(line.len())..], len - start)
            }
            None => (&line[..], &[][..], 0),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data_len += 1;
                    self.push_data(b"\n");
                }
                self.has_data = true;
                self.data_len += value_len;
                // A value cut at the line bound is over the data bound too.
                if value_len == value.len() {
                    self.push_data(value);
                }
            }
            b"event" => self.name = String::from_utf8_lossy(value).into_owned(),
            b"id" => {
                if self.blocks.is_some() {
                    self.block_id = Some(value.to_vec());
                }
                if value_len == value.len() && !value.contains(&0) {
                    self.last_id = String::from_utf8_lossy(value).into_owned();
                }
            }
            _ => {}
        }
        None
    }

    fn push_data(&mut self, bytes: &[u8]) {
        if self.data.len() + bytes.len() <= self.max {
            self.data.extend_from_slice(bytes);
        }
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let name = std::mem::take(&mut self.name);
        let data = std::mem::take(&mut self.data);
        let len = std::mem::replace(&mut self.data_len, 0);
        if !std::mem::replace(&mut self.has_data, false) {
            return None;
        }
        Some(SseEvent {
            name,
            // `push_data` keeps `data` within the bound, so the second test
            // only restates it (cargo-mutants' `&&` → `||` here is
            // equivalent): all the data seen, and within the bound.
            data: if len == data.len() && len <= self.max {
                Ok(data)
            } else {
                Err(len)
            },
            id: self.last_id.clone(),
            end: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]], max: usize) -> Vec<(String, Result<Vec<u8>, usize>)> {
        let mut s = Splitter::new(max);
        chunks
            .iter()
            .flat_map(|c| s.feed(c))
            .map(|e| (e.name, e.data))
            .collect()
    }

    #[test]
    fn events_are_cut_across_chunks_with_every_line_ending() {
        let got = all(
            &[
                b"event: endpoint\r\ndata: /messages?s",
                b"essionId=1\r\n\r\n: a comment\n",
                b"id: 7\ndata:{\"a\":1}\rdata: x\r\r",
                b"data\n\n",
            ],
            1024,
        );
        assert_eq!(
            got,
            vec![
                ("endpoint".into(), Ok(b"/messages?sessionId=1".to_vec())),
                (String::new(), Ok(b"{\"a\":1}\nx".to_vec())),
                (String::new(), Ok(Vec::new())),
            ]
        );
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_and_its_name_does_not_leak() {
        let got = all(&[b"event: ping\nid: 1\n\ndata: z\n\n"], 1024);
        assert_eq!(got, vec![(String::new(), Ok(b"z".to_vec()))]);
    }

    #[test]
    fn only_unnamed_and_message_events_carry_messages() {
        let event = |name: &str| SseEvent {
            name: name.into(),
            data: Ok(Vec::new()),
            id: String::new(),
            end: 0,
        };
        assert!(event("").is_message());
        assert!(event("message").is_message());
        assert!(!event("endpoint").is_message());
        assert!(!event("messages").is_message());
    }

    /// A line that never ends holds at most the bound and a field name's
    /// room, however long it runs: the memory a hostile stream can cost.
    #[test]
    fn an_endless_line_is_held_to_the_bound() {
        let mut s = Splitter::new(64);
        for _ in 0..20 {
            assert!(s.feed(&[b'x'; 64]).is_empty());
        }
        assert_eq!(s.line.len(), 64 + 16);
        assert_eq!(s.line_len, 64 * 20);
    }

    /// Data past the bound is not held while its event is still open,
    /// whether its line was cut (100 bytes) or kept whole (20 bytes, within
    /// the line's room for a field name but past the data's bound).
    #[test]
    fn data_past_the_bound_is_not_held_before_dispatch() {
        for long in [100, 20] {
            let mut s = Splitter::new(16);
            let mut line = b"data: ".to_vec();
            line.extend(std::iter::repeat_n(b'x', long));
            line.push(b'\n');
            assert!(s.feed(&line).is_empty());
            assert!(s.data.len() <= 16, "{} bytes held", s.data.len());
            assert_eq!(s.feed(b"\n")[0].data, Err(long));
        }
    }

    #[test]
    fn data_past_the_bound_is_counted_not_kept() {
        let mut long = b"data: ".to_vec();
        long.extend(std::iter::repeat_n(b'x', 100));
        long.extend_from_slice(b"\ndata: y\n\ndata: ok\n\n");
        let got = all(&[&long], 16);
        assert_eq!(
            got,
            vec![
                (String::new(), Err(102)),
                (String::new(), Ok(b"ok".to_vec()))
            ]
        );
    }

    #[test]
    fn the_last_event_id_carries_forward_and_a_nul_one_is_ignored() {
        let mut s = Splitter::new(64);
        let ids: Vec<String> = s
            .feed(b"id: 1\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid\ndata: d\n\n")
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(ids, ["1", "1", "1", ""]);
    }

    #[test]
    fn blocks_are_raw_where_events_are_not() {
        let blocks = Splitter::blocks(b": c\n\nevent: x\n\nid: 7\ndata:\n\nid: a\0b\n\n", 64);
        assert_eq!(
            blocks,
            [
                Block {
                    id: Some("7".into()),
                    data: Some(String::new())
                },
                Block {
                    id: Some("a\0b".into()),
                    data: None
                },
            ]
        );
    }

    #[test]
    fn the_end_offset_points_past_the_blank_line() {
        let mut s = Splitter::new(64);
        let chunk = b"data: a\n\ndata: b";
        let events = s.feed(chunk);
        assert_eq!(events.len(), 1);
        assert_eq!(&chunk[..events[0].end], b"data: a\n\n");
    }
}
