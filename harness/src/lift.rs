//! `lift`: one wire frame into the IR, or a [`Refusal`] naming the rule broken.
//!
//! One pass over the bytes: UTF-8 is checked once, the envelope's members are
//! located by the scanner, and every value is kept as the slice it came as. Only
//! the envelope and the `error` object are looked into; everything below them is
//! validated as JSON and kept whole.

use std::borrow::Cow;

use crate::error::{push_token, Refusal, Rule};
use crate::ir::{
    ErrorObject, ErrorResponse, Field, Frame, Id, JsonStr, Layout, Message, Notification, Raw,
    Request, Slot, SlotValue, Success, ValueKind,
};
use crate::scan::Limits;
use crate::scan::{Scanner, SyntaxError};

/// Lifts one frame under the default [`Limits`].
pub fn lift(frame: &[u8]) -> Result<Frame<'_>, Refusal> {
    lift_with(frame, &Limits::default())
}

/// Lifts one frame: a single message or a batch, surrounded by any whitespace.
///
/// Text that is not JSON is refused with -32700 even when an earlier part of it
/// would also be an invalid message: a peer must parse before it can judge, and a
/// -32600 is only ever given to valid JSON.
pub fn lift_with<'a>(frame: &'a [u8], limits: &Limits) -> Result<Frame<'a>, Refusal> {
    if frame.len() > limits.max_frame_bytes {
        return Err(Refusal::new(
            frame,
            Rule::JsonFrameTooLarge,
            String::new(),
            limits.max_frame_bytes,
            format!(
                "frame of {} bytes exceeds the limit of {} bytes",
                frame.len(),
                limits.max_frame_bytes
            ),
        ));
    }
    let text = match utf8(frame) {
        Ok(text) => text,
        Err(e) => {
            return Err(Refusal::new(
                frame,
                Rule::JsonUtf8,
                String::new(),
                e.valid_up_to(),
                "invalid UTF-8".to_owned(),
            ))
        }
    };
    let mut lifter = Lifter {
        text,
        scanner: Scanner::new(text, limits.max_depth),
    };
    match lifter.frame() {
        Ok(frame) => Ok(frame),
        Err(Failure::Syntax(e)) => Err(Refusal::syntax(frame, e)),
        Err(Failure::Invalid(refusal)) => {
            // Only valid JSON earns a -32600: re-scan the whole frame for syntax.
            let mut scanner = Scanner::new(text, limits.max_depth);
            scanner.skip_ws();
            match scanner.value(0).and_then(|_| scanner.finish()) {
                Ok(()) => Err(refusal),
                Err(e) => Err(Refusal::syntax(frame, e)),
            }
        }
    }
}

/// Lifts a batch element by element, as a server must answer one
/// ([JSON-RPC 2.0 §6](https://www.jsonrpc.org/specification#batch): "The Server
/// should respond with an Array containing the corresponding Response objects";
/// the §7 example answers an invalid element with its own Invalid Request and
/// the valid ones normally).
///
/// [`lift`] refuses a whole batch when one element is invalid, which is right for
/// judging a frame but not for serving it. Here the frame must still be JSON
/// (else the one -32700 refusal, §7 "invalid JSON" batch) and a non-empty array
/// (else the one -32600: an empty array, or a frame that is not an array, is
/// not a batch); each element is then lifted on its own, and an element's
/// refusal carries its own pointer (`/3`, `/3/jsonrpc`) and place in the frame.
pub fn lift_batch_elements(frame: &[u8]) -> Result<Vec<Result<Message<'_>, Refusal>>, Refusal> {
    lift_batch_elements_with(frame, &Limits::default())
}

