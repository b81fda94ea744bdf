//! What a judged client did over HTTP, as the protected reference peer and
//! wirecheck's authorization server saw it (`serve --http --judge --auth`):
//! one log, in arrival order, that both write to and
//! [`client_judge`](super::client_judge) reads at the end.
//!
//! The log holds the tokens the authorization server issued and the
//! `Authorization` values the client sent, so the judge can compare them; it
//! lives in memory only, and no record quotes a token.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::sync::lock;

/// The most events kept: a client looping on a refusal cannot grow the log
/// without end; what comes after is not judged.
const CAP: usize = 20_000;

/// One request, to either server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A request to the MCP server (any path), and how it was answered.
    Resource {
        /// `GET`, `POST`, `DELETE`.
        method: String,
        /// The path, without the query.
        path: String,
        /// The raw query string, if any.
        query: Option<String>,
        /// The `Authorization` header as sent.
        authorization: Option<String>,
        /// The `MCP-Protocol-Version` header as sent: the revision the
        /// client speaks, known even when every request was refused.
        protocol_version: Option<String>,
        /// The status answered.
        status: u16,
        /// The `WWW-Authenticate` value answered, if any.
        challenge: Option<String>,
        /// For a 403 for insufficient scope: the operation refused
        /// (`tools/call echo`).
        refused: Option<String>,
    },
    /// A request to the authorization server, and its status.
    Issuer {
        /// `GET`, `POST`.
        method: String,
        /// The path, without the query.
        path: String,
        /// The query's parameters (an authorization request's).
        params: BTreeMap<String, String>,
        /// The status answered.
        status: u16,
    },
    /// A token request, as the token endpoint read it.
    Token {
        /// The form's parameters, `code_verifier` and `code` among them.
        params: BTreeMap<String, String>,
        /// Whether the verifier matched the challenge of the code redeemed
        /// (`None`: the code was unknown or no verifier was sent).
        verifier_matched: Option<bool>,
        /// The access token issued, if one was.
        issued: Option<String>,
        /// The scope it was granted.
        granted: Option<String>,
    },
}

/// The shared log.
#[derive(Debug, Clone, Default)]
pub struct Log(Arc<Mutex<Vec<Event>>>);

impl Log {
    /// Appends `event`, unless the log is full.
    pub fn push(&self, event: Event) {
        let mut events = lock(&self.0);
        if events.len() < CAP {
            events.push(event);
        }
    }

    /// Every event so far, in order.
    #[must_use]
    pub fn events(&self) -> Vec<Event> {
        lock(&self.0).clone()
    }
}

/// The parameters of a query string or form body.
#[must_use]
pub fn params(encoded: &str) -> BTreeMap<String, String> {
    // The `url` crate's form decoder, through the URL type reqwest exports.
    let mut url = reqwest::Url::parse("http://x/").expect("a valid URL");
    url.set_query(Some(encoded));
    url.query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}
