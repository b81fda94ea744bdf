//! A structure-aware mutator for the byte-level fuzz targets.
//!
//! libFuzzer's own mutations flip, insert and splice bytes: on JSON they mostly
//! break the syntax, so the codec's deep paths (a renamed `params`, a second `id`,
//! `_meta` dropped from an inner object, `1` respelt as `1.0`) are reached only
//! by luck. This mutator parses its input as JSON, keeping every scalar's exact
//! text, changes the *structure* (drops, duplicates, renames or reorders a
//! member, respells a number, changes a value's type, splices a subtree…) and
//! writes it back compact. Input that does not parse, and one call in eight
//! regardless, goes to the byte mutator the caller passes (libFuzzer's
//! `fuzzer_mutate` in `fuzz/`), so broken syntax and the refusal paths are
//! still fuzzed.
//!
//! It lives here, not in `fuzz/`, so its unit tests run on stable.

use super::generate::{EDGE_NUMBERS, EDGE_STRINGS, EXTRA_NAMES};

/// How deep the mutator's own parser follows nesting; deeper input goes to the
/// byte mutator (the codec's depth limit is fuzzed by splicing, not by recursion
/// here, which must never overflow the fuzzer's stack).
const MAX_DEPTH: usize = 128;

/// One call in this many goes to the byte mutator even when the input parses.
const BYTE_MUTATION_ONE_IN: u64 = 8;

/// Member names worth renaming to: the envelope's, the `error` object's, MCP's
/// favourites, and spellings a careless codec confuses with them.
const NAMES: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "params",
    "result",
    "error",
    "code",
    "message",
    "data",
    "_meta",
    "progressToken",
    "protocolVersion",
    "capabilities",
    "name",
    "arguments",
    "cursor",
    "\\u0069d",
    "\\u006aSONRPC",
    "Id",
];

/// Values to insert or change a value into, one of every JSON type.
const VALUES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-1",
    "\"\"",
    "\"2.0\"",
    "\"1\"",
    "{}",
    "[]",
    "{\"_meta\":{}}",
    "[null]",
    "-32700",
    "-32600",
    "-32601",
];

/// What the mutator did, for its tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mutation {
    Drop,
    Duplicate,
    Rename,
    Respell,
    ChangeType,
    Insert,
    Swap,
    EdgeString,
    Splice,
    Wrap,
    Unwrap,
}

const MUTATIONS: &[Mutation] = &[
    Mutation::Drop,
    Mutation::Duplicate,
    Mutation::Rename,
    Mutation::Respell,
    Mutation::ChangeType,
    Mutation::Insert,
    Mutation::Swap,
    Mutation::EdgeString,
    Mutation::Splice,
    Mutation::Wrap,
    Mutation::Unwrap,
];

/// The `fuzz_mutator!` body: mutates `data[..size]` in place into at most
/// `max_size` bytes and returns the new size. `byte_mutate(data, size, max_size)`
/// is the fallback for input that is not JSON (libFuzzer's `fuzzer_mutate`).
///
/// `max_size` may be below `size`: libFuzzer asks for a smaller input while it
/// minimizes a crash (`-minimize_crash`, `cargo fuzz tmin`). The whole input is
/// still parsed, never truncated to `max_size` first, so minimizing drops
/// members instead of cutting the closing brace.
pub fn mutate(
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    byte_mutate: impl FnOnce(&mut [u8], usize, usize) -> usize,
) -> usize {
    let size = size.min(data.len());
    let max_size = max_size.min(data.len());
    let mut rng = Rng::new(u64::from(seed));
    if rng.below(BYTE_MUTATION_ONE_IN) != 0 {
        // A few tries, for when a mutation grows the input past `max_size`.
        for _ in 0..4 {
            let Some((_, out)) = structural(&data[..size], &mut rng) else {
                break;
            };
            if out.len() <= max_size && out[..] != data[..size] {
                data[..out.len()].copy_from_slice(&out);
                return out.len();
            }
        }
    }
    byte_mutate(data, size, max_size).min(max_size)
}

