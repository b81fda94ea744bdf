//! A structure-aware generator of JSON-RPC frames, driven by `arbitrary`.
//!
//! It writes wire text directly rather than building values and serializing them,
//! because the edges a codec gets wrong are spellings: `1.0` against `1`, `-0`,
//! `1e400`, a 100-digit integer, `"\u00e9"` against `"é"`, a lone surrogate
//! escape, an absent `params` against `"params":{}`, whitespace between tokens.
//! One generator serves the fuzz target (`Arbitrary`) and proptest (fed random
//! bytes through `Unstructured`).

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::MessageKind;

/// How deep generated values nest below the envelope. The issue asks for at least
/// 32; the codec's own bound is far above.
pub const MAX_VALUE_DEPTH: usize = 40;

/// A generated frame: its wire text and what each message must lift as.
#[derive(Debug, Clone)]
pub struct GenFrame {
    /// The wire text.
    pub text: String,
    /// The kinds the codec must lift it into, one per message.
    pub kinds: Vec<MessageKind>,
    /// Whether the frame is a batch.
    pub batch: bool,
}

impl<'a> Arbitrary<'a> for GenFrame {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        GenFrame::steered(u, &[])
    }
}

impl GenFrame {
    /// A frame whose requests and notifications mostly (three in four) name one
    /// of `methods`: the live fuzzer steers to the methods a peer's revision
    /// defines, so frames reach its handlers instead of stopping at -32601.
    /// With no methods it is the plain [`Arbitrary`] generator.
    pub fn steered(u: &mut Unstructured<'_>, methods: &[&str]) -> Result<GenFrame> {
        let mut g = Gen {
            u,
            out: String::new(),
            spaced: false,
            methods,
        };
        g.spaced = g.u.ratio(1, 4)?;
        let batch = g.u.ratio(1, 6)?;
        let mut kinds = Vec::new();
        g.ws()?;
        if batch {
            let n = g.u.int_in_range(1..=8)?;
            g.out.push('[');
            for i in 0..n {
                if i > 0 {
                    g.comma()?;
                }
                g.ws()?;
                kinds.push(g.message()?);
                g.ws()?;
            }
            g.out.push(']');
        } else {
            kinds.push(g.message()?);
        }
        g.ws()?;
        Ok(GenFrame {
            text: g.out,
            kinds,
            batch,
        })
    }
}

/// An `Id` text and nothing else, for the reply-matching target.
#[derive(Debug, Clone)]
pub struct GenId(pub String);

impl<'a> Arbitrary<'a> for GenId {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut g = Gen {
            u,
            out: String::new(),
            spaced: false,
            methods: &[],
        };
        g.id(false)?;
        Ok(GenId(g.out))
    }
}

struct Gen<'u, 'a, 'm> {
    u: &'u mut Unstructured<'a>,
    out: String,
    /// Whether to sprinkle insignificant whitespace between tokens.
    spaced: bool,
    /// Method names to steer to ([`GenFrame::steered`]); empty: any string.
    methods: &'m [&'m str],
}

/// Numbers at the edges that lossy codecs get wrong.
pub(crate) const EDGE_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "1.0",
    "-0.0",
    "1e2",
    "1E2",
    "1e+2",
    "1e-2",
    "0.1",
    "1.5e-7",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "1e400",
    "-1e400",
    "4.9e-324",
    "1e-400",
    "123456789012345678901234567890",
    "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890",
    "3.141592653589793238462643383279",
];

/// Integer codes at the edges, all within `i64`.
const EDGE_CODES: &[&str] = &[
    "-32700",
    "-32600",
    "-32601",
    "-32602",
    "-32603",
    "-32000",
    "-32002",
    "-32042",
    "-32022",
    "0",
    "-0",
    "1",
    "9223372036854775807",
    "-9223372036854775808",
];

/// String bodies (between the quotes) that stress escaping and Unicode.
pub(crate) const EDGE_STRINGS: &[&str] = &[
    "",
    "1",
    "01",
    "ping",
    "tools/call",
    "notifications/initialized",
    "\\u0031",
    "\\u0000",
    "a\\\"b",
    "\\\\",
    "\\/",
    "\\b\\f\\n\\r\\t",
    "\\ud83d\\ude00",
    "😀",
    "\\ud800",
    "\\udfff",
    "é",
    "\\u00e9",
    "\\u00E9",
    "x-vendor",
    "_meta",
    "io.modelcontextprotocol/protocolVersion",
    "\u{2028}\u{2029}",
    "\u{feff}",
    "    ",
];

