//! Peer-supplied text made safe to show: every view (a terminal, an XML file,
//! a Markdown page) starts from [`printable`] and adds its own escaping.
//!
//! A frame's bytes come from an implementation under test: they may hold ANSI
//! escape sequences that would repaint a terminal, NUL and other characters
//! XML 1.0 forbids (§2.2 `Char`), bidirectional overrides that make a line read
//! differently than it is, and bytes that are not UTF-8 at all.

use std::fmt::Write as _;

/// `bytes` as text with nothing a screen or a parser would act on: valid UTF-8
/// is kept except control and invisible formatting characters, which become
/// `\n`, `\t`, `\r` or `\u{…}`; bytes that are not UTF-8 become `\xNN`.
#[must_use]
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_char(&mut out, c);
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// ` at `POINTER`` where a violation names a place in the frame; nothing
/// for an empty pointer (the frame as a whole), never "at ``".
#[must_use]
pub fn at_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!(" at `{}`", printable_str(pointer))
    }
}

/// [`printable`] of a `str` (a message, a file name): the same escapes.
#[must_use]
pub fn printable_str(s: &str) -> String {
    printable(s.as_bytes())
}

/// At most `max` characters of [`printable`]`(bytes)`, with `…` when cut, so
/// a sixteen-mebibyte frame does not flood a screen or a report.
#[must_use]
pub fn preview(bytes: &[u8], max: usize) -> String {
    let text = printable(bytes);
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], bytes.len()),
        None => text,
    }
}

fn push_char(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if is_hidden(c) => {
            let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// Characters that act instead of showing: C0 and C1 controls and DEL (ANSI
/// escapes start with ESC or CSI), bidirectional controls and zero-width
/// characters (Unicode UAX #9; the "Trojan Source" attack), the byte order mark,
/// and the noncharacters U+FFFE and U+FFFF, which XML 1.0 does not allow.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFFE}'
                | '\u{FFFF}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_invalid_bytes_are_shown_not_acted_on() {
        assert_eq!(printable(b"a\x1b[31mb"), "a\\u{001B}[31mb");
        assert_eq!(printable(b"\x00\x7f\n"), "\\u{0000}\\u{007F}\\n");
        assert_eq!(printable("\u{9b}2J".as_bytes()), "\\u{009B}2J");
        assert_eq!(printable("x\u{202E}y".as_bytes()), "x\\u{202E}y");
        assert_eq!(
            printable(b"\xff\xfe ok \xed\xa0\x80"),
            "\\xFF\\xFE ok \\xED\\xA0\\x80"
        );
        assert_eq!(printable("é ]]> \\ud800".as_bytes()), "é ]]> \\ud800");
    }

    #[test]
    fn previews_are_cut_on_characters() {
        assert_eq!(preview("ééé".as_bytes(), 2), "éé… (6 bytes)");
        assert_eq!(preview(b"abc", 3), "abc");
    }
}