/// One structural mutation of `input`, or `None` when it is not JSON the
/// mutator can parse (or offers nothing to mutate). Deterministic in `seed`.
#[must_use]
pub fn mutate_json(input: &[u8], seed: u64) -> Option<Vec<u8>> {
    structural(input, &mut Rng::new(seed)).map(|(_, out)| out)
}

fn structural(input: &[u8], rng: &mut Rng) -> Option<(Mutation, Vec<u8>)> {
    let text = std::str::from_utf8(input).ok()?;
    let mut root = Parser::new(text).document()?;
    let mut original = String::with_capacity(input.len());
    root.write(&mut original);
    // A few tries: not every mutation applies to every document, and some
    // (an edge string over the same string) change nothing.
    for _ in 0..8 {
        let mutation = MUTATIONS[rng.index(MUTATIONS.len())];
        if apply(&mut root, mutation, rng) {
            let mut out = String::with_capacity(input.len() + 16);
            root.write(&mut out);
            if out != original {
                return Some((mutation, out.into_bytes()));
            }
        }
    }
    None
}

/// A JSON value that keeps the exact text of its scalars and member names.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    /// Members in order, each name as its raw token body (between the quotes).
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    /// A string (with its quotes), number or literal, exactly as written.
    Scalar(String),
}

impl Node {
    fn write(&self, out: &mut String) {
        match self {
            Node::Scalar(s) => out.push_str(s),
            Node::Array(elements) => {
                out.push('[');
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    e.write(out);
                }
                out.push(']');
            }
            Node::Object(members) => {
                out.push('{');
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    out.push_str(name);
                    out.push_str("\":");
                    value.write(out);
                }
                out.push('}');
            }
        }
    }

    fn children(&self) -> usize {
        match self {
            Node::Object(m) => m.len(),
            Node::Array(e) => e.len(),
            Node::Scalar(_) => 0,
        }
    }

    fn is_number(&self) -> bool {
        matches!(self, Node::Scalar(s) if s.starts_with(|c: char| c == '-' || c.is_ascii_digit()))
    }

    fn is_string(&self) -> bool {
        matches!(self, Node::Scalar(s) if s.starts_with('"'))
    }

    /// Preorder indices of the nodes that satisfy `pred`.
    fn select(&self, pred: &dyn Fn(&Node) -> bool) -> Vec<usize> {
        fn walk(node: &Node, pred: &dyn Fn(&Node) -> bool, next: &mut usize, out: &mut Vec<usize>) {
            if pred(node) {
                out.push(*next);
            }
            *next += 1;
            match node {
                Node::Object(m) => m.iter().for_each(|(_, v)| walk(v, pred, next, out)),
                Node::Array(e) => e.iter().for_each(|v| walk(v, pred, next, out)),
                Node::Scalar(_) => {}
            }
        }
        let mut out = Vec::new();
        walk(self, pred, &mut 0, &mut out);
        out
    }

    /// The node at preorder index `n`.
    fn nth_mut(&mut self, n: usize) -> Option<&mut Node> {
        fn walk<'n>(node: &'n mut Node, n: usize, next: &mut usize) -> Option<&'n mut Node> {
            if *next == n {
                return Some(node);
            }
            *next += 1;
            match node {
                Node::Object(m) => m.iter_mut().find_map(|(_, v)| walk(v, n, next)),
                Node::Array(e) => e.iter_mut().find_map(|v| walk(v, n, next)),
                Node::Scalar(_) => None,
            }
        }
        walk(self, n, &mut 0)
    }

    fn nth(&self, n: usize) -> Option<&Node> {
        fn walk<'n>(node: &'n Node, n: usize, next: &mut usize) -> Option<&'n Node> {
            if *next == n {
                return Some(node);
            }
            *next += 1;
            match node {
                Node::Object(m) => m.iter().find_map(|(_, v)| walk(v, n, next)),
                Node::Array(e) => e.iter().find_map(|v| walk(v, n, next)),
                Node::Scalar(_) => None,
            }
        }
        walk(self, n, &mut 0)
    }
}

