//! What a vector's `answer` promises, and whether a frame or a reply keeps it.
//!
//! Two questions, one description of a conforming answer: does the answer
//! suit the vector's own frame (a promise the vector makes about itself), and
//! does the reply a peer sent match it (the live question).

use harness::{Frame, Message};

use crate::vectors::Answer;

/// A frame as a reader knows it: its JSON text as lowered (never the IR's
/// own shape), the start of it when long.
fn describe(frame: &Frame<'_>) -> String {
    let text = harness::lower_to_vec(frame);
    crate::report::text::preview(&text, 160)
}

/// Every error code an answer names, batch members included.
#[must_use]
pub fn answer_codes(answer: &Answer) -> Vec<i64> {
    match answer {
        Answer::Error { codes, .. } => codes.clone(),
        Answer::Batch(items) | Answer::AnyOf(items) => {
            items.iter().flat_map(answer_codes).collect()
        }
        Answer::Nothing | Answer::Result { .. } | Answer::Stream { .. } => Vec::new(),
    }
}

/// The `id` an answer pins, as JSON text.
fn pinned(answer: &Answer) -> Option<&str> {
    match answer {
        Answer::Error { id, .. } | Answer::Result { id, .. } => id.as_deref(),
        Answer::Nothing | Answer::Batch(_) | Answer::AnyOf(_) | Answer::Stream { .. } => None,
    }
}

/// Whether a vector's answer suits its frame: nothing for notifications, a
/// response for each request, carrying the request's id when the answer pins
/// one (JSON-RPC 2.0 §4.1, §5, §6). Only a clean frame is answered per element.
///
/// # Errors
/// What does not fit, in words.
pub fn answer_fits(frame: &Frame<'_>, answer: &Answer) -> Result<(), String> {
    // Any of several answers suits the frame when one of them does.
    if let Answer::AnyOf(items) = answer {
        let errors: Vec<String> = items
            .iter()
            .filter_map(|a| answer_fits(frame, a).err())
            .collect();
        return if errors.len() < items.len() {
            Ok(())
        } else {
            Err(format!(
                "no alternative suits the frame: {}",
                errors.join("; ")
            ))
        };
    }
    fn one(m: &Message<'_>, answer: &Answer) -> Result<(), String> {
        match (m, answer) {
            (Message::Notification(_), Answer::Nothing) => Ok(()),
            (Message::Notification(_), a) => Err(format!("a notification is answered with {a:?}")),
            (Message::Request(_), Answer::Nothing | Answer::Batch(_)) => {
                Err("a request must be answered with one response".into())
            }
            // A stream (its response comes at teardown) and "any of" pin no id.
            (Message::Request(r), _) => match pinned(answer) {
                Some(id) if id != r.id.raw() => Err(format!(
                    "the answer carries id {id}, the request {}",
                    r.id.raw()
                )),
                _ => Ok(()),
            },
            _ => Err("only requests and notifications are answered".into()),
        }
    }
    match frame {
        Frame::Single(m) => one(m, answer),
        Frame::Batch(ms) => {
            let requests: Vec<_> = ms
                .iter()
                .filter(|m| matches!(m, Message::Request(_)))
                .collect();
            match answer {
                Answer::Nothing if requests.is_empty() => Ok(()),
                Answer::Batch(items) if items.len() == requests.len() => {
                    // Any order (JSON-RPC 2.0 §6); pair by pinned id.
                    for r in requests {
                        if !items.iter().any(|a| one(r, a).is_ok()) {
                            return Err(format!(
                                "no answer in the batch fits {}",
                                describe(&Frame::Single((*r).clone()))
                            ));
                        }
                    }
                    Ok(())
                }
                other => Err(format!(
                    "a batch with {} request(s) is answered with {other:?}",
                    requests.len()
                )),
            }
        }
    }
}

/// Whether the reply a peer sent (`None`: nothing came) is the answer the vector
/// describes: the kind of response, an acceptable error code, the pinned id,
/// the members `error.data` or `result` must carry; a batch answer in any order
/// (JSON-RPC 2.0 §6). The spec's `example` result is illustrative, not compared.
/// A stream answer needs the peer's own frames too: see [`observed_fits`].
///
/// # Errors
/// Each way the reply departs from the answer.
pub fn reply_fits(answer: &Answer, reply: Option<&Frame<'_>>) -> Result<(), Vec<String>> {
    observed_fits(answer, reply, &[])
}

