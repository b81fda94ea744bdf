//! JSON values kept as the exact text they arrived as.
//!
//! [`Raw`] is any JSON value, [`JsonStr`] a string token and [`Id`] a JSON-RPC id.
//! Each holds its source text (quotes and escapes included), borrowed from the
//! frame when lifted and owned when built, so writing one back is a copy.

use std::borrow::Cow;
use std::fmt;

use crate::scan::{Scanner, ValueKind};

/// A JSON value, as the exact text it was read from (or built as).
///
/// The text is always one valid JSON value with no surrounding whitespace; inner
/// whitespace is kept as it came.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Raw<'a>(pub(crate) Cow<'a, str>);

impl<'a> Raw<'a> {
    /// Wraps text the scanner has already checked.
    pub(crate) fn trusted(text: &'a str) -> Self {
        Self(Cow::Borrowed(text))
    }

    /// Reads `text` as one JSON value (surrounding whitespace trimmed), refusing
    /// anything that is not exactly one.
    pub fn parse(text: &'a str) -> Result<Self, crate::error::Refusal> {
        let mut scanner = Scanner::new(text, crate::scan::Limits::DEFAULT_MAX_DEPTH);
        scanner.skip_ws();
        let scanned = scanner.value(0).and_then(|span| {
            scanner.finish()?;
            Ok(span)
        });
        match scanned {
            Ok((start, end)) => Ok(Self(Cow::Borrowed(&text[start..end]))),
            Err(e) => Err(crate::error::Refusal::syntax(text.as_bytes(), e)),
        }
    }

    /// The value of a `serde_json::Value`, written compactly.
    #[must_use]
    pub fn from_value(value: &serde_json::Value) -> Raw<'static> {
        Raw(Cow::Owned(value.to_string()))
    }

    /// The exact text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The JSON type of the value.
    #[must_use]
    pub fn kind(&self) -> ValueKind {
        ValueKind::of_first_byte(self.0.as_bytes().first().copied().unwrap_or(b'n'))
    }

    /// Parses the value into a `serde_json::Value` (lossy for numbers and duplicate
    /// keys: a convenience for rule checks, never for writing back).
    #[must_use]
    pub fn to_value(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.0).ok()
    }

    /// The members of an object, in order, duplicates included; empty for any
    /// other kind of value.
    #[must_use]
    pub fn members(&self) -> Members<'_> {
        Members::new(&self.0)
    }

    /// The first member named `name` (compared after decoding escapes).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Raw<'_>> {
        self.members()
            .find(|(key, _)| key.decoded() == name)
            .map(|(_, value)| value)
    }

    /// The elements of an array, in order; empty for any other kind of value.
    #[must_use]
    pub fn elements(&self) -> Elements<'_> {
        Elements::new(&self.0)
    }

    /// The decoded value of a string, `None` for any other kind.
    #[must_use]
    pub fn as_string(&self) -> Option<Cow<'_, str>> {
        (self.kind() == ValueKind::String).then(|| decode_token(&self.0))
    }

    /// A copy that owns its text.
    #[must_use]
    pub fn into_owned(self) -> Raw<'static> {
        Raw(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Debug for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The walk both [`Members`] and [`Elements`] share: past the opening bracket,
/// one item at a time with the commas between, fused at the end. The text was
/// validated when its `Raw` was made, so a scan failure can only mean the end:
/// the walk stops rather than panics.
struct Items<'t> {
    scanner: Option<Scanner<'t>>,
    text: &'t str,
    first: bool,
}

impl<'t> Items<'t> {
    /// Items of `text` when it opens with `open` (`{` or `[`); none otherwise.
    fn new(text: &'t str, open: u8) -> Self {
        let mut scanner = Scanner::new(text, usize::MAX);
        let scanner = (scanner.peek() == Some(open)).then(|| {
            scanner.pos += 1;
            scanner
        });
        Self {
            scanner,
            text,
            first: true,
        }
    }

    /// The next item, read by `item` from the scanner placed at its start.
    fn next_with<T>(
        &mut self,
        item: impl FnOnce(&mut Scanner<'t>, &'t str) -> Option<T>,
    ) -> Option<T> {
        let s = self.scanner.as_mut()?;
        s.skip_ws();
        if !self.first && s.eat(b',').is_err() {
            self.scanner = None;
            return None;
        }
        self.first = false;
        s.skip_ws();
        let found = item(s, self.text);
        if found.is_none() {
            self.scanner = None;
        }
        found
    }
}

/// Iterator over an object's members; see [`Raw::members`].
pub struct Members<'t>(Items<'t>);

impl<'t> Members<'t> {
    fn new(text: &'t str) -> Self {
        Self(Items::new(text, b'{'))
    }
}