/// Picks a node satisfying `pred` and hands it to `f`; false when none does.
fn pick(
    root: &mut Node,
    rng: &mut Rng,
    pred: &dyn Fn(&Node) -> bool,
    f: impl FnOnce(&mut Node, &mut Rng) -> bool,
) -> bool {
    let candidates = root.select(pred);
    if candidates.is_empty() {
        return false;
    }
    let n = candidates[rng.index(candidates.len())];
    match root.nth_mut(n) {
        Some(node) => f(node, rng),
        None => false,
    }
}

fn apply(root: &mut Node, mutation: Mutation, rng: &mut Rng) -> bool {
    let container = |n: &Node| n.children() > 0;
    match mutation {
        Mutation::Drop => pick(root, rng, &container, |node, rng| {
            match node {
                Node::Object(m) => {
                    m.remove(rng.index(m.len()));
                }
                Node::Array(e) => {
                    e.remove(rng.index(e.len()));
                }
                Node::Scalar(_) => return false,
            }
            true
        }),
        Mutation::Duplicate => pick(root, rng, &container, |node, rng| {
            match node {
                Node::Object(m) => {
                    let copy = m[rng.index(m.len())].clone();
                    m.insert(rng.index(m.len() + 1), copy);
                }
                Node::Array(e) => {
                    let copy = e[rng.index(e.len())].clone();
                    e.insert(rng.index(e.len() + 1), copy);
                }
                Node::Scalar(_) => return false,
            }
            true
        }),
        Mutation::Rename => pick(
            root,
            rng,
            &|n| matches!(n, Node::Object(m) if !m.is_empty()),
            |node, rng| {
                let Node::Object(m) = node else { return false };
                let i = rng.index(m.len());
                m[i].0 = rename(&m[i].0, rng);
                true
            },
        ),
        Mutation::Respell => pick(root, rng, &Node::is_number, |node, rng| {
            let Node::Scalar(s) = node else { return false };
            *s = respell(s, rng);
            true
        }),
        Mutation::ChangeType => pick(root, rng, &|_| true, |node, rng| {
            *node = change_type(node, rng);
            true
        }),
        Mutation::Insert => pick(
            root,
            rng,
            &|n| matches!(n, Node::Object(_) | Node::Array(_)),
            |node, rng| {
                let value = Node::Scalar(VALUES[rng.index(VALUES.len())].to_owned());
                let value = if rng.below(4) == 0 {
                    Node::Object(vec![("_meta".to_owned(), value)])
                } else {
                    value
                };
                match node {
                    Node::Object(m) => {
                        let name = if rng.below(2) == 0 {
                            NAMES[rng.index(NAMES.len())]
                        } else {
                            EXTRA_NAMES[rng.index(EXTRA_NAMES.len())]
                        };
                        m.insert(rng.index(m.len() + 1), (name.to_owned(), value));
                    }
                    Node::Array(e) => e.insert(rng.index(e.len() + 1), value),
                    Node::Scalar(_) => return false,
                }
                true
            },
        ),
        Mutation::Swap => pick(root, rng, &|n| n.children() > 1, |node, rng| {
            let len = node.children();
            let (i, j) = (rng.index(len), rng.index(len));
            match node {
                Node::Object(m) => m.swap(i, j),
                Node::Array(e) => e.swap(i, j),
                Node::Scalar(_) => return false,
            }
            i != j
        }),
        Mutation::EdgeString => pick(root, rng, &Node::is_string, |node, rng| {
            *node = Node::Scalar(format!(
                "\"{}\"",
                EDGE_STRINGS[rng.index(EDGE_STRINGS.len())]
            ));
            true
        }),
        Mutation::Splice => {
            // Copy one subtree over another: grows nesting and moves envelope
            // members (an `id`, an `error` object) to where they do not belong.
            let all = root.select(&|_| true);
            let from = all[rng.index(all.len())];
            let Some(copy) = root.nth(from).cloned() else {
                return false;
            };
            pick(root, rng, &|_| true, |node, _| {
                *node = copy;
                true
            })
        }
        Mutation::Wrap => pick(root, rng, &|_| true, |node, rng| {
            let inner = std::mem::replace(node, Node::Scalar(String::new()));
            *node = if rng.below(2) == 0 {
                Node::Array(vec![inner])
            } else {
                Node::Object(vec![("_meta".to_owned(), inner)])
            };
            true
        }),
        Mutation::Unwrap => pick(root, rng, &container, |node, rng| {
            let inner = match node {
                Node::Object(m) => m.swap_remove(rng.index(m.len())).1,
                Node::Array(e) => e.swap_remove(rng.index(e.len())),
                Node::Scalar(_) => return false,
            };
            *node = inner;
            true
        }),
    }
}