/// [`lift_batch_elements`] under explicit [`Limits`].
pub fn lift_batch_elements_with<'a>(
    frame: &'a [u8],
    limits: &Limits,
) -> Result<Vec<Result<Message<'a>, Refusal>>, Refusal> {
    if frame.len() > limits.max_frame_bytes {
        return Err(Refusal::new(
            frame,
            Rule::JsonFrameTooLarge,
            String::new(),
            limits.max_frame_bytes,
            format!(
                "frame of {} bytes exceeds the limit of {} bytes",
                frame.len(),
                limits.max_frame_bytes
            ),
        ));
    }
    let text = utf8(frame).map_err(|e| {
        Refusal::new(
            frame,
            Rule::JsonUtf8,
            String::new(),
            e.valid_up_to(),
            "invalid UTF-8".to_owned(),
        )
    })?;
    // Syntax first, for the whole frame: only valid JSON earns a -32600, and a
    // batch that is not JSON gets one -32700 (JSON-RPC 2.0 §7).
    let mut check = Scanner::new(text, limits.max_depth);
    check.skip_ws();
    check
        .value(0)
        .and_then(|_| check.finish())
        .map_err(|e| Refusal::syntax(frame, e))?;
    let mut lifter = Lifter {
        text,
        scanner: Scanner::new(text, limits.max_depth),
    };
    lifter.scanner.skip_ws();
    let open = lifter.scanner.pos;
    if lifter.scanner.peek() != Some(b'[') {
        return Err(Refusal::new(
            frame,
            Rule::FrameType,
            String::new(),
            open,
            "not a batch: a batch is an array of objects".to_owned(),
        ));
    }
    lifter.scanner.pos += 1;
    lifter.scanner.skip_ws();
    if lifter.scanner.peek() == Some(b']') {
        return Err(Refusal::new(
            frame,
            Rule::BatchEmpty,
            String::new(),
            open,
            "an empty batch is not a valid request".to_owned(),
        ));
    }
    let mut elements = Vec::new();
    loop {
        lifter.scanner.skip_ws();
        let start = lifter.scanner.pos;
        let index = elements.len();
        // The frame is valid JSON, so the element's extent is known whatever
        // becomes of lifting it; the cursor goes there next.
        let (_, end) = lifter
            .scanner
            .value(1)
            .map_err(|e| Refusal::syntax(frame, e))?;
        lifter.scanner.pos = start;
        let element = if lifter.scanner.peek() == Some(b'{') {
            match lifter.message(1, Some(index), |message| message) {
                Ok(message) => Ok(message),
                Err(Failure::Invalid(refusal)) => Err(refusal),
                Err(Failure::Syntax(e)) => Err(Refusal::syntax(frame, e)),
            }
        } else {
            let kind = ValueKind::of_first_byte(text.as_bytes()[start]);
            let mut pointer = String::new();
            push_token(&mut pointer, &index.to_string());
            Err(Refusal::new(
                frame,
                Rule::FrameType,
                pointer,
                start,
                format!("a batch element must be an object; found {}", kind.name()),
            ))
        };
        elements.push(element);
        lifter.scanner.pos = end;
        lifter.scanner.skip_ws();
        match lifter.scanner.peek() {
            Some(b',') => lifter.scanner.pos += 1,
            _ => return Ok(elements),
        }
    }
}

/// Checks UTF-8 (RFC 8259 §8.1) once for the whole frame. `simdutf8` picks AVX2
/// or SSE4.2 at run time and checks ASCII several times faster than
/// `str::from_utf8`, which matters on megabyte frames (a base64 blob is nothing but
/// ASCII); only on failure is the text checked again by `std`, for the offset.
fn utf8(frame: &[u8]) -> Result<&str, std::str::Utf8Error> {
    // Below a few SIMD registers' worth, simdutf8's CPU dispatch costs more
    // than it saves (callgrind: ~100 instructions on a 40-byte ping).
    if frame.len() < 128 {
        return std::str::from_utf8(frame);
    }
    match simdutf8::basic::from_utf8(frame) {
        Ok(text) => Ok(text),
        Err(_) => std::str::from_utf8(frame),
    }
}

enum Failure {
    Syntax(SyntaxError),
    Invalid(Refusal),
}

