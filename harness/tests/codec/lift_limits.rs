//! `lift`'s bounds and its duplicate check, at their edges: a frame of exactly
//! `Limits::max_frame_bytes` bytes, or nesting exactly `Limits::max_depth` levels
//! (the frame itself is level 1), is read, and one byte or one level more is
//! refused with the rule that says so; a repeated member name is refused
//! wherever in an object it stands (RFC 8259 §4 "names within an object SHOULD be
//! unique"; the codec refuses rather than pick one: `harness::Rule::DuplicateMember`).

use harness::{lift_batch_elements_with, lift_with, Limits, Rule};

fn depth(max_depth: usize) -> Limits {
    Limits {
        max_depth,
        ..Limits::default()
    }
}

fn refusal(frame: &[u8], limits: &Limits) -> Option<Rule> {
    lift_with(frame, limits).err().map(|r| r.rule())
}

#[test]
fn a_frame_of_exactly_the_size_bound_is_read_and_one_byte_more_is_refused() {
    let frame = br#"{"jsonrpc":"2.0","method":"ping"}"#;
    let at = Limits {
        max_frame_bytes: frame.len(),
        ..Limits::default()
    };
    let under = Limits {
        max_frame_bytes: frame.len() - 1,
        ..Limits::default()
    };
    assert!(lift_with(frame, &at).is_ok());
    assert_eq!(
        lift_with(frame, &under).unwrap_err().rule(),
        Rule::JsonFrameTooLarge
    );
    let batch = br#"[{"jsonrpc":"2.0","method":"ping"}]"#;
    let at = Limits {
        max_frame_bytes: batch.len(),
        ..Limits::default()
    };
    let under = Limits {
        max_frame_bytes: batch.len() - 1,
        ..Limits::default()
    };
    assert_eq!(lift_batch_elements_with(batch, &at).unwrap().len(), 1);
    assert_eq!(
        lift_batch_elements_with(batch, &under).unwrap_err().rule(),
        Rule::JsonFrameTooLarge
    );
}

#[test]
fn an_envelope_and_its_error_object_count_as_nesting_levels() {
    let ping = br#"{"jsonrpc":"2.0","method":"ping"}"#;
    assert_eq!(refusal(ping, &depth(1)), None, "the frame is level 1");
    assert_eq!(refusal(ping, &depth(0)), Some(Rule::JsonDepthLimit));
    let error = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#;
    assert_eq!(
        refusal(error, &depth(2)),
        None,
        "the error object is level 2"
    );
    assert_eq!(refusal(error, &depth(1)), Some(Rule::JsonDepthLimit));
}

#[test]
fn params_nesting_is_read_up_to_the_depth_bound() {
    // params {} is level 2, each {"a": …} inside one more.
    for levels in 2..6 {
        let inner = format!(
            "{}{{}}{}",
            r#"{"a":"#.repeat(levels - 2),
            "}".repeat(levels - 2)
        );
        let frame = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{inner}}}"#);
        assert_eq!(
            refusal(frame.as_bytes(), &depth(levels)),
            None,
            "{levels} levels under a bound of {levels}"
        );
        assert_eq!(
            refusal(frame.as_bytes(), &depth(levels - 1)),
            Some(Rule::JsonDepthLimit),
            "{levels} levels under a bound of {}",
            levels - 1
        );
    }
}

#[test]
fn a_repeated_unmodelled_member_is_refused_wherever_it_stands() {
    // Small objects are searched linearly and large ones through an index built
    // when they grow past a handful of members: a repeat must be found on either
    // side of that switch and across it.
    for before in 0..24 {
        for between in [0, 1, 5, 17] {
            let mut members = vec![
                r#""jsonrpc":"2.0""#.to_owned(),
                r#""method":"m""#.to_owned(),
            ];
            members.extend((0..before).map(|i| format!(r#""e{i}":0"#)));
            members.push(r#""k":1"#.to_owned());
            members.extend((0..between).map(|i| format!(r#""f{i}":0"#)));
            members.push(r#""k":2"#.to_owned());
            let frame = format!("{{{}}}", members.join(","));
            assert_eq!(
                refusal(frame.as_bytes(), &Limits::default()),
                Some(Rule::DuplicateMember),
                "`k` repeated after {before} extras, {between} members apart"
            );
        }
    }
}

/// A frame nested past the bound is refused at the bracket that opens the
/// level too many (its column, 1-based), inside `params` and in a batch.
#[test]
fn a_depth_refusal_points_at_the_bracket_one_level_too_deep() {
    let frame = br#"{"jsonrpc":"2.0","method":"m","params":{"a":[{"b":1}]}}"#;
    let too_deep = frame.iter().rposition(|&b| b == b'{').unwrap();
    let r = lift_with(frame, &depth(3)).expect_err("four levels");
    assert_eq!(r.rule(), Rule::JsonDepthLimit);
    assert_eq!(r.column(), too_deep + 1, "{r}");
    let array = frame.iter().position(|&b| b == b'[').unwrap();
    let r = lift_with(frame, &depth(2)).expect_err("three levels");
    assert_eq!(r.column(), array + 1, "{r}");
}