fn rename(name: &str, rng: &mut Rng) -> String {
    match rng.below(4) {
        0 | 1 => NAMES[rng.index(NAMES.len())].to_owned(),
        // The same name spelt with an escape: a codec that compares raw
        // tokens sees a different member.
        2 => match name.chars().next() {
            Some(c) if c.is_ascii_alphanumeric() || c == '_' => {
                format!("\\u{:04x}{}", u32::from(c), &name[c.len_utf8()..])
            }
            _ => format!("{name}x"),
        },
        // A near miss: case changed or a letter added.
        _ => {
            let upper = name.to_ascii_uppercase();
            if upper == name {
                format!("{name}_")
            } else {
                upper
            }
        }
    }
}

/// Another spelling of the same number, or a number at an edge.
fn respell(number: &str, rng: &mut Rng) -> String {
    let integer = number
        .strip_prefix('-')
        .unwrap_or(number)
        .bytes()
        .all(|b| b.is_ascii_digit());
    match rng.below(6) {
        0 if integer => format!("{number}.0"),
        1 if integer => format!("{number}e0"),
        2 if integer => format!("{number}0E-1"),
        3 => match number.strip_prefix('-') {
            Some(positive) => positive.to_owned(),
            None => format!("-{number}"),
        },
        4 => {
            // Change the last digit: an id rounded through a double looks like this.
            let mut bytes = number.as_bytes().to_vec();
            if let Some(last) = bytes.iter_mut().rev().find(|b| b.is_ascii_digit()) {
                *last = if *last == b'9' { b'0' } else { *last + 1 };
            }
            String::from_utf8(bytes).unwrap_or_else(|_| number.to_owned())
        }
        _ => EDGE_NUMBERS[rng.index(EDGE_NUMBERS.len())].to_owned(),
    }
}

/// The value as another JSON type: a number becomes the string that spells it
/// and back, anything else a value of a different type.
fn change_type(node: &Node, rng: &mut Rng) -> Node {
    if rng.below(2) == 0 {
        if let Node::Scalar(s) = node {
            if node.is_number() {
                return Node::Scalar(format!("\"{s}\""));
            }
            if let Some(body) = s.strip_prefix('"').and_then(|b| b.strip_suffix('"')) {
                if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
                    return Node::Scalar(body.to_owned());
                }
            }
        }
    }
    loop {
        let value = Node::Scalar(VALUES[rng.index(VALUES.len())].to_owned());
        if std::mem::discriminant(&value) != std::mem::discriminant(node) || value != *node {
            return value;
        }
    }
}