impl From<SyntaxError> for Failure {
    fn from(e: SyntaxError) -> Self {
        Failure::Syntax(e)
    }
}

struct Lifter<'a> {
    text: &'a str,
    scanner: Scanner<'a>,
}

/// A member's value and where it starts, before it is judged.
#[derive(Clone, Copy)]
struct Located<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> Located<'a> {
    fn kind(self) -> ValueKind {
        ValueKind::of_first_byte(self.text.as_bytes()[0])
    }
}

/// How many [`Field`]s there are: the size of [`Object::fields`].
const FIELDS: usize = 9;

/// An object's members as scanned: the slots in wire order, and each modelled
/// field's value by `Field as usize`, so no lookup walks the slots.
#[derive(Default)]
struct Object<'a> {
    slots: Vec<Slot<'a>>,
    fields: [Option<Located<'a>>; FIELDS],
}

impl<'a> Object<'a> {
    fn get(&self, field: Field) -> Option<Located<'a>> {
        self.fields[field as usize]
    }
}

impl<'a> Lifter<'a> {
    fn invalid<T>(
        &self,
        rule: Rule,
        pointer: String,
        offset: usize,
        message: String,
    ) -> Result<T, Failure> {
        Err(Failure::Invalid(Refusal::new(
            self.text.as_bytes(),
            rule,
            pointer,
            offset,
            message,
        )))
    }