/// Member names of extras, including ones a careless codec confuses with its own.
pub(crate) const EXTRA_NAMES: &[&str] = &[
    "x-vendor",
    "_meta",
    "extra",
    "",
    "ID",
    "Method",
    "\\u0069\\u0064x",
    "jsonrpc2",
    "a/b~c",
    "🦀",
];

impl Gen<'_, '_, '_> {
    fn ws(&mut self) -> Result<()> {
        if self.spaced && self.u.ratio(1, 3)? {
            let ws = *self.u.choose(&[" ", "\n", "\t", "\r\n", "  ", " \t\n "])?;
            self.out.push_str(ws);
        }
        Ok(())
    }

    fn comma(&mut self) -> Result<()> {
        self.ws()?;
        self.out.push(',');
        self.ws()
    }

    fn colon(&mut self) -> Result<()> {
        self.ws()?;
        self.out.push(':');
        self.ws()
    }

    fn string_body(&mut self) -> Result<()> {
        if self.u.ratio(2, 3)? {
            let s = *self.u.choose(EDGE_STRINGS)?;
            self.out.push_str(s);
            return Ok(());
        }
        let n = self.u.int_in_range(0..=12)?;
        for _ in 0..n {
            match self.u.int_in_range(0..=9)? {
                0 => {
                    let unit: u16 = self.u.arbitrary()?;
                    self.out.push_str(&format!("\\u{unit:04x}"));
                }
                1 => {
                    let e = *self
                        .u
                        .choose(&["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"])?;
                    self.out.push_str(e);
                }
                2 => {
                    let c: char = self.u.arbitrary()?;
                    match c {
                        '"' | '\\' => self.out.push_str("\\\\"),
                        c if (c as u32) < 0x20 => self.out.push_str("\\u0000"),
                        c => self.out.push(c),
                    }
                }
                _ => {
                    let c = char::from(self.u.int_in_range(0x20u8..=0x7e)?);
                    if c == '"' || c == '\\' {
                        self.out.push('_');
                    } else {
                        self.out.push(c);
                    }
                }
            }
        }
        Ok(())
    }

    fn string(&mut self) -> Result<()> {
        self.out.push('"');
        self.string_body()?;
        self.out.push('"');
        Ok(())
    }

    fn number(&mut self) -> Result<()> {
        if self.u.ratio(1, 2)? {
            let n = *self.u.choose(EDGE_NUMBERS)?;
            self.out.push_str(n);
            return Ok(());
        }
        match self.u.int_in_range(0..=2)? {
            0 => {
                let n: i64 = self.u.arbitrary()?;
                self.out.push_str(&n.to_string());
            }
            1 => {
                let n: u64 = self.u.arbitrary()?;
                let frac: u16 = self.u.arbitrary()?;
                self.out.push_str(&format!("{n}.{frac}"));
            }
            _ => {
                let n: i32 = self.u.arbitrary()?;
                let e: i16 = self.u.arbitrary()?;
                let mark = *self.u.choose(&["e", "E", "e+", "E-"])?;
                self.out.push_str(&format!("{n}{mark}{}", e.unsigned_abs()));
            }
        }
        Ok(())
    }

    /// Any JSON value, nesting at most `depth` more levels.
    fn value(&mut self, depth: usize) -> Result<()> {
        let pick = if depth == 0 {
            self.u.int_in_range(0..=4)?
        } else {
            self.u.int_in_range(0..=7)?
        };
        match pick {
            0 => self.out.push_str("null"),
            1 => self.out.push_str(self.u.choose(&["true", "false"])?),
            2 => self.number()?,
            3 | 4 => self.string()?,
            5 | 6 => self.object(depth - 1, false)?,
            _ => self.array(depth - 1)?,
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<()> {
        self.out.push('[');
        let n = self.u.int_in_range(0..=4)?;
        for i in 0..n {
            if i > 0 {
                self.comma()?;
            }
            self.ws()?;
            self.value(depth)?;
        }
        self.ws()?;
        self.out.push(']');
        Ok(())
    }

    /// An object; `with_meta` forces a `_meta` member. Duplicate names are
    /// allowed below the envelope, so they are generated here.
    fn object(&mut self, depth: usize, with_meta: bool) -> Result<()> {
        self.out.push('{');
        let n = self.u.int_in_range(0..=4)?;
        let mut first = true;
        if with_meta {
            self.out.push_str("\"_meta\"");
            self.colon()?;
            self.meta(depth)?;
            first = false;
        }
        for _ in 0..n {
            if !first {
                self.comma()?;
            }
            first = false;
            self.ws()?;
            if self.u.ratio(1, 4)? {
                self.out.push_str("\"_meta\"");
            } else {
                self.string()?;
            }
            self.colon()?;
            self.value(depth)?;
        }
        self.ws()?;
        self.out.push('}');
        Ok(())
    }

    fn meta(&mut self, depth: usize) -> Result<()> {
        if self.u.ratio(1, 2)? {
            self.out.push_str(
                r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":"#,
            );
            self.id(false)?;
            self.out.push('}');
            Ok(())
        } else {
            self.object(depth.saturating_sub(1), false)
        }
    }

    /// A JSON-RPC id: a string or a number of any spelling, `null` when allowed.
    fn id(&mut self, allow_null: bool) -> Result<()> {
        match self.u.int_in_range(0..=5)? {
            0 if allow_null => self.out.push_str("null"),
            0..=2 => self.number()?,
            _ => self.string()?,
        }
        Ok(())
    }

    fn member(&mut self, name: &str) -> Result<()> {
        self.out.push('"');
        self.out.push_str(name);
        self.out.push('"');
        self.colon()
    }

    fn params(&mut self) -> Result<()> {
        match self.u.int_in_range(0..=6)? {
            0 => self.out.push_str("{}"),
            1 => self.out.push_str("[]"),
            2 => self.array(MAX_VALUE_DEPTH)?,
            3 => self.object(MAX_VALUE_DEPTH, true)?,
            4 => self.deep()?,
            _ => {
                let depth = self.u.int_in_range(0..=MAX_VALUE_DEPTH)?;
                self.object(depth, false)?;
            }
        }
        Ok(())
    }

    /// A chain nested 32 to [`MAX_VALUE_DEPTH`] levels deep, objects (each a
    /// `_meta`) and arrays mixed. Random nesting alone almost never gets past a
    /// dozen levels; this makes depth 32 generated, not merely allowed.
    fn deep(&mut self) -> Result<()> {
        let n = self.u.int_in_range(32..=MAX_VALUE_DEPTH)?;
        let mut closers = Vec::with_capacity(n);
        for _ in 0..n {
            if self.u.ratio(1, 2)? {
                self.out.push_str("{\"_meta\":");
                closers.push('}');
            } else {
                self.out.push('[');
                closers.push(']');
            }
        }
        self.value(0)?;
        while let Some(closer) = closers.pop() {
            self.out.push(closer);
        }
        Ok(())
    }

    fn error_object(&mut self) -> Result<()> {
        let mut members: Vec<u8> = vec![0, 1];
        if self.u.ratio(1, 2)? {
            members.push(2);
        }
        let extras = self.u.int_in_range(0..=2)?;
        members.extend(std::iter::repeat_n(3, extras));
        self.shuffle(&mut members)?;
        let mut used_extra_names = Vec::new();
        self.envelope(members, |g, m| {
            match m {
                0 => {
                    g.member("code")?;
                    let code = *g.u.choose(EDGE_CODES)?;
                    g.out.push_str(code);
                }
                1 => {
                    g.member("message")?;
                    g.string()?;
                }
                2 => {
                    g.member("data")?;
                    g.value(MAX_VALUE_DEPTH)?;
                }
                _ => {
                    // Extras inside `error` must not collide with code/message/data
                    // or with each other: the codec refuses duplicates there.
                    let name = g.extra_name(&["code", "message", "data"], &used_extra_names)?;
                    used_extra_names.push(name.clone());
                    g.member(&name)?;
                    g.value(4)?;
                }
            }
            Ok(())
        })
    }

    /// An envelope object (a message or its `error`): `members` in the order
    /// given, each written by `member` after the comma and whitespace before it.
    /// The one place the comma, whitespace and brace bytes of an envelope are
    /// drawn, so both envelopes consume the fuzzer's bytes alike.
    fn envelope(
        &mut self,
        members: Vec<u8>,
        mut member: impl FnMut(&mut Self, u8) -> Result<()>,
    ) -> Result<()> {
        self.out.push('{');
        for (i, m) in members.into_iter().enumerate() {
            if i > 0 {
                self.comma()?;
            }
            self.ws()?;
            member(self, m)?;
        }
        self.ws()?;
        self.out.push('}');
        Ok(())
    }

    fn extra_name(&mut self, modelled: &[&str], used: &[String]) -> Result<String> {
        let base = (*self.u.choose(EXTRA_NAMES)?).to_owned();
        let mut name = base.clone();
        let mut n = 0;
        while modelled.contains(&name.as_str()) || used.contains(&name) {
            n += 1;
            name = format!("{base}{n}");
        }
        Ok(name)
    }

    fn shuffle(&mut self, items: &mut [u8]) -> Result<()> {
        for i in (1..items.len()).rev() {
            let j = self.u.int_in_range(0..=i)?;
            items.swap(i, j);
        }
        Ok(())
    }

    /// One message with its members in a generated order.
    fn message(&mut self) -> Result<MessageKind> {
        let kind = *self.u.choose(&[
            MessageKind::Request,
            MessageKind::Notification,
            MessageKind::Success,
            MessageKind::Error,
        ])?;
        // 0 jsonrpc, 1 id, 2 method, 3 params, 4 result, 5 error, 6 extra
        let mut members: Vec<u8> = match kind {
            MessageKind::Request => vec![0, 1, 2],
            MessageKind::Notification => vec![0, 2],
            MessageKind::Success => vec![0, 1, 4],
            MessageKind::Error => vec![0, 5],
        };
        if matches!(kind, MessageKind::Request | MessageKind::Notification) && self.u.ratio(2, 3)? {
            members.push(3);
        }
        if kind == MessageKind::Error && self.u.ratio(3, 4)? {
            members.push(1);
        }
        let extras = self.u.int_in_range(0..=3)?;
        members.extend(std::iter::repeat_n(6, extras));
        if self.u.ratio(3, 4)? {
            // Mostly canonical order, so byte-identity of common frames is exercised.
            members.sort_unstable();
        } else {
            self.shuffle(&mut members)?;
        }
        let mut used_extra_names = Vec::new();
        self.envelope(members, |g, m| {
            match m {
                0 => {
                    g.member("jsonrpc")?;
                    // `"2\u002e0"` is "2.0" spelled with an escape: accepted and kept.
                    let v = if g.u.ratio(1, 50)? {
                        "\"2\\u002e0\""
                    } else {
                        "\"2.0\""
                    };
                    g.out.push_str(v);
                }
                1 => {
                    g.member("id")?;
                    g.id(true)?;
                }
                2 => {
                    g.member("method")?;
                    if !g.methods.is_empty() && g.u.ratio(3, 4)? {
                        let method = *g.u.choose(g.methods)?;
                        g.out.push('"');
                        g.out.push_str(method);
                        g.out.push('"');
                    } else {
                        g.string()?;
                    }
                }
                3 => {
                    g.member("params")?;
                    g.params()?;
                }
                4 => {
                    g.member("result")?;
                    g.value(MAX_VALUE_DEPTH)?;
                }
                5 => {
                    g.member("error")?;
                    g.error_object()?;
                }
                _ => {
                    // A modelled name on a kind that does not model it is an extra
                    // too: `params` on a response (lift once dropped it).
                    let response = matches!(kind, MessageKind::Success | MessageKind::Error);
                    let params_unused = !used_extra_names.iter().any(|n| n == "params");
                    let name = if response && params_unused && g.u.ratio(1, 6)? {
                        "params".to_owned()
                    } else {
                        g.extra_name(
                            &["jsonrpc", "id", "method", "params", "result", "error"],
                            &used_extra_names,
                        )?
                    };
                    used_extra_names.push(name.clone());
                    g.member(&name)?;
                    g.value(6)?;
                }
            }
            Ok(())
        })?;
        Ok(kind)
    }
}
