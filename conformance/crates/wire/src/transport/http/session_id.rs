//! Whether session ids look unguessable, from the ids a server issued.
//!
//! 2025-11-25 basic/transports §Session Management 1 (SHOULD): "The session
//! ID SHOULD be globally unique and cryptographically secure (e.g., a securely
//! generated UUID, a JWT, or a cryptographic hash)". Randomness cannot be
//! proven from a few samples, but its absence often shows: an id too short to
//! hold 128 bits, ids that are numbers counting up, ids sharing a long prefix.

/// Fewer visible-ASCII characters than this cannot carry 128 random bits
/// even as base64 (22 characters); hex needs 32.
const MIN_LEN: usize = 22;

/// What looks guessable about the ids one server issued, in issue order; an
/// empty list when nothing does.
#[must_use]
pub fn session_id_concerns(ids: &[String]) -> Vec<String> {
    let mut concerns = Vec::new();
    if let Some(short) = ids.iter().find(|id| id.len() < MIN_LEN) {
        concerns.push(format!(
            "session id `{short}` has {} characters, too few for 128 random bits",
            short.len()
        ));
    }
    let numbers: Option<Vec<u128>> = ids.iter().map(|id| id.parse::<u128>().ok()).collect();
    if let Some(numbers) = numbers.filter(|n| n.len() >= 2) {
        let close = numbers.windows(2).all(|w| w[1].abs_diff(w[0]) <= 1 << 16);
        if close {
            concerns.push(format!("session ids are numbers in sequence: {ids:?}"));
        }
    }
    if let [first, second, ..] = ids {
        let shared = first
            .bytes()
            .zip(second.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        if shared * 2 >= first.len().max(1) && first != second {
            concerns.push(format!(
                "session ids `{first}` and `{second}` share {shared} leading characters"
            ));
        }
        if first == second {
            concerns.push(format!("two sessions were issued the same id `{first}`"));
        }
    }
    concerns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn random_hex_raises_nothing() {
        let good = ids(&[
            "9f1c2b7e4a5d6c8b0e1f2a3b4c5d6e7f",
            "03e8d1c4b2a9f7e6d5c4b3a291807f6e",
        ]);
        assert!(session_id_concerns(&good).is_empty());
    }

    #[test]
    fn short_sequential_prefixed_and_repeated_ids_are_named() {
        let counting = session_id_concerns(&ids(&["1001", "1002"]));
        assert_eq!(counting.len(), 3, "{counting:?}"); // short, sequential, shared prefix
        assert!(counting[1].contains("in sequence"));
        let prefixed = session_id_concerns(&ids(&[
            "session-0000000000000000000001",
            "session-0000000000000000000002",
        ]));
        assert!(
            prefixed.iter().any(|c| c.contains("leading characters")),
            "{prefixed:?}"
        );
        let same = session_id_concerns(&ids(&["a".repeat(32).as_str(), "a".repeat(32).as_str()]));
        assert!(same.iter().any(|c| c.contains("same id")), "{same:?}");
    }
}
