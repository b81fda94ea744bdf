//! The reference peer's pagination cursors: opaque to a client, yet
//! self-verifying, so the client judge can tell a cursor the peer issued from
//! one a client parsed, modified or made up.
//!
//! A cursor is `{list}.{page}.{tag}`, the tag a hash of the list and the page
//! under a fixed key: the same cursor in every process, so a `tasks/list`
//! cursor kept from an earlier connection still reads (2025-11-25
//! basic/utilities/tasks §Task Listing forbids parsing or modifying one, not
//! keeping it), while `tools.3.…` made from `tools.2.…` by counting on does not.
//! The key is in the source; nothing here is a secret, only a check that no
//! client computes by accident.

/// The fixed key the tags are computed under.
const KEY: &[u8] = b"wirecheck reference peer cursor v1";

/// FNV-1a, 64 bits: a fixed, documented hash (std's `DefaultHasher` may
/// change between Rust releases, and a cursor must read the same in every
/// build a conversation may meet).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.iter().copied().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn tag(list: &str, page: usize) -> String {
    let page = page.to_string();
    format!(
        "{:08x}",
        fnv1a(&[KEY, list.as_bytes(), page.as_bytes()]) >> 32
    )
}

/// The cursor of page `page` (from 2) of `list` (`tools`, `tasks`, …).
#[must_use]
pub(crate) fn issue(list: &str, page: usize) -> String {
    format!("{list}.{page}.{}", tag(list, page))
}

/// The page `cursor` reaches in `list`, if the peer could have issued it for
/// that list: exactly [`issue`]'s spelling, byte for byte.
#[must_use]
pub fn page_of(list: &str, cursor: &str) -> Option<usize> {
    let rest = cursor.strip_prefix(list)?.strip_prefix('.')?;
    let (page, _) = rest.split_once('.')?;
    let page: usize = page.parse().ok()?;
    (issue(list, page) == cursor).then_some(page)
}

/// The list a paginated method pages, as the cursors name it.
#[must_use]
pub fn list_of(method: &str) -> Option<&'static str> {
    Some(match method {
        "tools/list" => "tools",
        "prompts/list" => "prompts",
        "resources/list" => "resources",
        "resources/templates/list" => "resourceTemplates",
        "tasks/list" => "tasks",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_cursor_reads_back_and_nothing_else_does() {
        let second = issue("tools", 2);
        assert_eq!(page_of("tools", &second), Some(2));
        assert_eq!(page_of("tasks", &second), None, "another list's cursor");
        let counted_on = second.replacen(".2.", ".3.", 1);
        assert_eq!(page_of("tools", &counted_on), None, "{counted_on}");
        for mangled in [
            format!(" {second}"),
            second.to_uppercase(),
            second[..second.len() - 1].to_owned(),
            second.replace('.', "%2E"),
            "tools.02.".to_owned() + &tag("tools", 2),
            "page-2".to_owned(),
            String::new(),
        ] {
            assert_eq!(page_of("tools", &mangled), None, "{mangled:?}");
        }
        assert_ne!(issue("tools", 2), issue("tools", 3));
        assert_ne!(issue("tools", 2), issue("tasks", 2));
    }
}
