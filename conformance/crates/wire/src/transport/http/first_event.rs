//! The first event of an SSE stream, as its raw fields.
//!
//! 2025-11-25 basic/transports §Sending Messages to the Server 6: a server
//! that initiates an SSE stream "SHOULD immediately send an SSE event
//! consisting of an event ID and an empty `data` field". An SSE parser that
//! follows the HTML standard (as [`crate::transport::event_stream`] does) dispatches no
//! event whose data is empty and carries the last id forward to the next
//! event, so neither what the parser hands over nor the ids it reports can
//! show that event. This reads the first event block from the bytes
//! themselves (through the one SSE parser's raw blocks), bounded: at most
//! [`MAX_FIRST_BLOCK`] bytes are kept, once.

use crate::transport::event_stream::Splitter;

/// The fields of the first event block of a stream that carried an `id` or
/// a `data` field (blocks of comments, `event` or `retry` alone come first
/// freely: they make no event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstEvent {
    /// The block's last `id` field, if it had one (as the standard's
    /// "last event ID buffer" takes it).
    pub id: Option<String>,
    /// The block's `data` fields joined with `\n`, if it had any.
    pub data: Option<String>,
}

/// The most bytes read for the first block: a stream whose first event
/// takes more is not judged on it.
pub const MAX_FIRST_BLOCK: usize = 1024;

/// Collects a stream's first bytes until its first event block ends.
#[derive(Debug, Default)]
pub struct FirstBlock {
    buf: Vec<u8>,
    finished: bool,
}

impl FirstBlock {
    /// Adds `chunk`; returns the first event once its block is complete, at
    /// most once.
    pub fn feed(&mut self, chunk: &[u8]) -> Option<FirstEvent> {
        if self.finished {
            return None;
        }
        let room = MAX_FIRST_BLOCK.saturating_sub(self.buf.len());
        self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let found = parse(&self.buf);
        if found.is_some() || self.buf.len() >= MAX_FIRST_BLOCK {
            self.finished = true;
            self.buf = Vec::new();
        }
        found
    }
}

/// The first complete event block of `bytes`, if it is there.
fn parse(bytes: &[u8]) -> Option<FirstEvent> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    // A CR last in the buffer may be the first half of a CRLF, so it ends
    // nothing yet.
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let first = Splitter::blocks(bytes, MAX_FIRST_BLOCK)
        .into_iter()
        .next()?;
    Some(FirstEvent {
        id: first.id,
        data: first.data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(chunks: &[&str]) -> Option<FirstEvent> {
        let mut block = FirstBlock::default();
        chunks.iter().find_map(|c| block.feed(c.as_bytes()))
    }

    #[test]
    fn an_id_only_priming_event() {
        let got = first(&["id: 7\n\ndata: {}\n\n"]).expect("a block");
        assert_eq!(got.id.as_deref(), Some("7"));
        assert_eq!(got.data, None);
        let got = first(&["id:p\r\ndata:\r\n\r\n"]).expect("a block");
        assert_eq!(
            (got.id.as_deref(), got.data.as_deref()),
            (Some("p"), Some(""))
        );
    }

    #[test]
    fn a_message_first() {
        let got =
            first(&[": hi\n\nretry: 5\n\n", "data: {\"a\":1}\ndata: x\n\n"]).expect("a block");
        assert_eq!(got.id, None);
        assert_eq!(got.data.as_deref(), Some("{\"a\":1}\nx"));
    }

    #[test]
    fn split_crlf_and_incomplete_blocks() {
        // The CR ending chunk one and the LF starting chunk two are one line end.
        assert_eq!(
            first(&["id: 1\r", "\n\r\n"]).map(|e| e.id),
            Some(Some("1".into()))
        );
        assert_eq!(first(&["id: 1\n"]), None);
        let long = "data: ".to_owned() + &"x".repeat(MAX_FIRST_BLOCK);
        assert_eq!(first(&[&long, "\n\n"]), None, "too long to judge");
    }
}
