//! Findings on disk: one transcript per finding (the project's format,
//! [`crate::transcript`]), named `<kind>.<revision>.<hash>.jsonl` so a
//! replay knows what to look for and under which revision, and a second run
//! that finds the same thing overwrites the same file.

use std::path::Path;

use harness::{Direction, Revision};

use crate::transcript::{self, Entry};

use super::invariant::Kind;

/// FNV-1a, 64 bits: a stable name for a finding's key across runs and builds.
#[must_use]
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file name of a finding.
#[must_use]
pub fn file_name(kind: Kind, revision: Revision, key: &str) -> String {
    format!(
        "{}.{}.{:016x}.jsonl",
        kind.name(),
        revision.name(),
        hash(key)
    )
}

/// What a file name says: the kind and the revision.
#[must_use]
pub fn parse_name(path: &Path) -> Option<(Kind, Revision)> {
    let name = path.file_name()?.to_str()?.strip_suffix(".jsonl")?;
    let mut parts = name.split('.');
    let kind = Kind::from_name(parts.next()?)?;
    let revision = parts.next()?.parse().ok()?;
    Some((kind, revision))
}

/// The frames a finding's transcript sent, without the session's own
/// traffic: the handshake and the liveness pings (ids from
/// [`super::ids::FIRST_ID`] up), and our cancellations.
///
/// # Errors
/// The file does not read as a transcript.
pub fn load_frames(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let reader =
        transcript::Reader::new(std::io::BufReader::new(file), transcript::DEFAULT_MAX_LINE);
    let mut frames = Vec::new();
    let mut initialized_seen = false;
    for entry in reader {
        let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        let Entry::Frame(transcript::Frame {
            from: Direction::ClientToServer,
            bytes,
            ..
        }) = entry
        else {
            continue;
        };
        if ours(&bytes) {
            continue;
        }
        if !initialized_seen && is_initialized(&bytes) {
            initialized_seen = true;
            continue;
        }
        frames.push(bytes);
    }
    Ok(frames)
}

fn ours(bytes: &[u8]) -> bool {
    let Ok(harness::Frame::Single(m)) = harness::lift(bytes) else {
        return false;
    };
    let method = m
        .method()
        .map(std::borrow::Cow::into_owned)
        .unwrap_or_default();
    match m.id() {
        Some(harness::Id::Number(n)) => {
            matches!(method.as_str(), "ping" | "initialize" | "server/discover")
                && n.parse::<i64>().is_ok_and(|n| n >= super::ids::FIRST_ID)
        }
        None => {
            method == "notifications/cancelled"
                && std::str::from_utf8(bytes).is_ok_and(|t| t.contains("wirecheck: timed out"))
        }
        _ => false,
    }
}

fn is_initialized(bytes: &[u8]) -> bool {
    bytes == harness::client::notification_document("notifications/initialized", None).as_slice()
}