impl<'t> Iterator for Members<'t> {
    type Item = (JsonStr<'t>, Raw<'t>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_with(|s, text| {
            let key = s.string().ok()?;
            s.skip_ws();
            s.eat(b':').ok()?;
            s.skip_ws();
            let (start, end) = s.value(0).ok()?;
            Some((
                JsonStr::trusted(&text[key.start..key.end]),
                Raw::trusted(&text[start..end]),
            ))
        })
    }
}

/// Iterator over an array's elements; see [`Raw::elements`].
pub struct Elements<'t>(Items<'t>);

impl<'t> Elements<'t> {
    fn new(text: &'t str) -> Self {
        Self(Items::new(text, b'['))
    }
}

impl<'t> Iterator for Elements<'t> {
    type Item = Raw<'t>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_with(|s, text| {
            let (start, end) = s.value(0).ok()?;
            Some(Raw::trusted(&text[start..end]))
        })
    }
}

/// A JSON string token, as its exact text (quotes included).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct JsonStr<'a>(pub(crate) Cow<'a, str>);

impl<'a> JsonStr<'a> {
    pub(crate) fn trusted(text: &'a str) -> Self {
        Self(Cow::Borrowed(text))
    }

    /// The string `value`, written with the escapes JSON requires and no others.
    #[must_use]
    pub fn encode(value: &str) -> JsonStr<'static> {
        // serde_json escapes exactly `"`, `\` and control characters.
        JsonStr(Cow::Owned(
            serde_json::to_string(value).unwrap_or_else(|_| String::from("\"\"")),
        ))
    }

    /// The exact text, quotes included.
    #[must_use]
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// The decoded value. Unpaired surrogate escapes (legal JSON text, but not
    /// Unicode) decode to U+FFFD here; compare with [`JsonStr::same_value`].
    #[must_use]
    pub fn decoded(&self) -> Cow<'_, str> {
        decode_token(&self.0)
    }

    /// Whether two string tokens spell the same sequence of UTF-16 code units,
    /// which is JSON's notion of string equality (RFC 8259 §8.3). `"\u0031"` and
    /// `"1"` are the same; `"\ud800"` and `"\udc00"` are not.
    #[must_use]
    pub fn same_value(&self, other: &JsonStr<'_>) -> bool {
        if self.0 == other.0 {
            return true;
        }
        let (a, b) = (&self.0[1..self.0.len() - 1], &other.0[1..other.0.len() - 1]);
        if !a.contains('\\') && !b.contains('\\') {
            return false;
        }
        utf16_units(a) == utf16_units(b)
    }

    /// The decoded value as UTF-16 code units: an exact key for hashing.
    pub(crate) fn units(&self) -> Vec<u16> {
        utf16_units(&self.0[1..self.0.len() - 1])
    }

    /// A copy that owns its text.
    #[must_use]
    pub fn into_owned(self) -> JsonStr<'static> {
        JsonStr(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Debug for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Decodes a string token (quotes included, valid per the scanner).
fn decode_token(token: &str) -> Cow<'_, str> {
    let body = &token[1..token.len() - 1];
    if !body.contains('\\') {
        return Cow::Borrowed(body);
    }
    Cow::Owned(String::from_utf16_lossy(&utf16_units(body)))
}

/// Decodes a string body (valid per the scanner) into UTF-16 code units.
fn utf16_units(body: &str) -> Vec<u16> {
    let mut units = Vec::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            units.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        let unit = match chars.next() {
            Some('b') => 0x08,
            Some('f') => 0x0c,
            Some('n') => 0x0a,
            Some('r') => 0x0d,
            Some('t') => 0x09,
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                u16::from_str_radix(&hex, 16).unwrap_or(0xfffd)
            }
            // `"`, `\` and `/` stand for themselves.
            Some(other) => u16::try_from(u32::from(other)).unwrap_or(0xfffd),
            None => break,
        };
        units.push(unit);
    }
    units
}

