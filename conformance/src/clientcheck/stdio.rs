//! The judged peer over stdio: the newline-delimited loop of
//! [`crate::peer::stdio`], with a [`Director`] where the plain peer sits and
//! each frame timed from the start.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use super::Director;
use crate::lines::{read_line, Line};

/// Serves `director` over `input` and `output` until `input` ends (the
/// client closed its end). Every frame written is followed by `\n` and
/// flushed at once.
///
/// # Errors
/// Reading or writing fails.
pub fn serve(
    director: &mut Director,
    input: &mut impl BufRead,
    output: &mut impl Write,
    max_frame: usize,
) -> io::Result<()> {
    let start = Instant::now();
    let t = || Some(start.elapsed().as_secs_f64());
    while let Some(line) = read_line(input, max_frame)? {
        let frames = match line {
            Line::TooLong(len) => vec![director.too_long(len, max_frame, t())],
            Line::Frame(mut bytes) => {
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
                if bytes.iter().all(|b| matches!(b, b' ' | b'\t')) {
                    continue;
                }
                director.handle(&bytes, t())
            }
        };
        write_all(output, &frames)?;
    }
    let last = director.close(t());
    write_all(output, &last)
}

fn write_all(output: &mut impl Write, frames: &[Vec<u8>]) -> io::Result<()> {
    for frame in frames {
        output.write_all(frame)?;
        output.write_all(b"\n")?;
    }
    output.flush()
}
