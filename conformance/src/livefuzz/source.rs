//! Where fuzzed frames come from, deterministically for a seed: the
//! structure-aware generator steered to the revision's methods, the structural
//! mutator over the golden vectors' frames, and the same mutator over frames
//! the peer itself sent. Same seed, same vectors, same peer answers: same frames.
//!
//! No frame reaches the peer that could call a tool the user did not allow by
//! name (`--allow-tool`): a third-party server's tools may fetch URLs or write
//! files. Tool calls are built from a template naming an allowed tool; every
//! other frame that could be read as a `tools/call` by a lenient parser (escapes
//! undone) is dropped before it is sent.

use arbitrary::Unstructured;
use harness::fuzzing::mutate::Rng;
use harness::fuzzing::{mutate_json, GenFrame};
use harness::rules::{schema, Sender};
use harness::{Direction, Revision};

use crate::vectors::Vector;

/// Which source a frame came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The structure-aware generator.
    Generated,
    /// A golden vector's frame, mutated (or as it is).
    Vector,
    /// A frame the peer sent, mutated.
    Echo,
    /// A call of an allowed tool with generated arguments.
    Tool,
}

/// The most peer frames kept to mutate.
const ECHO_CAP: usize = 256;

/// A deterministic stream of frames for one revision.
pub struct Source {
    rng: Rng,
    methods: Vec<&'static str>,
    vectors: Vec<Vec<u8>>,
    echoes: Vec<Vec<u8>>,
    tools: Vec<String>,
    echo: bool,
}

impl Source {
    /// Frames for `revision` from `seed`, mutating the client-to-server
    /// frames of `vectors` that apply to it; `tools` may be called; `echo`
    /// lets frames the peer sent be mutated (off for `diff`, whose peers
    /// must all get the same frames).
    #[must_use]
    pub fn new(
        seed: u64,
        revision: Revision,
        vectors: &[Vector],
        tools: &[String],
        echo: bool,
    ) -> Source {
        let methods = schema::methods()
            .iter()
            .filter(|d| d.revision == revision && d.sender == Sender::Client)
            .filter(|d| d.method != "tools/call" || !tools.is_empty())
            .map(|d| d.method)
            .collect();
        let vectors = vectors
            .iter()
            .filter(|v| v.profile.direction == Direction::ClientToServer)
            .filter(|v| v.profile.revision == revision || v.profile.revision == Revision::JsonRpc2)
            .map(|v| v.frame.clone())
            .filter(|f| safe(f, tools))
            .collect();
        Source {
            rng: Rng::new(seed),
            methods,
            vectors,
            echoes: Vec::new(),
            tools: tools.to_vec(),
            echo,
        }
    }

    /// Keeps a frame the peer sent, to mutate later.
    pub fn saw(&mut self, frame: &[u8]) {
        if !self.echo || frame.is_empty() || frame.len() > 4096 {
            return;
        }
        if self.echoes.len() < ECHO_CAP {
            self.echoes.push(frame.to_vec());
        } else {
            let i = self.index(ECHO_CAP);
            self.echoes[i] = frame.to_vec();
        }
    }

    fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.rng.next_u64() % len.max(1) as u64).unwrap_or(0)
    }

    /// The next frame and where it came from.
    pub fn next_frame(&mut self) -> (Origin, Vec<u8>) {
        loop {
            let pick = self.rng.next_u64() % 100;
            let (origin, frame) = match pick {
                0..=44 => (Origin::Generated, self.generated()),
                45..=84 if !self.vectors.is_empty() => (Origin::Vector, self.mutated_vector()),
                85..=94 if !self.echoes.is_empty() => (Origin::Echo, self.mutated_echo()),
                95..=99 if !self.tools.is_empty() => (Origin::Tool, Some(self.tool_call())),
                _ => (Origin::Generated, self.generated()),
            };
            let Some(frame) = frame else { continue };
            // A newline inside a frame would split it into two on stdio (MCP
            // basic/transports: messages "MUST NOT contain embedded newlines").
            if frame.contains(&b'\n') || frame.contains(&b'\r') {
                continue;
            }
            if origin == Origin::Tool || safe(&frame, &self.tools) {
                return (origin, frame);
            }
        }
    }

    fn generated(&mut self) -> Option<Vec<u8>> {
        let mut bytes = [0u8; 512];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&self.rng.next_u64().to_le_bytes());
        }
        let mut u = Unstructured::new(&bytes);
        GenFrame::steered(&mut u, &self.methods)
            .ok()
            .map(|f| f.text.into_bytes())
    }

    fn mutated_vector(&mut self) -> Option<Vec<u8>> {
        let i = self.index(self.vectors.len());
        let frame = self.vectors[i].clone();
        // One in five as it is: a golden frame is a good probe on its own.
        if self.rng.next_u64() % 5 == 0 {
            return Some(frame);
        }
        let mut out = frame;
        let rounds = 1 + self.rng.next_u64() % 3;
        for _ in 0..rounds {
            out = mutate_json(&out, self.rng.next_u64()).unwrap_or(out);
        }
        Some(out)
    }

    fn mutated_echo(&mut self) -> Option<Vec<u8>> {
        let i = self.index(self.echoes.len());
        let frame = self.echoes[i].clone();
        mutate_json(&frame, self.rng.next_u64())
    }

    fn tool_call(&mut self) -> Vec<u8> {
        let i = self.index(self.tools.len());
        let name = serde_json::to_string(&self.tools[i]).unwrap_or_default();
        let id = self.rng.next_u64() % 1_000_000;
        let message = format!("{}", self.rng.next_u64() % 1000);
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":{name},"arguments":{{"message":"m{message}","a":{message},"b":1}}}}}}"#
        )
        .into_bytes()
    }
}

/// Whether `frame` cannot be read as a call of a tool outside `tools`: no
/// `tools/call` in it once JSON escapes are undone, however it is spelled.
#[must_use]
pub fn safe(frame: &[u8], tools: &[String]) -> bool {
    let plain = unescape(frame).to_ascii_lowercase();
    if !contains(&plain, b"tools/call") {
        return true;
    }
    // Only the template's own shape, naming an allowed tool exactly once.
    tools.iter().any(|t| {
        let name = format!("\"name\":{}", serde_json::to_string(t).unwrap_or_default());
        count(&plain, name.to_ascii_lowercase().as_bytes()) == 1
            && count(&plain, b"\"name\"") == 1
            && count(&plain, b"tools/call") == 1
    })
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    count(hay, needle) > 0
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// `frame` with `\/` and `\uXXXX` escapes undone (ASCII only), whitespace
/// dropped: what a lenient parser might read as a method name.
fn unescape(frame: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(frame.len());
    let mut i = 0;
    while i < frame.len() {
        match frame[i] {
            b'\\' if frame.get(i + 1) == Some(&b'u') => {
                let hex = frame
                    .get(i + 2..i + 6)
                    .and_then(|h| std::str::from_utf8(h).ok());
                match hex.and_then(|h| u8::from_str_radix(h.get(2..)?, 16).ok()) {
                    Some(b) if hex.is_some_and(|h| h.starts_with("00")) => {
                        out.push(b);
                        i += 6;
                    }
                    _ => {
                        out.push(b'\\');
                        i += 1;
                    }
                }
            }
            b'\\' if frame.get(i + 1) == Some(&b'/') => {
                out.push(b'/');
                i += 2;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_are_refused_however_spelled() {
        let none: Vec<String> = Vec::new();
        assert!(safe(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, &none));
        assert!(!safe(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#,
            &none
        ));
        assert!(!safe(br#"{"method":"tools\/call"}"#, &none));
        assert!(!safe(br#"{"method":"\u0074ools/call"}"#, &none));
        assert!(!safe(br#"{"method":"TOOLS/CALL"}"#, &none));
        let echo = vec!["echo".to_owned()];
        assert!(safe(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#, &echo));
        assert!(!safe(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"fetch"}}"#, &echo));
        assert!(!safe(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch"}}"#,
            &echo
        ));
    }

    #[test]
    fn the_same_seed_gives_the_same_frames() {
        let (vectors, _) = crate::vectors::embedded();
        let take = |seed| {
            let mut s = Source::new(seed, Revision::Mcp2025_06_18, &vectors, &[], true);
            (0..200).map(|_| s.next_frame().1).collect::<Vec<_>>()
        };
        assert_eq!(take(7), take(7));
        assert_ne!(take(7), take(8));
    }
}
