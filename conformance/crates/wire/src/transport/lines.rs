//! The async twin of [`ground::lines::read_line`], over the same
//! [`Accumulator`](ground::lines::Accumulator): a line longer than the bound is drained and counted, never buffered whole, so a peer writing 100 MB
//! without a newline costs one read buffer, not 100 MB.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use ground::lines::Accumulator;
pub use ground::lines::Line;

/// Reads the next line (up to `\n`, not included; a final line without one
/// counts), keeping at most `max` bytes. `Ok(None)` at end of input.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> io::Result<Option<Line>> {
    let mut acc = Accumulator::new(max);
    loop {
        let available = match reader.fill_buf().await {
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