/// [`reply_fits`], with the frames the peer sent of its own accord (`own`,
/// in arrival order): a stream answer is kept when the first of them is the
/// notification that opens the stream, with its `_meta` keys, and no response
/// came yet. `any_of` is kept when one alternative is.
///
/// # Errors
/// Each way the reply departs from the answer (for `any_of`, from every
/// alternative).
pub fn observed_fits(
    answer: &Answer,
    reply: Option<&Frame<'_>>,
    own: &[Frame<'_>],
) -> Result<(), Vec<String>> {
    let problems = match (answer, reply) {
        (Answer::AnyOf(items), _) => {
            // Alternatives nest (an answer widened to accept an echoed id
            // holds the original's own alternatives): each departure is
            // said once, under one heading.
            const NONE_FITS: &str = "fits none of the accepted answers: ";
            let mut all: Vec<String> = Vec::new();
            for item in items {
                match observed_fits(item, reply, own) {
                    Ok(()) => return Ok(()),
                    Err(p) => {
                        let joined = p.join(", ");
                        let inner = joined.strip_prefix(NONE_FITS).unwrap_or(&joined);
                        for part in inner.split(" | ") {
                            if !all.iter().any(|a| a == part) {
                                all.push(part.to_owned());
                            }
                        }
                    }
                }
            }
            match all.as_slice() {
                [one] => vec![one.clone()],
                _ => vec![format!("{NONE_FITS}{}", all.join(" | "))],
            }
        }
        (
            Answer::Stream {
                notification,
                meta_required,
            },
            None,
        ) => stream_fits(notification, meta_required, own),
        (Answer::Stream { notification, .. }, Some(f)) => vec![format!(
            "expected {notification} and the request kept open, got {}",
            describe(f)
        )],
        (Answer::Nothing, None) => Vec::new(),
        (Answer::Nothing, Some(f)) => vec![format!("expected no reply, got {}", describe(f))],
        (expected, None) => vec![format!("expected {}, got no reply", summary(expected))],
        (Answer::Batch(items), Some(Frame::Batch(ms))) => batch_fits(items, ms),
        (Answer::Batch(_), Some(Frame::Single(_))) => {
            vec!["expected a batch response, got a single response".into()]
        }
        (one, Some(Frame::Single(m))) => message_fits(one, m),
        (one, Some(Frame::Batch(_))) => {
            vec![format!("expected {}, got a batch", summary(one))]
        }
    };
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The first frame the peer sent of its own accord opens the stream
/// (2026-07-28 basic/patterns/subscriptions §Acknowledgment: the server "MUST
/// send `notifications/subscriptions/acknowledged` as the first message
/// carrying the subscription's ID in `_meta`").
fn stream_fits(notification: &str, meta_required: &[String], own: &[Frame<'_>]) -> Vec<String> {
    let Some(Frame::Single(Message::Notification(n))) = own.first() else {
        return vec![format!(
            "expected {notification} first, got {}",
            own.first().map_or_else(|| "nothing".to_owned(), describe)
        )];
    };
    if n.method.decoded() != notification {
        return vec![format!(
            "expected {notification} first, got {}",
            n.method.decoded()
        )];
    }
    let meta = n.params.as_ref().and_then(|p| p.get("_meta"));
    meta_required
        .iter()
        .filter(|k| meta.as_ref().and_then(|m| m.get(k)).is_none())
        .map(|k| format!("{notification} lacks `_meta` `{k}`"))
        .collect()
}

/// Pairs each expected answer with a distinct response that fits it.
fn batch_fits(items: &[Answer], ms: &[Message<'_>]) -> Vec<String> {
    if items.len() != ms.len() {
        return vec![format!(
            "expected {} responses in the batch, got {}",
            items.len(),
            ms.len()
        )];
    }
    let mut used = vec![false; ms.len()];
    let mut problems = Vec::new();
    for item in items {
        let found = ms
            .iter()
            .enumerate()
            .find(|(i, m)| !used[*i] && message_fits(item, m).is_empty());
        match found {
            Some((i, _)) => used[i] = true,
            None => problems.push(format!("no response in the batch is {}", summary(item))),
        }
    }
    problems
}

fn message_fits(answer: &Answer, m: &Message<'_>) -> Vec<String> {
    // Inside a batch an element's answer can itself be "any of" (a result or
    // an error for the element's id): it fits when one alternative does.
    if let Answer::AnyOf(items) = answer {
        return if items.iter().any(|item| message_fits(item, m).is_empty()) {
            Vec::new()
        } else {
            vec![format!("the response is not {}", summary(answer))]
        };
    }
    let mut problems = Vec::new();
    let id = m.id().map(|id| id.raw().to_owned());
    match (answer, m) {
        (
            Answer::Error {
                codes,
                data_required,
                ..
            },
            Message::Error(e),
        ) => {
            if !codes.is_empty() && !codes.contains(&e.error.code) {
                problems.push(format!(
                    "error code {}, expected one of {codes:?}",
                    e.error.code
                ));
            }
            for name in data_required {
                if e.error.data.as_ref().and_then(|d| d.get(name)).is_none() {
                    problems.push(format!("error.data lacks `{name}`"));
                }
            }
        }
        (Answer::Result { required, .. }, Message::Success(s)) => {
            for name in required {
                if s.result.get(name).is_none() {
                    problems.push(format!("result lacks `{name}`"));
                }
            }
        }
        (expected, other) => {
            let kind = other.kind().name();
            // "an error", "a result": the article the word takes.
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            problems.push(format!(
                "expected {}, got {article} {kind}",
                summary(expected)
            ));
            return problems;
        }
    }
    if let Some(want) = pinned(answer) {
        if id.as_deref() != Some(want) {
            problems.push(format!(
                "id {}, expected {want}",
                id.as_deref().unwrap_or("absent")
            ));
        }
    }
    problems
}

/// The answer in a few words, for messages.
fn summary(answer: &Answer) -> String {
    match answer {
        Answer::Nothing => "no reply".into(),
        Answer::Error { codes, .. } => format!("an error response ({codes:?})"),
        Answer::Result { .. } => "a result".into(),
        Answer::Batch(items) => format!("a batch of {} responses", items.len()),
        Answer::AnyOf(items) => {
            let each: Vec<String> = items.iter().map(summary).collect();
            format!("one of: {}", each.join(", "))
        }
        Answer::Stream { notification, .. } => format!("{notification}, the request kept open"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::lift;

    fn error(codes: &[i64], id: Option<&str>) -> Answer {
        Answer::Error {
            codes: codes.to_vec(),
            id: id.map(str::to_owned),
            data_required: vec!["supported".into()],
        }
    }

    #[test]
    fn a_reply_fits_when_kind_code_id_and_data_match() {
        let good = lift(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"supported":[]}}}"#).unwrap();
        assert_eq!(
            reply_fits(&error(&[-32022], Some("1")), Some(&good)),
            Ok(())
        );
        let problems = reply_fits(&error(&[-32602], Some("2")), Some(&good)).unwrap_err();
        assert_eq!(
            problems,
            [
                "error code -32022, expected one of [-32602]",
                "id 1, expected 2"
            ]
        );
        let bare =
            lift(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m"}}"#).unwrap();
        assert_eq!(
            reply_fits(&error(&[-32022], None), Some(&bare)).unwrap_err(),
            ["error.data lacks `supported`"]
        );
        let result = lift(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap();
        let why = reply_fits(&error(&[-32022], None), Some(&result)).unwrap_err();
        assert!(why[0].starts_with("expected an error response"), "{why:?}");
    }

    #[test]
    fn silence_fits_only_an_answer_of_nothing() {
        assert_eq!(reply_fits(&Answer::Nothing, None), Ok(()));
        assert_eq!(
            reply_fits(&error(&[-32601], None), None).unwrap_err(),
            ["expected an error response ([-32601]), got no reply"]
        );
    }

    #[test]
    fn batch_answers_pair_in_any_order() {
        let answer = Answer::Batch(vec![
            Answer::Result {
                id: Some("1".into()),
                required: vec![],
                example: None,
            },
            Answer::Error {
                codes: vec![-32601],
                id: Some("2".into()),
                data_required: vec![],
            },
        ]);
        let reply = lift(br#"[{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"m"}},{"jsonrpc":"2.0","id":1,"result":{}}]"#).unwrap();
        assert_eq!(reply_fits(&answer, Some(&reply)), Ok(()));
        let short = lift(br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#).unwrap();
        assert_eq!(
            reply_fits(&answer, Some(&short)).unwrap_err(),
            ["expected 2 responses in the batch, got 1"]
        );
    }
}
