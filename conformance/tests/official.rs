//! The verdicts of `conformance/peers/official/expected.json` (the official MCP
//! conformance suite against the reference peer) hold: the file has the shape
//! `compare.mjs` reads, and every "a name it invented" verdict is true of the
//! peer, which answers that request with the error the verdict cites. If the
//! catalogue ever gains `test_simple_text`, this fails here, without Node.

use std::collections::BTreeSet;
use std::path::Path;

use harness::Revision;
use serde_json::{json, Value};
use wirecheck::peer::{Peer, Serve};

fn expected() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/official/expected.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Every scenario entry of every run, with its run's label.
fn entries(expected: &Value) -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    for (label, scenarios) in expected["suite"].as_object().unwrap() {
        for (name, entry) in scenarios.as_object().unwrap() {
            all.push((label.clone(), name.clone(), entry.clone()));
        }
    }
    all
}

#[test]
fn expected_json_has_the_shape_compare_mjs_reads() {
    let expected = expected();
    let labels: BTreeSet<&str> = expected["suite"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // The runs run.sh makes: each revision the suite covers, and the negotiating peer.
    assert_eq!(
        labels,
        BTreeSet::from(["2025-06-18", "2025-11-25", "negotiated"])
    );
    let mut units = 0;
    let clients = expected["clients"].as_object().unwrap();
    assert_eq!(
        clients.len(),
        8,
        "ts stdio/http/sse, python stdio/http × auto/legacy and sse"
    );
    for (label, name, entry) in entries(&expected).into_iter().chain(
        clients
            .iter()
            .map(|(n, e)| ("client".into(), n.clone(), e.clone())),
    ) {
        units += 1;
        let fields: BTreeSet<&str> = entry
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        match entry["outcome"].as_str() {
            Some("pass") => assert_eq!(fields, BTreeSet::from(["outcome"]), "{label} {name}"),
            Some("warn" | "fail") => {
                assert_eq!(
                    fields,
                    BTreeSet::from(["outcome", "message", "verdict"]),
                    "{label} {name}: a failure needs the message it is pinned by and its verdict"
                );
                assert!(
                    !entry["message"].as_str().unwrap().is_empty(),
                    "{label} {name}"
                );
                assert!(
                    entry["verdict"]
                        .as_str()
                        .unwrap()
                        .starts_with("their mistake:"),
                    "{label} {name}: a failure of ours is fixed, not listed"
                );
            }
            other => panic!("{label} {name}: outcome {other:?} is none of pass, warn, fail"),
        }
    }
    assert_eq!(units, 98);
}

/// The request a verdict says the suite made, rebuilt from the backquoted name
/// in the verdict, with the JSON-RPC error code the verdict cites.
fn invented_request(verdict: &str) -> Option<(Value, i64)> {
    let quoted = |after: &str| -> Option<String> {
        let rest = &verdict[verdict.find(after)? + after.len()..];
        let rest = rest.strip_prefix('`')?;
        Some(rest[..rest.find('`')?].to_owned())
    };
    if let Some(name) = quoted("calls tools/call ") {
        return Some((
            json!({"method": "tools/call", "params": {"name": name, "arguments": {}}}),
            -32602,
        ));
    }
    if let Some(name) = quoted("calls prompts/get ") {
        return Some((
            json!({"method": "prompts/get", "params": {"name": name}}),
            -32602,
        ));
    }
    if let Some(name) = quoted("completion/complete for prompt ") {
        let params = json!({"ref": {"type": "ref/prompt", "name": name}, "argument": {"name": "arg1", "value": "test"}});
        return Some((
            json!({"method": "completion/complete", "params": params}),
            -32602,
        ));
    }
    if let Some(uri) = quoted("calls resources/read ") {
        return Some((
            json!({"method": "resources/read", "params": {"uri": uri}}),
            -32002,
        ));
    }
    None
}

#[test]
fn every_invented_name_is_refused_by_the_peer_with_the_code_the_verdict_cites() {
    let expected = expected();
    let mut checked = 0;
    for (label, name, entry) in entries(&expected) {
        let Some(verdict) = entry["verdict"].as_str() else {
            continue;
        };
        // The hard-coded MCP-Protocol-Version verdicts are about HTTP status codes,
        // which run.sh and tests/http.rs observe; only the invented names are here.
        if !verdict.contains("a name it invented") || verdict.contains("hard-coded") {
            continue;
        }
        let revision = match label.as_str() {
            "2025-06-18" => Revision::Mcp2025_06_18,
            _ => Revision::Mcp2025_11_25,
        };
        // json-schema-2020-12 only lists tools: its invented name is checked by listing.
        if verdict.contains("tools/list expecting tool") {
            let listed = tool_names(revision);
            assert!(listed.contains(&"echo".to_owned()), "{listed:?}");
            assert!(
                !listed.contains(&"json_schema_2020_12_tool".to_owned()),
                "{listed:?}"
            );
            checked += 1;
            continue;
        }
        let (mut request, code) = invented_request(verdict)
            .unwrap_or_else(|| panic!("{label} {name}: no request in `{verdict}`"));
        request["jsonrpc"] = json!("2.0");
        request["id"] = json!(7);
        let answer = ask(&mut handshaken(revision), &request);
        assert_eq!(answer["error"]["code"], code, "{label} {name}: {answer}");
        checked += 1;
    }
    // Per 2025-11-25 run: 12 tool calls, the tool listing, 4 prompts, 1 completion,
    // 3 resources; 2025-06-18 lacks the two elicitation scenarios and the listing.
    assert_eq!(checked, 18 + 21 + 21);
}

/// A 2025-06-18 or 2025-11-25 peer past its handshake.
fn handshaken(revision: Revision) -> Peer {
    let mut peer = Peer::new(Serve::Mcp(revision));
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": revision.name(), "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    assert_eq!(peer.handle(init.to_string().as_bytes()).len(), 1);
    assert!(peer
        .handle(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .is_empty());
    peer
}

/// The one answer of `peer` to `request`.
fn ask(peer: &mut Peer, request: &Value) -> Value {
    let answers = peer.handle(request.to_string().as_bytes());
    assert_eq!(answers.len(), 1, "{request}");
    serde_json::from_slice(&answers[0]).unwrap()
}

/// Every tool the peer lists, across pages (cursors are the peer's own, so one peer).
fn tool_names(revision: Revision) -> Vec<String> {
    let mut peer = handshaken(revision);
    let mut names = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let params = if cursor.is_null() {
            json!({})
        } else {
            json!({"cursor": cursor})
        };
        let page = ask(
            &mut peer,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}),
        );
        for tool in page["result"]["tools"].as_array().unwrap() {
            names.push(tool["name"].as_str().unwrap().to_owned());
        }
        cursor = page["result"]["nextCursor"].clone();
        if cursor.is_null() {
            return names;
        }
    }
}
