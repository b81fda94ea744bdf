//! The project's one transcript format: a captured two-sided conversation, one
//! JSON object per line (its JSON Schema is `schemas/transcript.schema.json`).
//!
//! ```text
//! {"from":"client","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}","t":0.0}
//! {"from":"server","frame_hex":"7b7d"}
//! {"event":"wait-elapsed","t":30.0}
//! {"event":"closed"}
//! ```
//!
//! A frame line names its sender (`client` or `server`) and carries the frame's
//! exact text in `frame`, or its bytes in `frame_hex` when they are not UTF-8.
//! An event line is `closed` (a peer closed its end) or `wait-elapsed` (the wait
//! for an answer ran out). `t`, seconds from the start, is optional on every
//! line. Blank lines are skipped; unknown members are an error, so a typo is
//! never silently ignored. Lines are read with a bound, so a hostile file cannot
//! make the reader buffer an unbounded line.

use std::io::{self, BufRead, Write};

use harness::session::Event;
use harness::Direction;
use serde::Deserialize;

use crate::lines::{read_line, Line};

/// The longest transcript line read by default: a frame of
/// [`harness::Limits::DEFAULT_MAX_FRAME_BYTES`] hex-encoded, plus room for the
/// line's other members.
pub const DEFAULT_MAX_LINE: usize = 2 * harness::Limits::DEFAULT_MAX_FRAME_BYTES + 256;

/// What a transport can report besides frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// A peer closed its end.
    Closed,
    /// The wait for an answer ran out.
    WaitElapsed,
}

/// One frame on the wire: who sent it, its exact bytes, when. The driver's log,
/// a saved transcript and a record's exchange all hold frames of this one shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Who sent it.
    pub from: Direction,
    /// Its exact bytes.
    pub bytes: Vec<u8>,
    /// Seconds from the start, when it was timed.
    pub t: Option<f64>,
}

// A frame's time is never NaN: a transcript line's `t` is refused unless it
// is finite, and the driver's is a clock reading. So equality is total, and a
// record holding frames can be compared whole.
impl Eq for Frame {}

impl Frame {
    /// A frame `from` sent, not timed.
    #[must_use]
    pub fn untimed(from: Direction, bytes: Vec<u8>) -> Self {
        Self {
            from,
            bytes,
            t: None,
        }
    }
}

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A frame and who sent it.
    Frame(Frame),
    /// A transport event.
    Event {
        /// Which.
        event: Transport,
        /// Who closed, for `closed`, when the capture knows.
        from: Option<Direction>,
        /// Seconds from the start.
        t: Option<f64>,
    },
}

impl Entry {
    /// The event the session judge is fed.
    #[must_use]
    pub fn event(&self) -> Event<'_> {
        match self {
            Entry::Frame(Frame { from, bytes, .. }) => Event::Frame { from: *from, bytes },
            Entry::Event {
                event: Transport::Closed,
                ..
            } => Event::Closed,
            Entry::Event {
                event: Transport::WaitElapsed,
                ..
            } => Event::WaitElapsed,
        }
    }

    /// Who sent the frame, or who closed, when known.
    #[must_use]
    pub fn from(&self) -> Option<Direction> {
        match self {
            Entry::Frame(frame) => Some(frame.from),
            Entry::Event { from, .. } => *from,
        }
    }

    /// The frame's bytes; `None` for a transport event.
    #[must_use]
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Entry::Frame(frame) => Some(&frame.bytes),
            Entry::Event { .. } => None,
        }
    }

    /// Seconds from the start, when recorded.
    #[must_use]
    pub fn time(&self) -> Option<f64> {
        match self {
            Entry::Frame(Frame { t, .. }) | Entry::Event { t, .. } => *t,
        }
    }
}

