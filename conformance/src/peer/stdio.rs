//! The stdio transport: newline-delimited frames on standard input, answers on
//! standard output (MCP basic/transports §stdio: "Messages are delimited by
//! newlines, and MUST NOT contain embedded newlines"). Lines are bounded by
//! [`read_line`], so a sender cannot make the peer buffer an endless line; a
//! line over the bound is answered with one -32700 and skipped. Ends cleanly at
//! end of input, after the peer's teardown frames ([`Peer::close`]).

use std::io::{self, BufRead, Write};

use super::Peer;
use crate::lines::{read_line, Line};

/// Serves `peer` over `input` and `output` until `input` ends. Blank lines
/// are skipped; every frame written is followed by `\n` and flushed at once,
/// since the client is waiting on it.
pub fn serve(
    peer: &mut Peer,
    input: &mut impl BufRead,
    output: &mut impl Write,
    max_frame: usize,
) -> io::Result<()> {
    while let Some(line) = read_line(input, max_frame)? {
        let frames = match line {
            Line::TooLong(len) => vec![peer.too_long_frame(len, max_frame)],
            Line::Frame(mut bytes) => {
                // A `\r\n` sender's `\r` is whitespace to JSON, but trim it so
                // a blank CRLF line stays blank.
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
                if bytes.iter().all(|b| matches!(b, b' ' | b'\t')) {
                    continue;
                }
                peer.handle(&bytes)
            }
        };
        for frame in frames {
            output.write_all(&frame)?;
            output.write_all(b"\n")?;
        }
        output.flush()?;
    }
    // End of input: what is still open is torn down, and its last frames
    // written for a client still reading.
    for frame in peer.close() {
        output.write_all(&frame)?;
        output.write_all(b"\n")?;
    }
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peer::Serve;

    #[test]
    fn garbage_blank_and_long_lines() {
        let input = b"\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"get_data\"}\r\n\xff\xfe\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n{\"jsonrpc\":\"2.0\",\"method\":\"update\"}";
        let mut peer = Peer::new(Serve::JsonRpc);
        let mut out = Vec::new();
        serve(&mut peer, &mut &input[..], &mut out, 48).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], r#"{"jsonrpc":"2.0","id":1,"result":["hello",5]}"#);
        assert!(lines[1].contains("-32700") && lines[1].contains("json.utf8"));
        assert!(lines[2].contains("-32700") && lines[2].contains("json.frame-too-large"));
    }
}
