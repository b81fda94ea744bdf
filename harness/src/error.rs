//! Refusals: why a frame is not a JSON-RPC 2.0 message, named by the rule broken
//! and placed by a JSON Pointer and a line and column.
//!
//! Two classes are kept apart, as JSON-RPC 2.0 §5.1 keeps them: text that is not
//! JSON at all (-32700, Parse error) and JSON that is not a valid message (-32600,
//! Invalid Request). Breaches of an MCP revision's rules are not refusals: the
//! codec lifts those frames, and the rule model reports them as violations.

use std::fmt;

use crate::scan::{line_column, SyntaxError, SyntaxKind};

/// The rule a refused frame broke. Each has a stable id (`json.syntax`,
/// `jsonrpc.id-type`, …) that reports and tests name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// The frame is not valid UTF-8 (RFC 8259 §8.1: JSON text MUST be UTF-8).
    JsonUtf8,
    /// The frame is not JSON text (RFC 8259 §2–§7).
    JsonSyntax,
    /// The frame nests deeper than [`crate::scan::Limits::max_depth`] (RFC 8259 §9).
    JsonDepthLimit,
    /// The frame is longer than [`crate::scan::Limits::max_frame_bytes`] (RFC 8259 §9).
    JsonFrameTooLarge,
    /// The frame (or a batch element) is not an object (JSON-RPC 2.0 §4, §6).
    FrameType,
    /// A batch with no element (JSON-RPC 2.0 §6: an empty array is an Invalid Request).
    BatchEmpty,
    /// An envelope or `error` member appears twice: peers disagree on which wins.
    DuplicateMember,
    /// No `jsonrpc` member (JSON-RPC 2.0 §4, §5: REQUIRED).
    VersionMissing,
    /// `jsonrpc` is not exactly the string `"2.0"` (§4: MUST be exactly "2.0").
    VersionInvalid,
    /// `method` is not a string (§4).
    MethodType,
    /// `id` is not a string, a number or null (§4).
    IdType,
    /// `params` is neither an array nor an object (§4.2: MUST be).
    ParamsType,
    /// Both `result` and `error` (§5: either MUST NOT exist if the other does).
    ResultAndError,
    /// `method` together with `result` or `error`: neither a request nor a response.
    MethodWithResponse,
    /// None of `method`, `result`, `error`: not a message of any kind.
    KindMissing,
    /// A success response with no `id` (§5: REQUIRED).
    ResponseIdMissing,
    /// `error` is not an object (§5.1).
    ErrorType,
    /// `error.code` is missing or not an integer that fits in 64 bits (§5.1).
    ErrorCode,
    /// `error.message` is missing or not a string (§5.1).
    ErrorMessage,
}

// A codec rule's facts (`Rule::ALL`, `code`, `id`, `spec`, `from_id`) are
// generated with the rule table (`rules/catalogue.rs`), where each rule's id,
// citation, quote and code sit in one row: the codec names its rules here and
// imports nothing from the rule model above it; a variant added here without
// its row does not compile.
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Why [`crate::lift`] refused a frame. Small (one pointer) so `Result`s stay cheap.
#[derive(Clone, PartialEq, Eq)]
pub struct Refusal(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    rule: Rule,
    pointer: String,
    offset: usize,
    line: usize,
    column: usize,
    message: String,
}

impl Refusal {
    pub(crate) fn new(
        frame: &[u8],
        rule: Rule,
        pointer: String,
        offset: usize,
        message: String,
    ) -> Self {
        let (line, column) = line_column(frame, offset);
        Self(Box::new(Inner {
            rule,
            pointer,
            offset,
            line,
            column,
            message,
        }))
    }

    pub(crate) fn syntax(frame: &[u8], e: SyntaxError) -> Self {
        let rule = if e.kind == SyntaxKind::DepthLimit {
            Rule::JsonDepthLimit
        } else {
            Rule::JsonSyntax
        };
        Self::new(frame, rule, String::new(), e.offset, e.kind.describe())
    }

    /// The rule broken.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.0.rule
    }

    /// The JSON-RPC error code: -32700 or -32600.
    #[must_use]
    pub fn code(&self) -> i64 {
        self.0.rule.code()
    }

    /// The JSON Pointer (RFC 6901) of the offending member: `/id`, `/error/code`,
    /// `/2` for a batch's third element; empty for the whole frame and for text
    /// that is not JSON (where [`Refusal::line`] and [`Refusal::column`] place it).
    #[must_use]
    pub fn pointer(&self) -> &str {
        &self.0.pointer
    }

    /// The byte offset in the frame where the fault was found.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The 1-based line of [`Refusal::offset`].
    #[must_use]
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The 1-based column of [`Refusal::offset`], in characters.
    #[must_use]
    pub fn column(&self) -> usize {
        self.0.column
    }

    /// What was found, in words, without the rule or the position.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let class = if self.code() == crate::codes::PARSE_ERROR {
            "parse error"
        } else {
            "invalid request"
        };
        write!(f, "{class} ({}) [{}", self.code(), self.rule())?;
        if !self.pointer().is_empty() {
            write!(f, " at {}", self.pointer())?;
        }
        write!(
            f,
            "]: {} (line {}, column {}; {})",
            self.message(),
            self.line(),
            self.column(),
            self.rule().spec()
        )
    }
}

impl fmt::Debug for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Refusal {}

/// Appends one reference token to a JSON Pointer, escaping `~` and `/` (RFC 6901 §3).
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}
