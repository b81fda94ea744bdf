//! The async twin of [`crate::lines::read_line`]: a line longer than the bound
//! is drained and counted, never buffered whole, so a peer writing 100 MB
//! without a newline costs one read buffer, not 100 MB.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from a stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without the newline.
    Frame(Vec<u8>),
    /// The line was longer than the bound; this many bytes were skipped.
    TooLong(u64),
}

/// Reads the next line (up to `\n`, not included; a final line without one
/// counts), keeping at most `max` bytes. `Ok(None)` at end of input.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut seen = 0u64;
    let mut too_long = false;
    loop {
        let available = match reader.fill_buf().await {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if seen == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        seen += chunk.len() as u64;
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let consumed = done.unwrap_or(chunk.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    Ok(Some(if too_long {
        Line::TooLong(seen)
    } else {
        Line::Frame(line)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_and_bounds() {
        let mut input: &[u8] = b"ab\n\nxxxxxxxxxx\nlast";
        assert_eq!(
            read_line(&mut input, 4).await.unwrap(),
            Some(Line::Frame(b"ab".to_vec()))
        );
        assert_eq!(
            read_line(&mut input, 4).await.unwrap(),
            Some(Line::Frame(vec![]))
        );
        assert_eq!(
            read_line(&mut input, 4).await.unwrap(),
            Some(Line::TooLong(10))
        );
        assert_eq!(
            read_line(&mut input, 4).await.unwrap(),
            Some(Line::Frame(b"last".to_vec()))
        );
        assert_eq!(read_line(&mut input, 4).await.unwrap(), None);
    }
}
