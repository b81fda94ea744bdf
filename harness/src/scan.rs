//! A validating JSON scanner that reports spans, never values.
//!
//! The codec keeps every member as the exact slice of input it came from, so the
//! scanner's job is only to check RFC 8259 grammar and say where each token ends.
//! It never builds a tree and never recurses: nesting is tracked on an explicit bit
//! stack, so a 10,000-deep array is refused by [`Limits::max_depth`], not by a stack
//! overflow.
//!
//! Input is UTF-8-validated once, up front, by the caller (`str::from_utf8` has an
//! ASCII fast path); the scanner then only looks at bytes, and string bodies are
//! skipped eight bytes at a time.

/// Bounds on what [`crate::lift_with`] accepts, so a hostile peer cannot make the
/// codec spend unbounded memory or time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The deepest nesting of arrays and objects accepted, counting the frame itself
    /// as depth 1. RFC 8259 §9 lets an implementation limit nesting depth.
    pub max_depth: usize,
    /// The largest frame accepted, in bytes.
    pub max_frame_bytes: usize,
}

impl Limits {
    /// The default nesting bound: deep enough for any JSON Schema seen in MCP
    /// tool definitions, shallow enough to refuse nesting bombs quickly.
    pub const DEFAULT_MAX_DEPTH: usize = 512;
    /// The default frame bound: 64 MiB.
    pub const DEFAULT_MAX_FRAME_BYTES: usize = 64 << 20;
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_frame_bytes: Self::DEFAULT_MAX_FRAME_BYTES,
        }
    }
}

/// What went wrong while scanning, and the byte offset where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub kind: SyntaxKind,
    pub offset: usize,
}

/// The grammar rule a scan failed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SyntaxKind {
    UnexpectedEnd,
    /// A byte that cannot start or continue the token expected here.
    Unexpected(u8),
    InvalidNumber,
    InvalidEscape,
    ControlCharacterInString,
    TrailingCharacters,
    DepthLimit,
}

impl SyntaxKind {
    pub(crate) fn describe(self) -> String {
        match self {
            Self::UnexpectedEnd => "unexpected end of input".to_owned(),
            Self::Unexpected(b) if b.is_ascii_graphic() => {
                format!("unexpected character `{}`", char::from(b))
            }
            Self::Unexpected(b) => format!("unexpected byte 0x{b:02x}"),
            Self::InvalidNumber => "invalid number".to_owned(),
            Self::InvalidEscape => "invalid escape in string".to_owned(),
            Self::ControlCharacterInString => "unescaped control character in string".to_owned(),
            Self::TrailingCharacters => "trailing characters after the JSON value".to_owned(),
            Self::DepthLimit => "nesting deeper than the depth limit".to_owned(),
        }
    }
}

/// The JSON type of a value, read from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueKind {
    /// `{…}`
    Object,
    /// `[…]`
    Array,
    /// `"…"`
    String,
    /// `-1.5e3`
    Number,
    /// `true` or `false`
    Bool,
    /// `null`
    Null,
}

impl ValueKind {
    /// The kind of the value whose text starts with `first`. Only meaningful on
    /// scanned, valid JSON text.
    pub(crate) fn of_first_byte(first: u8) -> Self {
        match first {
            b'{' => Self::Object,
            b'[' => Self::Array,
            b'"' => Self::String,
            b't' | b'f' => Self::Bool,
            b'n' => Self::Null,
            _ => Self::Number,
        }
    }

    /// The kind's name as JSON Schema spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Object => "object",
            Self::Array => "array",
            Self::String => "string",
            Self::Number => "number",
            Self::Bool => "boolean",
            Self::Null => "null",
        }
    }
}

/// A string token's span, quotes included.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StrToken {
    pub start: usize,
    pub end: usize,
    /// Whether the token holds an escape: without one, its body is its value.
    pub escaped: bool,
}

pub(crate) type Scan<T> = Result<T, SyntaxError>;