/// A lenient recursive-descent JSON reader that keeps each token's text. Not a
/// validator: anything it cannot follow is `None`, and the byte mutator takes over.
struct Parser<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Self {
        Parser { text, at: 0 }
    }

    fn document(mut self) -> Option<Node> {
        let root = self.value(0)?;
        self.ws();
        (self.at == self.text.len()).then_some(root)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        self.ws();
        (self.peek() == Some(b)).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match self.peek()? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                if self.eat(b'}').is_some() {
                    return Some(Node::Object(members));
                }
                loop {
                    self.ws();
                    let name = self.string_body()?;
                    self.eat(b':')?;
                    members.push((name, self.value(depth + 1)?));
                    if self.eat(b',').is_none() {
                        self.eat(b'}')?;
                        return Some(Node::Object(members));
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut elements = Vec::new();
                if self.eat(b']').is_some() {
                    return Some(Node::Array(elements));
                }
                loop {
                    elements.push(self.value(depth + 1)?);
                    if self.eat(b',').is_none() {
                        self.eat(b']')?;
                        return Some(Node::Array(elements));
                    }
                }
            }
            b'"' => self.string_body().map(|b| Node::Scalar(format!("\"{b}\""))),
            _ => {
                let start = self.at;
                while matches!(
                    self.peek(),
                    Some(b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'E')
                ) {
                    self.at += 1;
                }
                (self.at > start).then(|| Node::Scalar(self.text[start..self.at].to_owned()))
            }
        }
    }

    /// A string token's body, escapes kept as written.
    fn string_body(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.at + 1;
        let bytes = self.text.as_bytes();
        let mut i = start;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => {
                    self.at = i + 1;
                    return self.text.get(start..i).map(str::to_owned);
                }
                _ => i += 1,
            }
        }
        None
    }
}

