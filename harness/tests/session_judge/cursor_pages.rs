//! MCP 2026-07-28 server/utilities/caching §Interaction with Pagination
//! (MUST): "Servers MUST apply the same `cacheScope` to all response pages
//! for a given list request." A page is held to the page of the same list
//! method whose `nextCursor` its request carries: a server that numbers the
//! pages of every list alike (cursor `"2"` for `prompts/list` and for
//! `tools/list`) gives two lists the same cursor, and one list's scope says
//! nothing about the other's.

use crate::support::findings;
use harness::{Direction, Revision};

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;
const PAGES: &str = "mcp.r5.cache.scope-pages";

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;
const SERVER_META: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}"#;

/// A list request `id` of `method`, from `cursor` when given.
fn ask(id: u32, method: &str, cursor: Option<&str>) -> (Direction, String) {
    let cursor = cursor.map_or_else(String::new, |c| format!(r#""cursor":"{c}","#));
    (
        C,
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{cursor}{META}}}}}"#),
    )
}

/// An empty page of list `array` with `scope`, and `next` when given.
fn page(id: u32, array: &str, scope: &str, next: Option<&str>) -> (Direction, String) {
    let next = next.map_or_else(String::new, |n| format!(r#""nextCursor":"{n}","#));
    (
        S,
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"{array}":[],{next}"resultType":"complete","ttlMs":0,"cacheScope":"{scope}",{SERVER_META}}}}}"#
        ),
    )
}

/// The scope-pages findings, each as (events, message).
fn reported(frames: &[(Direction, String)]) -> Vec<(Vec<u64>, String)> {
    let mut all = vec![
        (
            C,
            format!(r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{{META}}}}}"#),
        ),
        (
            S,
            format!(
                r#"{{"jsonrpc":"2.0","id":0,"result":{{"supportedVersions":["2026-07-28"],"capabilities":{{"tools":{{}},"prompts":{{}}}},"resultType":"complete","ttlMs":0,"cacheScope":"public",{SERVER_META}}}}}"#
            ),
        ),
    ];
    all.extend_from_slice(frames);
    findings(
        Revision::Mcp2026_07_28,
        all.iter().map(|(d, f)| (*d, f.as_str(), None)),
    )
    .into_iter()
    .filter(|f| f.violation.rule.as_str() == PAGES)
    .map(|f| {
        (
            f.frames.iter().map(|a| a.index).collect(),
            f.violation.message,
        )
    })
    .collect()
}

#[test]
fn the_same_cursor_of_two_lists_leads_each_to_its_own_scope() {
    let frames = [
        // Events 2, 3: prompts, public, next page "2".
        ask(1, "prompts/list", None),
        page(1, "prompts", "public", Some("2")),
        // Events 4, 5: tools, private, next page "2".
        ask(2, "tools/list", None),
        page(2, "tools", "private", Some("2")),
        // Events 6, 7: the tools' page "2", private like its first page.
        ask(3, "tools/list", Some("2")),
        page(3, "tools", "private", None),
    ];
    assert_eq!(reported(&frames), []);
}

#[test]
fn a_second_page_with_another_scope_than_its_first_is_reported() {
    let frames = [
        ask(1, "prompts/list", None),
        page(1, "prompts", "private", Some("2")),
        ask(2, "tools/list", None),
        page(2, "tools", "private", Some("2")),
        // Events 6, 7: the tools' page "2", public.
        ask(3, "tools/list", Some("2")),
        page(3, "tools", "public", None),
    ];
    let found = reported(&frames);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, [5, 7]);
    assert!(
        found[0]
            .1
            .contains(r#"a page of `tools/list` has `cacheScope` "public""#)
            && found[0].1.contains("the page at event 6"),
        "{}",
        found[0].1
    );
}