/// A JSON-RPC id: a string, a number of any spelling, or `null`
/// ([JSON-RPC 2.0 §4](https://www.jsonrpc.org/specification#request_object)).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Id<'a> {
    /// A string id, as its exact token.
    String(JsonStr<'a>),
    /// A number id, as its exact text (`1`, `1.0`, `1e2` and a 30-digit integer all
    /// stay as they came).
    Number(Cow<'a, str>),
    /// `null`: a request with this id is still a request, not a notification.
    Null,
}

impl<'a> Id<'a> {
    /// A string id.
    #[must_use]
    pub fn string(value: &str) -> Id<'static> {
        Id::String(JsonStr::encode(value))
    }

    /// An integer id.
    #[must_use]
    pub fn int(value: i64) -> Id<'static> {
        Id::Number(Cow::Owned(value.to_string()))
    }

    /// The id's exact text.
    #[must_use]
    pub fn raw(&self) -> &str {
        match self {
            Id::String(s) => s.raw(),
            Id::Number(n) => n,
            Id::Null => "null",
        }
    }

    /// Whether a reply carrying `other` answers a request carrying `self`.
    ///
    /// A string id and the number it spells are different ids (`"1"` is not `1`).
    /// Strings compare by decoded value. Numbers compare by exact decimal value,
    /// so `1`, `1.0` and `1e0` are the same id and `9007199254740993` is not
    /// `9007199254740992`: a peer that rounds through a double is caught.
    #[must_use]
    pub fn matches(&self, other: &Id<'_>) -> bool {
        match (self, other) {
            (Id::String(a), Id::String(b)) => a.same_value(b),
            (Id::Number(a), Id::Number(b)) => a == b || decimal_value(a) == decimal_value(b),
            (Id::Null, Id::Null) => true,
            _ => false,
        }
    }

    /// The JSON type of the id.
    #[must_use]
    pub fn kind(&self) -> ValueKind {
        match self {
            Id::String(_) => ValueKind::String,
            Id::Number(_) => ValueKind::Number,
            Id::Null => ValueKind::Null,
        }
    }

    /// A copy that owns its text.
    #[must_use]
    pub fn into_owned(self) -> Id<'static> {
        match self {
            Id::String(s) => Id::String(s.into_owned()),
            Id::Number(n) => Id::Number(Cow::Owned(n.into_owned())),
            Id::Null => Id::Null,
        }
    }
}

impl fmt::Debug for Id<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.raw())
    }
}

impl fmt::Display for Id<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.raw())
    }
}

/// A number's exact value as (negative, significant digits, exponent of the last
/// digit), so `100`, `1e2` and `1.00e2` all give `(false, "1", 2)`. Zero is
/// `(false, "", 0)` whatever its sign or spelling. `None` when the exponent does
/// not fit an `i64`, in which case callers fall back to comparing text.
pub(crate) fn decimal_value(text: &str) -> Option<(bool, String, i64)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = int.chars().chain(frac.chars()).collect();
    let frac_len = i64::try_from(frac.len()).ok()?;
    let mut exponent = exponent.checked_sub(frac_len)?;
    let trimmed = digits.trim_end_matches('0').len();
    exponent = exponent.checked_add(i64::try_from(digits.len() - trimmed).ok()?)?;
    digits.truncate(trimmed);
    let digits = digits.trim_start_matches('0').to_owned();
    if digits.is_empty() {
        return Some((false, digits, 0));
    }
    Some((negative, digits, exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_ids_match_by_exact_value() {
        let n = |t: &'static str| Id::Number(Cow::Borrowed(t));
        assert!(n("1").matches(&n("1.0")));
        assert!(n("100").matches(&n("1e2")));
        assert!(n("-0").matches(&n("0")));
        assert!(n("0.0e5").matches(&n("0")));
        assert!(!n("9007199254740993").matches(&n("9007199254740992")));
        assert!(!n("1").matches(&n("-1")));
        assert!(!n("1").matches(&Id::string("1")));
        assert!(Id::string("1").matches(&Id::String(JsonStr::trusted("\"\\u0031\""))));
    }

    #[test]
    fn members_and_elements_walk_raw_text() {
        let raw = Raw::parse(r#" {"a": [1, {"b":2}], "a": null, "c\u0021": "x"} "#).unwrap();
        let keys: Vec<String> = raw
            .members()
            .map(|(k, _)| k.decoded().into_owned())
            .collect();
        assert_eq!(keys, ["a", "a", "c!"]);
        assert_eq!(raw.get("a").unwrap().as_str(), r#"[1, {"b":2}]"#);
        assert_eq!(raw.get("c!").unwrap().as_string().unwrap(), "x");
        let arr = raw.get("a").unwrap();
        let elems: Vec<&str> = arr
            .elements()
            .map(|e| e.0.into_owned())
            .collect::<Vec<_>>()
            .leak()
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(elems, ["1", r#"{"b":2}"#]);
        // Each walk reads only its own bracket, and an empty one yields nothing.
        assert_eq!(arr.members().count(), 0);
        assert_eq!(raw.elements().count(), 0);
        assert_eq!(Raw::parse(" { } ").unwrap().members().count(), 0);
        assert_eq!(Raw::parse("[ ]").unwrap().elements().count(), 0);
        assert_eq!(Raw::parse("[[],{}]").unwrap().elements().count(), 2);
    }

    #[test]
    fn surrogates_compare_as_code_units() {
        let a = JsonStr::trusted(r#""\ud83d\ude00""#);
        let b = JsonStr::trusted("\"😀\"");
        assert!(a.same_value(&b));
        assert!(!JsonStr::trusted(r#""\ud800""#).same_value(&JsonStr::trusted(r#""\udc00""#)));
    }
}