    fn frame(&mut self) -> Result<Frame<'a>, Failure> {
        self.scanner.skip_ws();
        let frame = match self.scanner.peek() {
            // Returned as is (`message` checks the end of input itself): moving
            // the ~200-byte frame out of a `Result` and back was a tenth of a
            // ping's lift (perf annotate).
            Some(b'{') => return self.message(0, None, Frame::Single),
            Some(b'[') => self.batch()?,
            _ => {
                let start = self.scanner.pos;
                let (s, _) = self.scanner.value(0)?;
                self.scanner.finish()?;
                let kind = ValueKind::of_first_byte(self.text.as_bytes()[s]);
                return self.invalid(
                    Rule::FrameType,
                    String::new(),
                    start,
                    format!(
                        "a frame must be an object or an array of objects; found {}",
                        kind.name()
                    ),
                );
            }
        };
        self.scanner.finish()?;
        Ok(frame)
    }

    fn batch(&mut self) -> Result<Frame<'a>, Failure> {
        let open = self.scanner.pos;
        self.scanner.eat(b'[')?;
        self.scanner.skip_ws();
        if self.scanner.peek() == Some(b']') {
            self.scanner.pos += 1;
            self.scanner.finish()?;
            return self.invalid(
                Rule::BatchEmpty,
                String::new(),
                open,
                "an empty batch is not a valid request".to_owned(),
            );
        }
        let mut messages = Vec::new();
        loop {
            self.scanner.skip_ws();
            if self.scanner.peek() == Some(b'{') {
                let index = Some(messages.len());
                self.message(1, index, |message| messages.push(message))?;
            } else {
                let start = self.scanner.pos;
                let (s, _) = self.scanner.value(1)?;
                let kind = ValueKind::of_first_byte(self.text.as_bytes()[s]);
                let mut pointer = String::new();
                push_token(&mut pointer, &messages.len().to_string());
                return self.invalid(
                    Rule::FrameType,
                    pointer,
                    start,
                    format!("a batch element must be an object; found {}", kind.name()),
                );
            }
            self.scanner.skip_ws();
            match self.scanner.peek() {
                Some(b',') => self.scanner.pos += 1,
                _ => {
                    self.scanner.eat(b']')?;
                    return Ok(Frame::Batch(messages));
                }
            }
        }
    }

    /// Scans an object at nesting `depth` (0 for the frame) into `object` (empty
    /// on entry), refusing duplicate names. `modelled` says which names are
    /// modelled; `at` makes the object's JSON Pointer, only when a refusal needs
    /// it. `object` is the caller's, not a return value: it is a few hundred
    /// bytes, and moving it out cost a `memmove` per message (perf, on a batch).
    fn object(
        &mut self,
        object: &mut Object<'a>,
        depth: usize,
        at: &dyn Fn() -> String,
        modelled: fn(&str) -> Option<Field>,
    ) -> Result<(), Failure> {
        let s = &mut self.scanner;
        let open = s.pos;
        s.eat(b'{')?;
        if depth + 1 > s.max_depth() {
            s.pos = open;
            return Err(Failure::Syntax(SyntaxError {
                kind: crate::scan::SyntaxKind::DepthLimit,
                offset: open,
            }));
        }
        object.slots.reserve(6);
        let mut index: Option<std::collections::HashSet<Vec<u16>>> = None;
        s.skip_ws();
        if s.peek() == Some(b'}') {
            s.pos += 1;
            return Ok(());
        }
        loop {
            let s = &mut self.scanner;
            s.skip_ws();
            if s.peek() != Some(b'"') {
                s.eat(b'"')?;
            }
            let key = s.string()?;
            s.skip_ws();
            s.eat(b':')?;
            s.skip_ws();
            let (start, end) = s.value(depth + 1)?;
            let key_token = JsonStr(Cow::Borrowed(&self.text[key.start..key.end]));
            let value = Located {
                text: &self.text[start..end],
                offset: start,
            };
            // Names without escapes (nearly all) are their own decoded value.
            let field = if key.escaped {
                modelled(&key_token.decoded())
            } else {
                modelled(&self.text[key.start + 1..key.end - 1])
            };
            // A duplicate of a modelled name is the same field, however it is
            // spelled; an extra can only duplicate another extra. Linear below a
            // handful of extras (the common case); hashed above, so an object
            // with 100,000 members costs no more than it should.
            let duplicate = match field {
                Some(f) => object.fields[f as usize].is_some(),
                None if object.slots.len() < 16 => object.slots.iter().any(|slot| {
                    matches!(slot.value, SlotValue::Extra(_)) && slot.key.same_value(&key_token)
                }),
                None => {
                    let index = index.get_or_insert_with(|| {
                        object
                            .slots
                            .iter()
                            .filter(|slot| matches!(slot.value, SlotValue::Extra(_)))
                            .map(|slot| slot.key.units())
                            .collect()
                    });
                    !index.insert(key_token.units())
                }
            };
            if duplicate {
                let mut pointer = at();
                push_token(&mut pointer, &key_token.decoded());
                return self.invalid(
                    Rule::DuplicateMember,
                    pointer,
                    key.start,
                    format!("member {} appears more than once", key_token.raw()),
                );
            }
            let slot_value = match field {
                Some(f) => {
                    object.fields[f as usize] = Some(value);
                    SlotValue::Field(f)
                }
                None => SlotValue::Extra(Raw::trusted(value.text)),
            };
            object.slots.push(Slot {
                key: key_token,
                value: slot_value,
            });
            let s = &mut self.scanner;
            s.skip_ws();
            match s.peek() {
                Some(b',') => s.pos += 1,
                _ => {
                    s.eat(b'}')?;
                    return Ok(());
                }
            }
        }
    }

    /// Lifts the message object at the cursor: the frame (`index` `None`) or
    /// element `index` of a batch.
    ///
    /// The message is handed to `emit` rather than returned: a batch pushes it
    /// straight into its `Vec`, sparing a move of the ~200-byte `Message`
    /// through a `Result` per element (perf showed those `memmove`s).
    fn message<T>(
        &mut self,
        depth: usize,
        index: Option<usize>,
        emit: impl FnOnce(Message<'a>) -> T,
    ) -> Result<T, Failure> {
        // The message's JSON Pointer is only built for a refusal: a batch of
        // small messages must not pay an allocation per element for it.
        let at = || {
            let mut pointer = String::new();
            if let Some(i) = index {
                push_token(&mut pointer, &i.to_string());
            }
            pointer
        };
        let open = self.scanner.pos;
        let mut members = Object::default();
        self.object(&mut members, depth, &at, Field::envelope)?;
        if depth == 0 {
            // The frame itself: only whitespace may follow it.
            self.scanner.finish()?;
        }
        let pointer = |field: Field| format!("{}/{}", at(), field.name());
        let (jsonrpc, id, method, params, result, error) = (
            members.get(Field::Jsonrpc),
            members.get(Field::Id),
            members.get(Field::Method),
            members.get(Field::Params),
            members.get(Field::Result),
            members.get(Field::Error),
        );

        // The version first: without it nothing else is JSON-RPC 2.0.
        let Some(jsonrpc) = jsonrpc else {
            return self.invalid(
                Rule::VersionMissing,
                at(),
                open,
                "member \"jsonrpc\" is missing; it must be exactly \"2.0\"".to_owned(),
            );
        };
        let jsonrpc_token = JsonStr(Cow::Borrowed(jsonrpc.text));
        // Nearly every peer writes the version plainly: compare the token before
        // decoding it.
        if jsonrpc.text != "\"2.0\""
            && (jsonrpc.kind() != ValueKind::String || jsonrpc_token.decoded() != "2.0")
        {
            return self.invalid(
                Rule::VersionInvalid,
                pointer(Field::Jsonrpc),
                jsonrpc.offset,
                format!(
                    "\"jsonrpc\" must be exactly \"2.0\"; found {}",
                    jsonrpc.text
                ),
            );
        }

        // Then what kind of message this is.
        match (method, result, error) {
            (Some(_), Some(r), _) | (Some(_), None, Some(r)) => {
                let field = if result.is_some() {
                    Field::Result
                } else {
                    Field::Error
                };
                return self.invalid(
                    Rule::MethodWithResponse,
                    pointer(field),
                    r.offset,
                    format!(
                        "a message with \"method\" is a request and must not carry \"{}\"",
                        field.name()
                    ),
                );
            }
            (None, Some(_), Some(e)) => {
                return self.invalid(
                    Rule::ResultAndError,
                    pointer(Field::Error),
                    e.offset,
                    "a response must carry \"result\" or \"error\", not both".to_owned(),
                );
            }
            (None, None, None) => {
                return self.invalid(
                    Rule::KindMissing,
                    at(),
                    open,
                    "none of \"method\", \"result\" or \"error\": not a request or a response"
                        .to_owned(),
                );
            }
            _ => {}
        }

        let id = match id {
            None => None,
            Some(v) => Some(match v.kind() {
                ValueKind::String => Id::String(JsonStr(Cow::Borrowed(v.text))),
                ValueKind::Number => Id::Number(Cow::Borrowed(v.text)),
                ValueKind::Null => Id::Null,
                other => {
                    return self.invalid(
                        Rule::IdType,
                        pointer(Field::Id),
                        v.offset,
                        format!(
                            "\"id\" must be a string, a number or null; found {}",
                            other.name()
                        ),
                    )
                }
            }),
        };
        // `params` is modelled on requests and notifications only; on a response
        // no field holds it, and `lower` would drop it. Keep it as an extra member
        // (found by fuzzing: corpus/regressions/roundtrip_bytes/lossless-params-on-response-dropped.json).
        let mut slots = members.slots;
        if let (None, Some(params)) = (method, params) {
            for slot in &mut slots {
                if matches!(slot.value, SlotValue::Field(Field::Params)) {
                    slot.value = SlotValue::Extra(Raw::trusted(params.text));
                }
            }
        }
        let layout = Layout {
            jsonrpc: Some(jsonrpc_token),
            slots,
        };

        if let Some(method) = method {
            if method.kind() != ValueKind::String {
                return self.invalid(
                    Rule::MethodType,
                    pointer(Field::Method),
                    method.offset,
                    format!(
                        "\"method\" must be a string; found {}",
                        method.kind().name()
                    ),
                );
            }
            let params = match params {
                None => None,
                Some(p) if matches!(p.kind(), ValueKind::Object | ValueKind::Array) => {
                    Some(Raw::trusted(p.text))
                }
                Some(p) => {
                    return self.invalid(
                        Rule::ParamsType,
                        pointer(Field::Params),
                        p.offset,
                        format!(
                            "\"params\" must be an array or an object; found {}",
                            p.kind().name()
                        ),
                    )
                }
            };
            let method = JsonStr(Cow::Borrowed(method.text));
            return Ok(emit(match id {
                Some(id) => Message::Request(Request {
                    id,
                    method,
                    params,
                    layout,
                }),
                None => Message::Notification(Notification {
                    method,
                    params,
                    layout,
                }),
            }));
        }

        if let Some(result) = result {
            let Some(id) = id else {
                return self.invalid(
                    Rule::ResponseIdMissing,
                    at(),
                    open,
                    "a success response must carry the \"id\" of the request it answers".to_owned(),
                );
            };
            return Ok(emit(Message::Success(Success {
                id,
                result: Raw::trusted(result.text),
                layout,
            })));
        }

        let error = error.expect("kind checked above: error is present");
        let error = self.error_object(error, &pointer(Field::Error))?;
        Ok(emit(Message::Error(ErrorResponse { id, error, layout })))
    }

    fn error_object(&mut self, error: Located<'a>, at: &str) -> Result<ErrorObject<'a>, Failure> {
        if error.kind() != ValueKind::Object {
            return self.invalid(
                Rule::ErrorType,
                at.to_owned(),
                error.offset,
                format!("\"error\" must be an object; found {}", error.kind().name()),
            );
        }
        // Re-scan the error object's slice: it is small, already valid JSON, and
        // this keeps the envelope pass free of a special case.
        let saved = self.scanner.pos;
        self.scanner.pos = error.offset;
        let mut members = Object::default();
        let scanned = self.object(&mut members, 0, &|| at.to_owned(), Field::error_member);
        self.scanner.pos = saved;
        scanned?;
        let find = |field: Field| members.get(field);
        let code = match find(Field::Code) {
            None => {
                return self.invalid(
                    Rule::ErrorCode,
                    format!("{at}/code"),
                    error.offset,
                    "\"error.code\" is missing; it must be an integer".to_owned(),
                )
            }
            Some(c) => match integer(c.text) {
                Some(code) => (c.text, code),
                None => {
                    return self.invalid(
                        Rule::ErrorCode,
                        format!("{at}/code"),
                        c.offset,
                        format!(
                            "\"error.code\" must be an integer that fits in 64 bits; found {}",
                            c.text
                        ),
                    )
                }
            },
        };
        let message = match find(Field::Message) {
            Some(m) if m.kind() == ValueKind::String => JsonStr(Cow::Borrowed(m.text)),
            Some(m) => {
                return self.invalid(
                    Rule::ErrorMessage,
                    format!("{at}/message"),
                    m.offset,
                    format!(
                        "\"error.message\" must be a string; found {}",
                        m.kind().name()
                    ),
                )
            }
            None => {
                return self.invalid(
                    Rule::ErrorMessage,
                    format!("{at}/message"),
                    error.offset,
                    "\"error.message\" is missing; it must be a string".to_owned(),
                )
            }
        };
        Ok(ErrorObject {
            code_text: Cow::Borrowed(code.0),
            code: code.1,
            message,
            data: find(Field::Data).map(|d| Raw::trusted(d.text)),
            layout: Layout {
                jsonrpc: None,
                slots: members.slots,
            },
        })
    }
}

/// The value of a number written in integer syntax (no fraction, no exponent)
/// that fits an `i64`. JSON-RPC 2.0 §5.1 says the code "MUST be an integer"; a
/// spelling such as `-32600.0` or `-3.26e4` is refused rather than guessed at.
fn integer(text: &str) -> Option<i64> {
    if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return None;
    }
    text.parse().ok()
}
