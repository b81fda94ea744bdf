//! The user's own headers (`--header 'NAME: VALUE'`, `--header-env
//! NAME=ENVVAR`): an API key or a bearer token a deployed server wants on
//! every request. Their values are secrets: marked sensitive (reqwest and
//! the exhibits never show them), and only their names are ever printed.

use std::fmt;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

/// Headers the transports and probes set themselves, some left out or
/// forged on purpose: a user's default would be added where a probe omits
/// one, and the probe's verdict would be about the user's header.
const PROTOCOL: &[&str] = &[
    "host",
    "content-type",
    "content-length",
    "accept",
    "origin",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "transfer-encoding",
    "connection",
];

/// Values shorter than this are not looked for inside other text: `1` or
/// `on` would be found in every port and word. A token is longer.
const REDACT_FROM: usize = 8;

/// One header the user asked for, its value marked sensitive.
#[derive(Clone, PartialEq, Eq)]
pub struct UserHeader {
    name: HeaderName,
    value: HeaderValue,
}

impl UserHeader {
    /// Parses `NAME: VALUE` (`--header`).
    ///
    /// # Errors
    /// No colon, or a name or value HTTP does not allow; the text never
    /// repeats the value.
    pub fn parse(given: &str) -> Result<UserHeader, String> {
        let (name, value) = given
            .split_once(':')
            .ok_or_else(|| "expected `NAME: VALUE` (a colon after the header's name)".to_owned())?;
        Self::new(name.trim(), value.trim())
    }

    /// Parses `NAME=ENVVAR` (`--header-env`): the header's value is the
    /// variable's, read now, so a token never sits on the command line.
    ///
    /// # Errors
    /// No `=`, the variable is unset or not Unicode, or HTTP refuses the
    /// name or value.
    pub fn from_env(given: &str) -> Result<UserHeader, String> {
        let (name, var) = given.split_once('=').ok_or_else(|| {
            "expected `NAME=ENVVAR` (the header, `=`, the variable holding its value)".to_owned()
        })?;
        // Not `VarError`'s own text: a value that is not Unicode is shown
        // in it.
        let value = std::env::var(var.trim()).map_err(|e| match e {
            std::env::VarError::NotPresent => format!("${} is not set", var.trim()),
            std::env::VarError::NotUnicode(_) => format!("${} is not Unicode", var.trim()),
        })?;
        Self::new(name.trim(), value.trim())
    }

    fn new(name: &str, value: &str) -> Result<UserHeader, String> {
        // The name is not repeated: a value typed without its colon would
        // be all name.
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| "the text before the first colon is not an HTTP header name".to_owned())?;
        if PROTOCOL.contains(&name.as_str()) {
            return Err(format!(
                "`{name}` is the protocol's own header: the transports and probes set it, each as the probe needs (a probe that leaves it out on purpose must be able to)"
            ));
        }
        let mut value = HeaderValue::from_str(value).map_err(|_| {
            format!("the value of `{name}` holds a character HTTP does not allow in a header")
        })?;
        value.set_sensitive(true);
        Ok(UserHeader { name, value })
    }

    /// The header's name, lowercase.
    #[must_use]
    pub fn name(&self) -> &str {
        self.name.as_str()
    }

    /// The secret, for redacting it from what the tool writes.
    #[must_use]
    pub fn value(&self) -> &[u8] {
        self.value.as_bytes()
    }
}

impl fmt::Debug for UserHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: (redacted)", self.name)
    }
}

/// Every header the user asked for, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserHeaders(pub Vec<UserHeader>);

impl UserHeaders {
    /// The headers as reqwest's defaults: a request that sets one itself
    /// (an authorization probe's own `Authorization`) keeps its own.
    #[must_use]
    pub fn header_map(&self) -> HeaderMap {
        let mut map = HeaderMap::new();
        for header in &self.0 {
            map.append(header.name.clone(), header.value.clone());
        }
        map
    }

    /// Whether the user set `name` (lowercase).
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|h| h.name() == name)
    }

    /// `text` with every value of at least [`REDACT_FROM`] characters, and
    /// the credential after an auth scheme (`Bearer tok…`), replaced by
    /// `(redacted)`: for the command line and the target a run document
    /// records, where a value may sit in some other argument.
    #[must_use]
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for header in &self.0 {
            let Ok(secret) = std::str::from_utf8(header.value()) else {
                continue;
            };
            let credential = secret.split_once(' ').map(|(_, c)| c.trim());
            for part in std::iter::once(secret).chain(credential) {
                if part.len() >= REDACT_FROM {
                    out = out.replace(part, "(redacted)");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_parses_and_never_shows_its_value() {
        let h = UserHeader::parse("X-Api-Key:  s3cret ").unwrap();
        assert_eq!(h.name(), "x-api-key");
        assert_eq!(h.value(), b"s3cret");
        assert_eq!(format!("{h:?}"), "x-api-key: (redacted)");
        let map = UserHeaders(vec![h]).header_map();
        assert!(map["x-api-key"].is_sensitive());
        assert!(!format!("{map:?}").contains("s3cret"));
    }

    #[test]
    fn bad_headers_are_refused_without_echoing_the_value() {
        let no_colon = UserHeader::parse("Authorization Bearer s3cret").unwrap_err();
        assert!(no_colon.contains("NAME: VALUE"), "{no_colon}");
        assert!(!no_colon.contains("s3cret"));
        let bad_value = UserHeader::parse("X-Key: s3cret\u{7f}").unwrap_err();
        assert!(!bad_value.contains("s3cret"), "{bad_value}");
        let bad_name = UserHeader::parse("Bearer s3cret-token: v").unwrap_err();
        assert!(!bad_name.contains("s3cret"), "{bad_name}");
        let protocol = UserHeader::parse("Mcp-Session-Id: abc").unwrap_err();
        assert!(protocol.contains("protocol"), "{protocol}");
    }

    #[test]
    fn a_header_from_the_environment_reads_the_variable() {
        // The PATH is set in every test environment; no variable is set here,
        // since tests share the process's environment.
        let path = std::env::var("PATH").unwrap();
        let h = UserHeader::from_env("X-Path=PATH").unwrap();
        assert_eq!(h.value(), path.trim().as_bytes());
        let unset = UserHeader::from_env("X-Key=WIRECHECK_SURELY_UNSET_VARIABLE").unwrap_err();
        assert!(unset.contains("WIRECHECK_SURELY_UNSET_VARIABLE"), "{unset}");
        assert!(UserHeader::from_env("X-Key")
            .unwrap_err()
            .contains("NAME=ENVVAR"));
    }

    #[test]
    fn redaction_removes_every_value() {
        let headers = UserHeaders(vec![
            UserHeader::parse("Authorization: Bearer token-1234").unwrap(),
            UserHeader::parse("X-Key: key-56789").unwrap(),
            UserHeader::parse("X-Debug: 1").unwrap(),
        ]);
        assert_eq!(
            headers.redact("--header Authorization: Bearer token-1234 --header X-Key: key-56789"),
            "--header Authorization: (redacted) --header X-Key: (redacted)"
        );
        // The credential alone, wherever it appears; a short value nowhere.
        assert_eq!(
            headers.redact("http://127.0.0.1:3001/mcp?t=token-1234"),
            "http://127.0.0.1:3001/mcp?t=(redacted)"
        );
        assert!(headers.has("x-key"));
        assert!(!headers.has("cookie"));
    }
}
