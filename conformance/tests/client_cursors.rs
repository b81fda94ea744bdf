//! The client judge's cursor records (`mcp.pagination.cursor-opaque`,
//! 2025-06-18 server/utilities/pagination §Implementation Guidelines, MUST:
//! "Clients MUST treat cursors as opaque tokens") when a client breaks the
//! rule many times: what the record quotes and what it counts. The single
//! cursor cases are in `tests/client_judge.rs`.

use harness::Outcome;
use wirecheck::clientcheck::Director;
use wirecheck::peer::Serve;
use wirecheck::report::Record;

/// Feeds `frames` to the judged peer.
fn play(director: &mut Director, frames: &[String]) {
    for f in frames {
        drop(director.handle(f.as_bytes(), None));
    }
}

/// The client judge's record of `rule`.
fn record<'r>(records: &'r [Record], rule: &str) -> &'r Record {
    let key = format!("client/{rule}");
    records
        .iter()
        .find(|r| r.place.vector.as_deref() == Some(key.as_str()))
        .unwrap_or_else(|| panic!("no record for {key}"))
}

/// A 2025-06-18 client that sends ten `tools/list` cursors it made up: the
/// record fails, quotes the first eight, counts the other two, and says how
/// many cursors it judged, so a report stays readable however often a client
/// breaks the rule and still shows how often it did.
#[test]
fn many_broken_cursors_are_quoted_up_to_eight_and_the_rest_counted() {
    let mut d = Director::new(Serve::Negotiate, &[], "t");
    let mut frames = vec![
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
    ];
    frames.extend((0..10).map(|n| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"tools/list","params":{{"cursor":"page-{n}"}}}}"#,
            n + 2
        )
    }));
    play(&mut d, &frames);
    let records = d.finish(true);
    let cursors = record(&records, "mcp.pagination.cursor-opaque");
    assert_eq!(cursors.outcome, Outcome::Fail);
    let messages: Vec<&str> = cursors
        .violations
        .iter()
        .flatten()
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(messages.len(), 9, "{messages:?}");
    for (n, quoted) in messages[..8].iter().enumerate() {
        assert!(
            quoted.contains(&format!("\"page-{n}\"")) && quoted.contains("never issues"),
            "{quoted}"
        );
    }
    assert_eq!(messages[8], "… and 2 more");
    assert!(
        cursors
            .notes
            .contains(&"10 cursor(s) the client sent judged".to_owned()),
        "{:?}",
        cursors.notes
    );
}