/// SplitMix64: small, seedable, good enough to pick mutations and to feed the
/// smoke tests reproducible bytes; no dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator whose sequence is fixed by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform-enough in `0..n`; `n` must be positive.
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    fn index(&mut self, len: usize) -> usize {
        // `len` fits in u64 and the result is below it, so it fits back in usize.
        usize::try_from(self.below(len as u64)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"n":1.5e2},"_meta":{"progressToken":"p"}}}"#;

    fn parse(text: &str) -> Node {
        Parser::new(text).document().unwrap()
    }

    #[test]
    fn parsing_and_writing_keeps_every_token() {
        for text in [
            FRAME,
            r#"[{"a":-0,"\u0069d":"\ud83d\ude00"},[],{},null,true,1e400,"a\"b"]"#,
        ] {
            let mut out = String::new();
            parse(text).write(&mut out);
            assert_eq!(out, text);
        }
        // Whitespace is the one thing dropped.
        let mut out = String::new();
        parse("{ \"a\" : [ 1 , 2 ] }\n").write(&mut out);
        assert_eq!(out, r#"{"a":[1,2]}"#);
    }

    #[test]
    fn what_is_not_json_is_left_to_the_byte_mutator() {
        for text in [
            "",
            "{",
            r#"{"a":1,}"#,
            "[1 2]",
            r#"{"a" 1}"#,
            "\"open",
            "{} x",
        ] {
            assert!(Parser::new(text).document().is_none(), "{text}");
            assert_eq!(mutate_json(text.as_bytes(), 1), None, "{text}");
        }
        let mut deep = "[".repeat(MAX_DEPTH + 2);
        deep.push_str(&"]".repeat(MAX_DEPTH + 2));
        assert_eq!(mutate_json(deep.as_bytes(), 1), None);
        assert_eq!(mutate_json(&[0xff, 0xfe], 1), None);
    }

    /// Every mutation is reached, and each does what its name says on a frame.
    #[test]
    fn every_mutation_does_what_it_says() {
        let before = parse(FRAME);
        let mut seen = Vec::new();
        for seed in 0..4000 {
            let mut rng = Rng::new(seed);
            let (mutation, out) = structural(FRAME.as_bytes(), &mut rng).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_ne!(text, FRAME, "{mutation:?} changed nothing");
            // The output is JSON again (serde_json as a second opinion).
            serde_json::from_str::<serde::de::IgnoredAny>(&text)
                .unwrap_or_else(|e| panic!("{mutation:?} wrote non-JSON {text}: {e}"));
            let after = parse(&text);
            let count = |n: &Node| n.select(&|_| true).len();
            match mutation {
                Mutation::Drop => assert!(count(&after) < count(&before), "{text}"),
                Mutation::Duplicate | Mutation::Insert | Mutation::Wrap => {
                    assert!(count(&after) > count(&before), "{mutation:?}: {text}");
                }
                Mutation::Swap | Mutation::Rename => {
                    assert_eq!(count(&after), count(&before), "{mutation:?}: {text}");
                }
                _ => {}
            }
            if !seen.contains(&mutation) {
                seen.push(mutation);
            }
        }
        for mutation in MUTATIONS {
            assert!(seen.contains(mutation), "{mutation:?} never happened");
        }
    }

    /// These mutations reach the shapes a lossy codec gets wrong.
    #[test]
    fn mutations_reach_the_interesting_shapes() {
        let outputs: Vec<String> = (0..4000)
            .filter_map(|seed| mutate_json(FRAME.as_bytes(), seed))
            .map(|out| String::from_utf8(out).unwrap())
            .collect();
        let any = |f: &dyn Fn(&str) -> bool| outputs.iter().any(|o| f(o));
        assert!(any(&|o| !o.contains("_meta")), "_meta never dropped");
        assert!(
            any(&|o| o.matches("\"id\"").count() == 2),
            "id never duplicated"
        );
        assert!(
            any(&|o| o.contains("\\u0069d")),
            "id never respelt with an escape"
        );
        assert!(
            any(&|o| o.contains("\"id\":7.0") || o.contains("\"id\":7e0")),
            "7 never respelt"
        );
        assert!(
            any(&|o| o.contains("\"id\":\"7\"")),
            "number id never made a string"
        );
        assert!(any(&|o| o.starts_with('[')), "never wrapped into a batch");
    }

    #[test]
    fn the_byte_mutator_takes_what_does_not_parse_and_sizes_hold() {
        let mut called = 0;
        let mut data = *b"{not json}......";
        let n = mutate(&mut data, 10, 16, 3, |d, size, max| {
            called += 1;
            assert_eq!((size, max), (10, 16));
            d[0] = b'X';
            size
        });
        assert_eq!((called, n, data[0]), (1, 10, b'X'));

        // Parsed input never grows past `max_size`: then bytes are mutated instead.
        for seed in 0..500 {
            let mut data = vec![0u8; FRAME.len()];
            data.copy_from_slice(FRAME.as_bytes());
            let n = mutate(&mut data, FRAME.len(), FRAME.len(), seed, |_, size, _| size);
            assert!(n <= FRAME.len());
        }
    }

    /// Crash minimization asks for `max_size < size` (libfuzzer-sys hands over
    /// `max(size, max_size)` bytes): the input must shrink and stay JSON, or the
    /// minimizer finds nothing (it once did, cutting the closing brace).
    #[test]
    fn minimizing_shrinks_by_structure() {
        let input = br#"{"params":"","methow":false,"jsonrpc":"2.0","result":-19,"id":""}"#;
        let mut shrunk_json = 0;
        for seed in 0..200 {
            let mut data = input.to_vec();
            let max = input.len() - 1;
            let n = mutate(&mut data, input.len(), max, seed, |_, _, max| max);
            assert!(n <= max);
            if serde_json::from_slice::<serde::de::IgnoredAny>(&data[..n]).is_ok() {
                shrunk_json += 1;
            }
        }
        assert!(
            shrunk_json > 100,
            "only {shrunk_json} of 200 shrunk inputs are JSON"
        );
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = Rng::new(42);
        for _ in 0..2000 {
            let len = rng.index(64);
            let mut data: Vec<u8> = (0..128)
                .map(|_| b"{}[]\",:0-1e.an\\ u"[rng.index(17)])
                .collect();
            let size = len.min(data.len());
            let seed = u32::try_from(rng.below(u64::from(u32::MAX))).unwrap();
            let n = mutate(&mut data, size, 128, seed, |_, size, _| size);
            assert!(n <= 128);
        }
    }
}