/// A cursor over validated UTF-8 text.
pub(crate) struct Scanner<'a> {
    bytes: &'a [u8],
    pub pos: usize,
    max_depth: usize,
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Marks (high bit of the byte) the bytes of `word` that are zero. The lowest mark is
/// exact; borrows can only add false marks above a true one.
#[inline]
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(LO) & !word & HI
}

/// Marks (high bit of the byte) the bytes of an 8-byte `chunk` that end a run of
/// plain string bytes: `"`, `\` or a control byte. The lowest mark is exact.
#[inline]
fn special_marks(chunk: [u8; 8]) -> u64 {
    let word = u64::from_le_bytes(chunk);
    zero_bytes(word ^ (LO * u64::from(b'"')))
        | zero_bytes(word ^ (LO * u64::from(b'\\')))
        | (word.wrapping_sub(LO * 0x20) & !word & HI)
}

/// Whether `block` holds a `"`, a `\` or a control byte. Each byte maps to zero
/// exactly when it is one of those (`b ^ b'"'`, `b ^ b'\\'`, and `b - 0x1f`
/// saturating, which is zero for `b <= 0x1f`); the minimum over the block is
/// zero exactly when one is present. A min-fold has no early exit and no
/// data-dependent branch, so it compiles to `pxor`/`psubusb`/`pminub`.
#[inline]
fn has_special(block: &[u8; 128]) -> bool {
    block.iter().fold(u8::MAX, |low, &b| {
        low.min((b ^ b'"').min(b ^ b'\\').min(b.saturating_sub(0x1f)))
    }) == 0
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a str, max_depth: usize) -> Self {
        Self {
            bytes: text.as_bytes(),
            pos: 0,
            max_depth,
        }
    }

    pub(crate) fn max_depth(&self) -> usize {
        self.max_depth
    }

    fn err<T>(&self, kind: SyntaxKind) -> Scan<T> {
        Err(SyntaxError {
            kind,
            offset: self.pos,
        })
    }

    fn unexpected<T>(&self) -> Scan<T> {
        match self.bytes.get(self.pos) {
            Some(&b) => self.err(SyntaxKind::Unexpected(b)),
            None => self.err(SyntaxKind::UnexpectedEnd),
        }
    }

    /// Skips insignificant whitespace (RFC 8259 §2: space, tab, LF, CR).
    #[inline]
    pub(crate) fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The next byte, without consuming it.
    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Consumes `expected` or fails on whatever is there instead.
    #[inline]
    pub(crate) fn eat(&mut self, expected: u8) -> Scan<()> {
        if self.peek() == Some(expected) {
            self.pos += 1;
            Ok(())
        } else {
            self.unexpected()
        }
    }

    /// After the top-level value: only whitespace may follow.
    pub(crate) fn finish(&mut self) -> Scan<()> {
        self.skip_ws();
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            self.err(SyntaxKind::TrailingCharacters)
        }
    }

    /// Scans one string token starting at the current `"`.
    #[inline(always)]
    pub(crate) fn string(&mut self) -> Scan<StrToken> {
        let start = self.pos;
        self.eat(b'"')?;
        let mut escaped = false;
        loop {
            self.skip_plain();
            let Some(&b) = self.bytes.get(self.pos) else {
                return self.err(SyntaxKind::UnexpectedEnd);
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(StrToken {
                        start,
                        end: self.pos,
                        escaped,
                    });
                }
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                0..=0x1f => return self.err(SyntaxKind::ControlCharacterInString),
                _ => self.pos += 1,
            }
        }
    }

    /// Advances past string bytes that need no attention, stopping at a quote, a
    /// backslash, a control byte, or within 8 bytes of the end (the caller looks
    /// at the byte there).
    ///
    /// Most strings are short (member names, ids): they end within two 8-byte
    /// words, checked SWAR. A string still going after that is likely long (a
    /// description, a base64 blob), so it is then skipped 128 bytes per step by a
    /// branch-free fold the compiler turns into SIMD compares (SSE2 on x86-64;
    /// callgrind: 0.8 instructions per byte of a base64 blob, about half the
    /// SWAR loop's), and the exact stop is
    /// found by SWAR again. `unsafe` is forbidden here, so there are no explicit
    /// intrinsics: the fold is written so that it vectorizes.
    #[inline(always)]
    fn skip_plain(&mut self) {
        if self.skip_words(2) {
            return;
        }
        while let Some(block) = self.bytes[self.pos..].first_chunk::<128>() {
            if has_special(block) {
                break;
            }
            self.pos += 128;
        }
        self.skip_words(usize::MAX);
    }

    /// Advances up to `n` 8-byte words of plain string bytes (SWAR), and says
    /// whether it stopped: at a quote, a backslash or a control byte, or within
    /// 8 bytes of the end.
    #[inline(always)]
    fn skip_words(&mut self, n: usize) -> bool {
        for _ in 0..n {
            let Some(chunk) = self.bytes[self.pos..].first_chunk::<8>() else {
                return true;
            };
            let marks = special_marks(*chunk);
            if marks != 0 {
                self.pos += (marks.trailing_zeros() / 8) as usize;
                return true;
            }
            self.pos += 8;
        }
        false
    }

    /// Scans one escape sequence starting at its backslash.
    fn escape(&mut self) -> Scan<()> {
        self.pos += 1;
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'u') => {
                self.pos += 1;
                for _ in 0..4 {
                    match self.peek() {
                        Some(h) if h.is_ascii_hexdigit() => self.pos += 1,
                        None => return self.err(SyntaxKind::UnexpectedEnd),
                        Some(_) => return self.err(SyntaxKind::InvalidEscape),
                    }
                }
                Ok(())
            }
            None => self.err(SyntaxKind::UnexpectedEnd),
            Some(_) => self.err(SyntaxKind::InvalidEscape),
        }
    }

    /// Scans a number (RFC 8259 §6): `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    pub(crate) fn number(&mut self) -> Scan<()> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            None => return self.err(SyntaxKind::UnexpectedEnd),
            Some(_) => return self.err(SyntaxKind::InvalidNumber),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.some_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.some_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn some_digits(&mut self) -> Scan<()> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                self.digits();
                Ok(())
            }
            None => self.err(SyntaxKind::UnexpectedEnd),
            Some(_) => self.err(SyntaxKind::InvalidNumber),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Scan<()> {
        for &expected in word {
            match self.peek() {
                Some(b) if b == expected => self.pos += 1,
                None => return self.err(SyntaxKind::UnexpectedEnd),
                Some(b) => return self.err(SyntaxKind::Unexpected(b)),
            }
        }
        Ok(())
    }

    /// Scans a scalar, or the opening of a container (returning `Some(is_object)`).
    #[inline(always)]
    fn value_start(&mut self) -> Scan<Option<bool>> {
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                Ok(Some(true))
            }
            Some(b'[') => {
                self.pos += 1;
                Ok(Some(false))
            }
            Some(b'"') => self.string().map(|_| None),
            Some(b'-' | b'0'..=b'9') => self.number().map(|()| None),
            Some(b't') => self.literal(b"true").map(|()| None),
            Some(b'f') => self.literal(b"false").map(|()| None),
            Some(b'n') => self.literal(b"null").map(|()| None),
            _ => self.unexpected(),
        }
    }

    /// Scans one whole value that sits at nesting `depth` (the frame is depth 0, so
    /// an object opening there is depth 1), returning its span. Iterative: the only
    /// memory it uses grows with nesting, one bit per level.
    ///
    /// The loop has two states, each a label: at the start of an element
    /// (`'element`), and after one (the inner loop), so compact JSON costs one
    /// byte test per structural token and no flags.
    pub(crate) fn value(&mut self, depth: usize) -> Scan<(usize, usize)> {
        let start = self.pos;
        let Some(mut in_object) = self.value_start()? else {
            return Ok((start, self.pos));
        };
        // `stack` holds one bit per open container: 1 for an object.
        let mut stack = BitStack::default();
        let mut open = depth;
        let mut opened = true;
        'element: loop {
            if opened {
                // Just past an opening bracket: count it, then see whether the
                // container is empty.
                opened = false;
                open += 1;
                if open > self.max_depth {
                    self.pos -= 1;
                    return self.err(SyntaxKind::DepthLimit);
                }
                stack.push(in_object);
                self.skip_ws();
                if self.peek() != Some(close_of(in_object)) {
                    if in_object {
                        self.member_name()?;
                    }
                    if let Some(child) = self.value_start()? {
                        in_object = child;
                        opened = true;
                        continue 'element;
                    }
                } else {
                    self.pos += 1;
                    stack.pop();
                    open -= 1;
                    if open == depth {
                        return Ok((start, self.pos));
                    }
                    in_object = stack.top();
                }
            } else {
                if in_object {
                    self.member_name()?;
                }
                if let Some(child) = self.value_start()? {
                    in_object = child;
                    opened = true;
                    continue 'element;
                }
            }
            // After an element: a comma and the next, or the container's close.
            loop {
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                        continue 'element;
                    }
                    Some(b) if b == close_of(in_object) => {
                        self.pos += 1;
                        stack.pop();
                        open -= 1;
                        if open == depth {
                            return Ok((start, self.pos));
                        }
                        in_object = stack.top();
                    }
                    _ => return self.unexpected(),
                }
            }
        }
    }

    /// A member's name and its colon, with the whitespace around the colon.
    #[inline(always)]
    fn member_name(&mut self) -> Scan<()> {
        if self.peek() != Some(b'"') {
            return self.unexpected();
        }
        self.string()?;
        self.skip_ws();
        self.eat(b':')?;
        self.skip_ws();
        Ok(())
    }
}

