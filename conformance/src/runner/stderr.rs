//! What a run's server processes wrote to stderr, kept for the run document
//! within one bound for the whole run.
//!
//! A run starts a fresh process per session (hundreds of them), and each
//! transport already keeps the first [`crate::transport::Limits::stderr_cap`]
//! bytes of its own process. The run keeps the *first* [`Stderr::CAP`]
//! bytes across all of them, each process's text whole as it ends, and
//! counts the rest: what a server says first (a missing variable, a wrong
//! directory, a start-up banner and its version) is what explains a run,
//! and the later processes of a healthy server mostly repeat it. So a
//! server that floods stderr costs the document 16 KiB, however long the run.

use std::sync::Mutex;

use crate::report::Stderr;
use crate::sync::lock;

/// The stderr a run keeps, shared by its sessions as they end.
#[derive(Debug, Default)]
pub struct KeptStderr(Mutex<Kept>);

#[derive(Debug, Default)]
struct Kept {
    bytes: Vec<u8>,
    dropped: u64,
}

impl KeptStderr {
    /// Adds an ended process's stderr: the `bytes` it kept and the
    /// `dropped` bytes it counted past them.
    pub fn add(&self, bytes: &[u8], dropped: u64) {
        let mut kept = lock(&self.0);
        let room = Stderr::CAP
            .saturating_sub(kept.bytes.len())
            .min(bytes.len());
        kept.bytes.extend_from_slice(&bytes[..room]);
        kept.dropped = kept
            .dropped
            .saturating_add((bytes.len() - room) as u64)
            .saturating_add(dropped);
    }

    /// What was kept, for the run document; `None` when nothing was written.
    #[must_use]
    pub fn get(&self) -> Option<Stderr> {
        let kept = lock(&self.0);
        Stderr::of(&kept.bytes, kept.dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_bytes_of_the_run_are_kept_and_the_rest_counted() {
        let kept = KeptStderr::default();
        assert_eq!(kept.get(), None);
        kept.add(b"", 0);
        assert_eq!(kept.get(), None);
        kept.add(b"starting\n", 0);
        kept.add(&vec![b'x'; Stderr::CAP], 100);
        let got = kept.get().unwrap();
        assert_eq!(got.text.len(), Stderr::CAP);
        assert!(got.text.starts_with("starting\nxxx"));
        assert_eq!(got.dropped, 9 + 100);
        // Bytes that are not UTF-8 are replaced, never lost from the count.
        let odd = KeptStderr::default();
        odd.add(b"a\xff\xfeb", 0);
        assert_eq!(odd.get().unwrap().text, "a\u{fffd}\u{fffd}b");
    }
}
