//! The connections of `load`'s HTTP client: HTTP/1.1 straight on hyper, one
//! kept-alive connection per request slot, made again when the server closed
//! it or a body was left unread.

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::client::conn::http1::SendRequest;
use hyper::header::HeaderValue;
use hyper::{Request, Response, Uri};

use crate::transport::error::error_chain;
use crate::transport::tls::Trust;
use rustls::pki_types::ServerName;

/// Where a session's requests go, parsed once.
pub(super) struct Endpoint {
    /// Over `https://`, the connector of the run's one [`Trust`] and the name
    /// the certificate must carry.
    ///
    /// [`Trust`]: crate::transport::tls::Trust
    pub(super) tls: Option<(tokio_rustls::TlsConnector, ServerName<'static>)>,
    /// What a connection is made to: an IP address as written (bare for
    /// IPv6), or a name resolved at each connection.
    pub(super) host: String,
    pub(super) port: u16,
    /// The request target: the path and query (RFC 9112 §3.2.1, origin form).
    pub(super) target: Uri,
    /// RFC 9112 §3.2: "A client MUST send a Host header field in all
    /// HTTP/1.1 request messages"; the host and any port not the default.
    pub(super) authority: HeaderValue,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("tls", &self.tls.is_some())
            .field("host", &self.host)
            .field("port", &self.port)
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// `url`, `http:` or `https:` (trusting `trust`).
    pub(super) fn parse(url: &str, trust: &Trust) -> Result<Self, String> {
        let parsed = reqwest::Url::parse(url).map_err(|e| format!("{url}: not a URL: {e}"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(format!("{url}: not an http:// or https:// URL"));
        }
        let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
            return Err(format!("{url}: no host to connect to"));
        };
        let authority = match parsed.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        let target = match parsed.query() {
            Some(query) => format!("{}?{query}", parsed.path()),
            None => parsed.path().to_owned(),
        };
        // An IPv6 address is bracketed in a URL and a Host header, bare to
        // connect to.
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let tls = if parsed.scheme() == "https" {
            let name = ServerName::try_from(host.clone())
                .map_err(|e| format!("{url}: not a server name for TLS: {e}"))?;
            Some((trust.connector(), name))
        } else {
            None
        };
        Ok(Endpoint {
            tls,
            host,
            port,
            target: target
                .parse()
                .map_err(|e| format!("{url}: not a request target: {e}"))?,
            authority: HeaderValue::from_str(&authority)
                .map_err(|_| format!("{url}: not a Host header value: {authority}"))?,
        })
    }
}

/// A request slot's connection, kept open from one of its requests to the
/// next (RFC 9112 §9.3, persistent connections) and made again when the
/// server closed it or a body was left unread.
#[derive(Default)]
pub struct Conn {
    sender: Option<Sender>,
    /// The task that reads and writes it.
    io: Option<Io>,
}

/// Where a connection's requests are handed to hyper.
type Sender = SendRequest<Full<Bytes>>;

/// A connection's task.
type Io = tokio::task::JoinHandle<hyper::Result<()>>;

impl Conn {
    /// Sends `request` on the kept connection, or on a new one; the
    /// response's head.
    ///
    /// A kept connection may have been closed by the server since its last
    /// answer: a request that was not written on it goes once more on a new
    /// connection, as a pooling client retries it.
    pub(super) async fn send(
        &mut self,
        to: &Endpoint,
        request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, String> {
        let mut kept = self.sender.take();
        if let Some(sender) = &mut kept {
            if sender.ready().await.is_err() {
                kept = None; // closed while idle
            }
        }
        let reused = kept.is_some();
        let mut sender = match kept {
            Some(sender) => sender,
            None => self.connect(to).await?,
        };
        let request = match sender.try_send_request(request).await {
            Ok(response) => {
                self.sender = Some(sender);
                return Ok(response);
            }
            Err(mut e) => match e.take_message() {
                Some(unsent) if reused => unsent,
                _ => return Err(error_chain(e.error())),
            },
        };
        let mut sender = self.connect(to).await?;
        let response = sender
            .try_send_request(request)
            .await
            .map_err(|e| error_chain(e.error()))?;
        self.sender = Some(sender);
        Ok(response)
    }

    /// Closes the connection at once (a body left unread, a wait cut), as
    /// dropping a `reqwest` response did: its task, parked until the server
    /// writes again, would otherwise hold the socket open until then. The
    /// next request makes a new one.
    pub(super) fn close(&mut self) {
        self.sender = None;
        if let Some(io) = self.io.take() {
            io.abort();
        }
    }

    /// A new connection to `to`, in place of the one before (closed).
    async fn connect(&mut self, to: &Endpoint) -> Result<Sender, String> {
        self.close();
        let (sender, io) = connect(to).await?;
        self.io = Some(io);
        Ok(sender)
    }
}

/// A new connection to `to`, its reading and writing run by a task of its
/// own until its [`SendRequest`] is dropped.
async fn connect(to: &Endpoint) -> Result<(Sender, Io), String> {
    let stream = tokio::net::TcpStream::connect((to.host.as_str(), to.port))
        .await
        .map_err(|e| format!("cannot connect to {}:{}: {e}", to.host, to.port))?;
    // A request is one small write: sent at once, not held for Nagle.
    stream
        .set_nodelay(true)
        .map_err(|e| format!("cannot set TCP_NODELAY: {e}"))?;
    if let Some((connector, name)) = &to.tls {
        let stream = connector
            .connect(name.clone(), stream)
            .await
            .map_err(|e| format!("TLS with {}:{}: {}", to.host, to.port, error_chain(&e)))?;
        let (sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(|e| error_chain(&e))?;
        return Ok((sender, tokio::spawn(connection)));
    }
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| error_chain(&e))?;
    Ok((sender, tokio::spawn(connection)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endpoint_is_parsed_once_into_what_a_request_needs() {
        let trust = Trust::default();
        let e = Endpoint::parse("http://127.0.0.1:8080/mcp?x=1", &trust).unwrap();
        assert_eq!((e.host.as_str(), e.port), ("127.0.0.1", 8080));
        assert_eq!(e.target, "/mcp?x=1");
        assert_eq!(e.authority, "127.0.0.1:8080");
        let v6 = Endpoint::parse("http://[::1]/mcp", &trust).unwrap();
        assert_eq!(
            (v6.host.as_str(), v6.port),
            ("::1", 80),
            "bare to connect to"
        );
        assert_eq!(v6.authority, "[::1]", "the default port is not named");
        assert!(e.tls.is_none());
        let secure = Endpoint::parse("https://example.com/mcp", &trust).unwrap();
        assert_eq!((secure.host.as_str(), secure.port), ("example.com", 443));
        assert!(secure.tls.is_some());
        assert!(Endpoint::parse("ftp://example.com/mcp", &trust)
            .unwrap_err()
            .contains("not an http:// or https://"));
        assert!(Endpoint::parse("not a url", &trust)
            .unwrap_err()
            .contains("not a URL"));
    }
}