/// Writes `entries` as the transcript `dir/name`, creating `dir`.
///
/// # Errors
/// The folder or the file cannot be written.
pub fn save(
    dir: &std::path::Path,
    name: &str,
    entries: &[Entry],
) -> Result<std::path::PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(name);
    let mut out = Vec::new();
    for entry in entries {
        write_entry(&mut out, entry).map_err(|e| e.to_string())?;
    }
    std::fs::write(&path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// A line that is not a transcript entry, or a read that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// 1-based line number (0 for an I/O error before any line).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Repr {
    from: Option<Side>,
    frame: Option<String>,
    frame_hex: Option<String>,
    event: Option<EventName>,
    t: Option<f64>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Side {
    Client,
    Server,
}

impl From<Side> for Direction {
    fn from(s: Side) -> Self {
        match s {
            Side::Client => Direction::ClientToServer,
            Side::Server => Direction::ServerToClient,
        }
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum EventName {
    Closed,
    WaitElapsed,
}

/// Reads `text` (one line, without its newline) as an entry.
///
/// # Errors
/// When the line is not JSON, has unknown members, or is neither one frame nor
/// one event.
pub fn parse_line(text: &[u8]) -> Result<Entry, String> {
    let repr: Repr = serde_json::from_slice(text).map_err(|e| e.to_string())?;
    if let Some(t) = repr.t {
        if !(t.is_finite() && t >= 0.0) {
            return Err(format!("`t` must be a number of seconds >= 0, not {t}"));
        }
    }
    match (repr.frame, repr.frame_hex, repr.event) {
        (Some(frame), None, None) => Ok(Entry::Frame(Frame {
            from: repr.from.ok_or("a frame line needs `from`")?.into(),
            bytes: frame.into_bytes(),
            t: repr.t,
        })),
        (None, Some(hex), None) => Ok(Entry::Frame(Frame {
            from: repr.from.ok_or("a frame line needs `from`")?.into(),
            bytes: unhex(&hex)?,
            t: repr.t,
        })),
        (None, None, Some(event)) => Ok(Entry::Event {
            event: match event {
                EventName::Closed => Transport::Closed,
                EventName::WaitElapsed => Transport::WaitElapsed,
            },
            from: repr.from.map(Direction::from),
            t: repr.t,
        }),
        (None, None, None) => Err("a line needs `frame`, `frame_hex` or `event`".into()),
        _ => Err("a line has exactly one of `frame`, `frame_hex` and `event`".into()),
    }
}

fn unhex(hex: &str) -> Result<Vec<u8>, String> {
    if hex.len() % 2 != 0 {
        return Err("`frame_hex` has an odd number of digits".into());
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| format!("`frame_hex` has a non-hex digit at offset {i}"))
        })
        .collect()
}

/// The entries of a transcript, read one line at a time.
pub struct Reader<R> {
    input: R,
    line: usize,
    max_line: usize,
}

impl<R: BufRead> Reader<R> {
    /// Reads `input`, refusing lines longer than `max_line` bytes.
    pub fn new(input: R, max_line: usize) -> Self {
        Self {
            input,
            line: 0,
            max_line,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Entry, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let read = read_line(&mut self.input, self.max_line);
            self.line += 1;
            let line = self.line;
            let err = |message: String| Some(Err(Error { line, message }));
            match read {
                Err(e) => return err(format!("cannot read: {e}")),
                Ok(None) => return None,
                Ok(Some(Line::TooLong(len))) => {
                    return err(format!(
                        "line of {len} bytes exceeds the limit of {} bytes",
                        self.max_line
                    ))
                }
                Ok(Some(Line::Frame(bytes))) => {
                    let text = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
                    if text.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    return Some(parse_line(text).map_err(|message| Error { line, message }));
                }
            }
        }
    }
}

/// Writes `entry` as one transcript line: `frame` when the bytes are UTF-8,
/// `frame_hex` otherwise.
///
/// # Errors
/// When `out` fails.
pub fn write_entry(out: &mut impl Write, entry: &Entry) -> io::Result<()> {
    /// A line's members in the order the format documents them.
    #[derive(serde::Serialize)]
    struct Line<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        event: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        frame: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        frame_hex: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        t: Option<f64>,
    }
    let line = match entry {
        Entry::Frame(Frame { from, bytes, t }) => {
            let text = std::str::from_utf8(bytes).ok();
            Line {
                event: None,
                from: Some(from.sender()),
                frame: text,
                frame_hex: text
                    .is_none()
                    .then(|| bytes.iter().map(|b| format!("{b:02x}")).collect()),
                t: *t,
            }
        }
        Entry::Event { event, from, t } => Line {
            event: Some(match event {
                Transport::Closed => "closed",
                Transport::WaitElapsed => "wait-elapsed",
            }),
            from: from.map(Direction::sender),
            frame: None,
            frame_hex: None,
            t: *t,
        },
    };
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Result<Entry, Error>> {
        Reader::new(text.as_bytes(), 200).collect()
    }

    #[test]
    fn frames_events_and_blank_lines() {
        let got = read("{\"from\":\"client\",\"frame\":\"{}\",\"t\":0.5}\n\n{\"from\":\"server\",\"frame_hex\":\"ff00\"}\n{\"event\":\"closed\"}\n");
        assert_eq!(
            got,
            vec![
                Ok(Entry::Frame(Frame {
                    from: Direction::ClientToServer,
                    bytes: b"{}".to_vec(),
                    t: Some(0.5),
                })),
                Ok(Entry::Frame(Frame {
                    from: Direction::ServerToClient,
                    bytes: vec![0xff, 0],
                    t: None,
                })),
                Ok(Entry::Event {
                    event: Transport::Closed,
                    from: None,
                    t: None
                }),
            ]
        );
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let got = read("{\"event\":\"closed\"}\n{\"from\":\"client\"}\n");
        assert_eq!(
            got[1],
            Err(Error {
                line: 2,
                message: "a line needs `frame`, `frame_hex` or `event`".into()
            })
        );
        let got = read("{\"frame\":\"{}\"}");
        assert_eq!(
            got[0].as_ref().unwrap_err().message,
            "a frame line needs `from`"
        );
        let got = read("{\"from\":\"client\",\"frame\":\"{}\",\"tt\":1}");
        assert!(got[0]
            .as_ref()
            .unwrap_err()
            .message
            .contains("unknown field `tt`"));
        let long = format!("{{\"from\":\"client\",\"frame\":\"{}\"}}", "x".repeat(300));
        assert_eq!(
            read(&long)[0].as_ref().unwrap_err().message,
            "line of 328 bytes exceeds the limit of 200 bytes"
        );
        let got = read("{\"from\":\"client\",\"frame_hex\":\"f\"}");
        assert_eq!(
            got[0].as_ref().unwrap_err().message,
            "`frame_hex` has an odd number of digits"
        );
    }

    #[test]
    fn written_entries_read_back() {
        let entries = [
            Entry::Frame(Frame {
                from: Direction::ServerToClient,
                bytes: vec![b'{', 0xc3, b'}'],
                t: Some(1.25),
            }),
            Entry::Event {
                event: Transport::WaitElapsed,
                from: None,
                t: None,
            },
        ];
        let mut out = Vec::new();
        for e in &entries {
            write_entry(&mut out, e).expect("writes");
        }
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.starts_with("{\"from\":\"server\",\"frame_hex\":\"7bc37d\""));
        let back: Vec<Entry> = Reader::new(text.as_bytes(), 200)
            .map(Result::unwrap)
            .collect();
        assert_eq!(back, entries);
    }
}
