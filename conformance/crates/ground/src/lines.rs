//! Reading newline-delimited frames from a stream without trusting its sender:
//! a line longer than the bound is drained and reported, never buffered whole.
//! What becomes of each line is the commands' business, and how it is written
//! the report views'.

use std::io::{self, BufRead};

/// One line read from a stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without the newline.
    Frame(Vec<u8>),
    /// The line was longer than the bound; this many bytes were skipped.
    TooLong(usize),
}

/// One line being read off a stream, chunk by chunk: the bounded-memory rule
/// both readers (this one and the transports' async one) share.
/// A line longer than `max` is counted, never kept.
#[derive(Debug)]
pub struct Accumulator {
    line: Vec<u8>,
    seen: usize,
    too_long: bool,
    max: usize,
}

impl Accumulator {
    /// A line not yet begun, kept up to `max` bytes.
    #[must_use]
    pub fn new(max: usize) -> Self {
        Self {
            line: Vec::new(),
            seen: 0,
            too_long: false,
            max,
        }
    }

    /// Takes what of `available` belongs to this line: how many bytes to
    /// consume, and whether the line ended (its `\n` is consumed, not kept).
    pub fn take(&mut self, available: &[u8]) -> (usize, bool) {
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        self.seen += chunk.len();
        if !self.too_long {
            if self.line.len() + chunk.len() > self.max {
                self.too_long = true;
                self.line = Vec::new();
            } else {
                self.line.extend_from_slice(chunk);
            }
        }
        (done.unwrap_or(chunk.len()), done.is_some())
    }

    /// Whether the input ended with nothing of a line read (no more lines).
    pub fn is_empty(&self) -> bool {
        self.seen == 0
    }

    /// The line read: its bytes, or how many were skipped past the bound.
    #[must_use]
    pub fn finish(self) -> Line {
        if self.too_long {
            Line::TooLong(self.seen)
        } else {
            Line::Frame(self.line)
        }
    }
}

/// Reads the next line (up to `\n`, which is not included; a final line without
/// one counts), keeping at most `max` bytes of it. `Ok(None)` at end of input.
pub fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut acc = Accumulator::new(max);
    loop {
        let available = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if acc.is_empty() {
                return Ok(None);
            }
            break;
        }
        let (consumed, done) = acc.take(available);
        reader.consume(consumed);
        if done {
            break;
        }
    }
    Ok(Some(acc.finish()))
}

/// Whether `bytes` reads as a JSON array at its first byte that is not
/// whitespace: a batch, lifted or not.
#[must_use]
pub fn is_batch_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'[')
}

/// Whether a line a stdio server wrote is no JSON-RPC message at all, but
/// text: a log line, a banner, a blank line, or a structured log record (a
/// JSON object with none of `jsonrpc`, `id`, `method`, `result`, `error`).
/// What is not JSON counts as text unless it begins like a message or a
/// batch cut short (`{`, or `[` before `{` or `]`), so a broken message is
/// judged as the answer it was meant to be; a JSON array or scalar is judged
/// too (a batch, or a reply of the wrong shape). A leading byte-order mark
/// is read past. Text breaks MCP basic/transports §stdio ("The server MUST
/// NOT write anything to its `stdout` that is not a valid MCP message")
/// once, wherever it falls; it is no answer to the request it follows.
#[must_use]
pub fn is_stdout_text(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) {
        return value.as_object().is_some_and(|o| {
            !["jsonrpc", "id", "method", "result", "error"]
                .iter()
                .any(|k| o.contains_key(*k))
        });
    }
    let mut rest = bytes.iter().filter(|b| !b.is_ascii_whitespace());
    match rest.next() {
        None => true,
        Some(b'{') => false,
        Some(b'[') => !matches!(rest.next(), Some(b'{' | b']') | None),
        Some(_) => true,
    }
}

/// Where frames come from: the named files in order, or standard input.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The files; empty (or `-`) means standard input.
    pub files: Vec<std::path::PathBuf>,
    /// The largest frame kept, in bytes.
    pub max_frame: usize,
}

/// A frame's place in the input.
#[derive(Debug, Clone)]
pub struct Place {
    /// The file, `None` for standard input.
    pub file: Option<String>,
    /// The 1-based line number.
    pub line: usize,
}

impl Inputs {
    /// Calls `each` for every non-blank line of every input, in order. Blank
    /// lines (whitespace only) separate frames and are skipped, but counted.
    /// Stops at the first read error, naming the file.
    pub fn for_each(&self, mut each: impl FnMut(&Place, Line)) -> Result<(), String> {
        let stdin_only = self.files.is_empty();
        let sources: Vec<Option<&std::path::Path>> = if stdin_only {
            vec![None]
        } else {
            self.files
                .iter()
                .map(|f| (f.as_os_str() != "-").then_some(f.as_path()))
                .collect()
        };
        for source in sources {
            let name = source.map(|p| p.display().to_string());
            let label = name.clone().unwrap_or_else(|| "standard input".to_owned());
            let mut reader: Box<dyn BufRead> = match source {
                None => Box::new(io::BufReader::with_capacity(1 << 16, io::stdin().lock())),
                Some(path) => Box::new(io::BufReader::with_capacity(
                    1 << 16,
                    std::fs::File::open(path).map_err(|e| format!("cannot open {label}: {e}"))?,
                )),
            };
            let mut place = Place {
                file: name,
                line: 0,
            };
            loop {
                let line = read_line(&mut reader, self.max_frame)
                    .map_err(|e| format!("cannot read {label}: {e}"))?;
                let Some(line) = line else { break };
                place.line += 1;
                if let Line::Frame(bytes) = &line {
                    if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                        continue;
                    }
                }
                each(&place, line);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_bounds() {
        let mut input: &[u8] = b"ab\n\nxxxxxxxxxx\nlast";
        assert_eq!(
            read_line(&mut input, 4).unwrap(),
            Some(Line::Frame(b"ab".to_vec()))
        );
        assert_eq!(read_line(&mut input, 4).unwrap(), Some(Line::Frame(vec![])));
        assert_eq!(read_line(&mut input, 4).unwrap(), Some(Line::TooLong(10)));
        assert_eq!(
            read_line(&mut input, 4).unwrap(),
            Some(Line::Frame(b"last".to_vec()))
        );
        assert_eq!(read_line(&mut input, 4).unwrap(), None);
    }
}
