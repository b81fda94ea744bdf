//! Which transport: the one type every command, record and manifest names a
//! transport by, with the one spelling of each name and the one parser.
//!
//! The names are user-visible (the `transport` of every record, baseline
//! ids such as `run/2025-11-25/stdio/...`, `wirecheck run --transport`, the
//! matrix manifest's `transports`): `stdio`, `streamable-http`, `sse` and
//! `jsonrpc-http`, in the records of every command (`fuzz` and `load`
//! included). Only `wirecheck run-client --transport` takes the shorter
//! `http` for Streamable HTTP ([`Kind::short_name`]), as an input word.

use std::fmt;
use std::str::FromStr;

/// A transport between wirecheck and the peer it judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Newline-delimited frames on the child's standard input and output.
    Stdio,
    /// One of the HTTP transports.
    Http(HttpKind),
}

/// Which HTTP transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HttpKind {
    /// MCP Streamable HTTP (2025-03-26 on): one endpoint, a POST per message.
    Streamable,
    /// The 2024-11-05 HTTP+SSE transport: a GET stream and an `endpoint`.
    Sse,
    /// Plain JSON-RPC 2.0 over HTTP: a POST per frame, the answer in the body.
    JsonRpc,
}

impl Kind {
    /// MCP Streamable HTTP.
    pub const STREAMABLE_HTTP: Kind = Kind::Http(HttpKind::Streamable);

    /// Every transport, in order (the order of [`Kind`]'s `Ord`).
    pub const ALL: [Kind; 4] = [
        Kind::Stdio,
        Kind::Http(HttpKind::Streamable),
        Kind::Http(HttpKind::Sse),
        Kind::Http(HttpKind::JsonRpc),
    ];

    /// The name records carry in their `transport` field, `wirecheck run
    /// --transport` takes and the matrix manifest writes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Stdio => "stdio",
            Kind::Http(kind) => kind.name(),
        }
    }

    /// The shorter word `wirecheck run-client --transport` takes: `stdio`,
    /// or `http` for any HTTP transport (it speaks Streamable HTTP only).
    #[must_use]
    pub fn short_name(self) -> &'static str {
        match self {
            Kind::Stdio => "stdio",
            Kind::Http(_) => "http",
        }
    }

    /// The transport [`Kind::short_name`] names: `stdio` or `http`
    /// (Streamable HTTP).
    #[must_use]
    pub fn from_short_name(name: &str) -> Option<Kind> {
        match name {
            "stdio" => Some(Kind::Stdio),
            "http" => Some(Kind::STREAMABLE_HTTP),
            _ => None,
        }
    }

    /// Whether frames travel as one ordered stream each way (stdio), which
    /// the session judge may rely on; HTTP's POSTs and streams are not.
    #[must_use]
    pub fn is_ordered(self) -> bool {
        self == Kind::Stdio
    }
}

impl HttpKind {
    /// The name records carry in their `transport` field and `--transport` takes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            HttpKind::Streamable => "streamable-http",
            HttpKind::Sse => "sse",
            HttpKind::JsonRpc => "jsonrpc-http",
        }
    }

    /// The path the reference peer (`serve --http`) serves this transport at.
    #[must_use]
    pub fn reference_path(self) -> &'static str {
        match self {
            HttpKind::Streamable => "/mcp",
            HttpKind::Sse => "/sse",
            HttpKind::JsonRpc => "/",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for HttpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;

    /// One of [`Kind::name`]'s names.
    fn from_str(s: &str) -> Result<Self, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("transport `{s}`: stdio, streamable-http, sse or jsonrpc-http"))
    }
}

impl FromStr for HttpKind {
    type Err = String;

    /// One of [`HttpKind::name`]'s names (`wirecheck run --transport`).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.parse::<Kind>() {
            Ok(Kind::Http(kind)) => Ok(kind),
            _ => Err(format!(
                "transport `{s}`: streamable-http, sse or jsonrpc-http"
            )),
        }
    }
}

/// Read by [`Kind::name`], as a unit variant is: an unknown name is serde's
/// `unknown variant` error, listing the names.
impl<'de> serde::Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &["stdio", "streamable-http", "sse", "jsonrpc-http"];
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Kind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("variant identifier")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Kind, E> {
                s.parse().map_err(|_| E::unknown_variant(s, NAMES))
            }
        }
        deserializer.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for kind in Kind::ALL {
            assert_eq!(kind.name().parse::<Kind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(
            Kind::from_short_name(Kind::STREAMABLE_HTTP.short_name()),
            Some(Kind::STREAMABLE_HTTP)
        );
        assert_eq!("stdio".parse::<HttpKind>().ok(), None);
        assert_eq!("sse".parse::<HttpKind>(), Ok(HttpKind::Sse));
    }
}