/// The byte that closes an object (`true`) or an array.
#[inline]
fn close_of(is_object: bool) -> u8 {
    if is_object {
        b'}'
    } else {
        b']'
    }
}

/// One bit per open container; the first 64 levels live in a register.
#[derive(Default)]
struct BitStack {
    low: u64,
    len: usize,
    spill: Vec<u64>,
}

impl BitStack {
    #[inline]
    fn push(&mut self, bit: bool) {
        if self.len > 0 && self.len % 64 == 0 {
            self.spill.push(self.low);
            self.low = 0;
        }
        self.low = (self.low << 1) | u64::from(bit);
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) {
        self.len -= 1;
        self.low >>= 1;
        if self.len > 0 && self.len % 64 == 0 {
            self.low = self.spill.pop().unwrap_or(0);
        }
    }

    #[inline]
    fn top(&self) -> bool {
        self.low & 1 == 1
    }
}

/// Turns a byte offset into a 1-based line and a 1-based column counted in
/// characters, for error messages a person can find in an editor.
pub(crate) fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    // Count characters, not bytes: skip UTF-8 continuation bytes.
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| b & 0xc0 != 0x80)
        .count();
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Scan<(usize, usize)> {
        let mut s = Scanner::new(text, 64);
        s.skip_ws();
        let span = s.value(0)?;
        s.finish()?;
        Ok(span)
    }

    #[test]
    fn accepts_rfc8259_values() {
        for ok in [
            "0",
            "-0",
            "1.0",
            "1e2",
            "-1.5E-7",
            "18446744073709551616",
            "\"a\\u00e9\\n\"",
            "[]",
            "{}",
            "[1,[2,{\"a\":[]}],{}]",
            " { \"a\" : [ 1 , 2 ] } ",
            "\"0123456789abcdef0123456789\\\"x\"",
            "true",
            "false",
            "null",
        ] {
            assert!(scan(ok).is_ok(), "{ok} should scan");
        }
    }

    #[test]
    fn refuses_with_the_offset_of_the_fault() {
        let cases: [(&str, SyntaxKind, usize); 12] = [
            ("01", SyntaxKind::TrailingCharacters, 1),
            ("1.", SyntaxKind::UnexpectedEnd, 2),
            ("1.e3", SyntaxKind::InvalidNumber, 2),
            ("-", SyntaxKind::UnexpectedEnd, 1),
            ("[1,]", SyntaxKind::Unexpected(b']'), 3),
            ("{\"a\" 1}", SyntaxKind::Unexpected(b'1'), 5),
            ("\"a\u{1}\"", SyntaxKind::ControlCharacterInString, 2),
            ("\"\\x\"", SyntaxKind::InvalidEscape, 2),
            ("\"\\u12g4\"", SyntaxKind::InvalidEscape, 5),
            ("[1 2]", SyntaxKind::Unexpected(b'2'), 3),
            ("tru", SyntaxKind::UnexpectedEnd, 3),
            ("{\"a\":1}}", SyntaxKind::TrailingCharacters, 7),
        ];
        for (text, kind, offset) in cases {
            assert_eq!(scan(text), Err(SyntaxError { kind, offset }), "{text}");
        }
    }

    /// The string skip has three speeds (two SWAR words, 128-byte blocks, SWAR
    /// again): a stop byte at every offset of a long string, and every kind of
    /// stop byte, must be found exactly where it is.
    #[test]
    fn long_strings_stop_exactly_at_every_offset() {
        for len in [
            0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 80, 81, 143, 144, 145, 200, 271, 272, 273, 300,
        ] {
            let body = "a".repeat(len);
            let text = format!("\"{body}\"");
            assert_eq!(scan(&text), Ok((0, len + 2)), "plain string of {len}");
            let escaped = format!("\"{body}\\n{body}\"");
            assert_eq!(scan(&escaped), Ok((0, 2 * len + 4)), "escape after {len}");
            let control = format!("\"{body}\u{1f}{body}\"");
            let err = SyntaxError {
                kind: SyntaxKind::ControlCharacterInString,
                offset: len + 1,
            };
            assert_eq!(scan(&control), Err(err), "control byte after {len}");
            let unterminated = format!("\"{body}");
            assert_eq!(
                scan(&unterminated).map_err(|e| e.kind),
                Err(SyntaxKind::UnexpectedEnd),
                "unterminated string of {len}"
            );
        }
        // Non-ASCII text and bytes near the stop set (0x20, 0x21, 0x23, 0x5b,
        // 0x5d) are plain.
        let tricky = format!("\"{}\"", "é !#[]~\u{7f}😀".repeat(40));
        assert_eq!(scan(&tricky), Ok((0, tricky.len())));
    }

    /// The scanner accepts exactly what serde_json accepts, on every text of up
    /// to four tokens from a JSON-ish alphabet and on pseudo-random longer ones
    /// (shallow, so serde_json's recursion limit never decides).
    #[test]
    fn accepts_exactly_what_serde_json_accepts() {
        const ALPHABET: &[&str] = &[
            "[",
            "]",
            "{",
            "}",
            "\"",
            ",",
            ":",
            "0",
            "1",
            "-",
            ".",
            "e",
            " ",
            "\\",
            "a",
            "true",
            "null",
            "\"k\"",
            "\"\\u00e9\"",
        ];
        let agree = |text: &str| {
            let ours = scan(text).is_ok();
            let theirs = serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
            assert_eq!(ours, theirs, "scanner and serde_json disagree on {text:?}");
        };
        let n = ALPHABET.len();
        for len in 1..=4u32 {
            for mut code in 0..n.pow(len) {
                let mut text = String::new();
                for _ in 0..len {
                    text.push_str(ALPHABET[code % n]);
                    code /= n;
                }
                agree(&text);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut text = String::new();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            for _ in 0..5 + (state >> 59) {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                text.push_str(ALPHABET[(state >> 33) as usize % n]);
            }
            agree(&text);
        }
    }

    #[test]
    fn depth_is_bounded_without_recursion() {
        let deep = "[".repeat(100_000);
        let mut s = Scanner::new(&deep, 512);
        assert_eq!(s.value(0).unwrap_err().kind, SyntaxKind::DepthLimit);
        let ok = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let mut s = Scanner::new(&ok, 512);
        assert_eq!(s.value(0), Ok((0, 400)));
    }

    #[test]
    fn line_and_column_count_characters() {
        assert_eq!(line_column(b"ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é\nxé!".as_bytes(), 6), (2, 3));
    }
}
