//! TLS, in one place. [`Trust`] is what every HTTP client of the tool is
//! built with (the transports, the runner's own probes, `load`'s connections,
//! the proxy's upstream), so they all trust the same roots and a `--cacert`
//! or `--insecure` reaches each of them; [`inspect`] tells what a server's
//! TLS looked like for the run document; [`TlsListener`] serves TLS for
//! `serve --http` and `proxy --listen`, so HTTPS is judged end to end on
//! loopback.

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use report::TlsSeen;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, ServerConfig, SignatureScheme};
use sha2::{Digest as _, Sha256};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_rustls::{TlsAcceptor, TlsConnector};

use super::error::error_chain;

/// A TLS setting that could not be made: a file that does not read or holds
/// no certificate or key, or rustls refusing what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsError(pub String);

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TlsError {}

/// The one crypto provider: ring (pure Rust and assembly, no C toolchain
/// beyond what `cc` finds), named rather than left to the process default
/// so that no other crate's choice changes it.
#[expect(
    deprecated,
    reason = "ring lacks the post-quantum hybrid key exchange; aws-lc-rs has it but needs cmake and a long C build, and a judge of a server's protocol needs a working handshake, not the strongest one"
)]
fn provider() -> Arc<CryptoProvider> {
    static PROVIDER: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
    Arc::clone(PROVIDER.get_or_init(|| Arc::new(rustls::crypto::ring::default_provider())))
}

/// Which servers a client believes: Mozilla's roots (webpki-roots, the same
/// on every machine) and the CAs of `--cacert`, or, with `--insecure` only,
/// any certificate at all.
#[derive(Clone)]
pub struct Trust {
    config: Arc<ClientConfig>,
    verified: bool,
}

impl Trust {
    /// Mozilla's roots plus every certificate in the PEM files `cacerts`;
    /// with `insecure`, no certificate is verified (signatures still are).
    ///
    /// # Errors
    /// A file does not read or holds no certificate, or rustls refuses one.
    pub fn new(cacerts: &[PathBuf], insecure: bool) -> Result<Trust, TlsError> {
        let mut roots = RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        for file in cacerts {
            let mut found = 0usize;
            for cert in CertificateDer::pem_file_iter(file).map_err(|e| pem_error(file, &e))? {
                let cert = cert.map_err(|e| pem_error(file, &e))?;
                roots.add(cert).map_err(|e| {
                    TlsError(format!(
                        "--cacert {}: not a CA certificate: {e}",
                        file.display()
                    ))
                })?;
                found += 1;
            }
            if found == 0 {
                return Err(TlsError(format!(
                    "--cacert {}: no PEM certificate (`-----BEGIN CERTIFICATE-----`) in the file",
                    file.display()
                )));
            }
        }
        let builder = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError(e.to_string()))?;
        let mut config = if insecure {
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate(provider())))
                .with_no_client_auth()
        } else {
            builder.with_root_certificates(roots).with_no_client_auth()
        };
        // The transports speak HTTP/1.1 only; a server that insists on ALPN
        // learns so in the handshake.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Trust {
            config: Arc::new(config),
            verified: !insecure,
        })
    }

    /// Whether certificates are verified (not `--insecure`).
    #[must_use]
    pub fn verifies(&self) -> bool {
        self.verified
    }

    /// The rustls configuration, for reqwest's `use_preconfigured_tls`.
    #[must_use]
    pub fn client_config(&self) -> ClientConfig {
        ClientConfig::clone(&self.config)
    }

    /// A connector for a client that dials TLS itself (`load`'s).
    #[must_use]
    pub fn connector(&self) -> TlsConnector {
        TlsConnector::from(Arc::clone(&self.config))
    }
}

impl Default for Trust {
    /// Mozilla's roots, every certificate verified.
    fn default() -> Self {
        static DEFAULT: OnceLock<Trust> = OnceLock::new();
        DEFAULT
            .get_or_init(|| Trust::new(&[], false).expect("the built-in roots always load"))
            .clone()
    }
}

impl fmt::Debug for Trust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trust")
            .field("verified", &self.verified)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Trust {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.config, &other.config)
    }
}

impl Eq for Trust {}

fn pem_error(file: &Path, error: &dyn std::error::Error) -> TlsError {
    TlsError(format!("{}: {}", file.display(), error_chain(error)))
}

/// `--insecure`: any certificate for any name is believed, while the
/// handshake's signatures are still checked (a server must hold the key of
/// the certificate it shows).
#[derive(Debug)]
struct AcceptAnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// The host and port of an `https://` URL, for a handshake of our own.
fn host_port(url: &str) -> Result<(String, u16), String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("`{url}`: {e}"))?;
    let host = parsed
        .host_str()
        .ok_or_else(|| format!("`{url}`: no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let port = parsed.port_or_known_default().unwrap_or(443);
    Ok((host, port))
}

/// One TLS handshake with the server at `url`, to say in the run document
/// what it showed: the version and cipher suite agreed and the SHA-256 of
/// its certificate. reqwest does not expose the version, so this is a
/// connection of its own, made with the same [`Trust`] as the run's.
///
/// # Errors
/// The server cannot be reached or the handshake fails (the text says why,
/// an unknown issuer included).
pub async fn inspect(url: &str, trust: &Trust, within: Duration) -> Result<TlsSeen, String> {
    let (host, port) = host_port(url)?;
    let name = ServerName::try_from(host.clone()).map_err(|e| format!("`{host}`: {e}"))?;
    let handshake = async {
        let tcp = TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| format!("connecting to {host}:{port}: {e}"))?;
        trust
            .connector()
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS handshake with {host}:{port}: {}", error_chain(&e)))
    };
    let stream = tokio::time::timeout(within, handshake)
        .await
        .map_err(|_| format!("TLS handshake with {host}:{port}: no answer within {within:?}"))??;
    let (_, connection) = stream.get_ref();
    let certificate = connection
        .peer_certificates()
        .and_then(<[CertificateDer<'_>]>::first)
        .map(|leaf| hex(&Sha256::digest(leaf.as_ref())))
        .unwrap_or_default();
    Ok(TlsSeen {
        version: connection
            .protocol_version()
            .and_then(|v| v.as_str())
            .unwrap_or("unknown")
            .to_owned(),
        cipher_suite: connection
            .negotiated_cipher_suite()
            .and_then(|s| s.suite().as_str())
            .unwrap_or("unknown")
            .to_owned(),
        certificate_sha256: certificate,
        verified: trust.verifies(),
    })
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// A server's certificate chain and key (`--tls-cert`, `--tls-key`).
#[derive(Clone)]
pub struct Certified {
    config: Arc<ServerConfig>,
}

impl Certified {
    /// The chain in the PEM file `cert` and the private key in `key`.
    ///
    /// # Errors
    /// A file does not read, holds no certificate or key, or the key does
    /// not match.
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Certified, TlsError> {
        let chain = CertificateDer::pem_file_iter(cert)
            .map_err(|e| pem_error(cert, &e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error(cert, &e))?;
        if chain.is_empty() {
            return Err(TlsError(format!(
                "--tls-cert {}: no PEM certificate in the file",
                cert.display()
            )));
        }
        let key = PrivateKeyDer::from_pem_file(key).map_err(|e| pem_error(key, &e))?;
        Self::from_der(chain, key)
    }

    /// A chain and key already in memory (the tests' minted ones).
    ///
    /// # Errors
    /// rustls refuses them (the key does not match the certificate).
    pub fn from_der(
        chain: Vec<CertificateDer<'static>>,
        key: PrivateKeyDer<'static>,
    ) -> Result<Certified, TlsError> {
        let mut config = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| TlsError(format!("the certificate and key: {e}")))?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Certified {
            config: Arc::new(config),
        })
    }
}

impl fmt::Debug for Certified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Certified").finish_non_exhaustive()
    }
}

/// How long a client may take over its handshake before it is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How many handshaken connections wait for the server to take them.
const WAITING: usize = 64;

/// How many handshakes run at once: a connection past them is closed at
/// once, so a flood of idle connections costs a bounded number of tasks.
const HANDSHAKING: usize = 256;

/// A TCP listener that hands out TLS connections. Each handshake runs in a
/// task of its own, bounded by a timeout, so a client that connects and says
/// nothing holds up no one else.
pub struct TlsListener {
    addr: SocketAddr,
    ready: mpsc::Receiver<(tokio_rustls::server::TlsStream<TcpStream>, SocketAddr)>,
    acceptor: JoinHandle<()>,
}

impl TlsListener {
    /// Serves TLS with `certified` on the connections `tcp` accepts.
    ///
    /// # Errors
    /// The listener's address cannot be read.
    pub fn new(tcp: TcpListener, certified: &Certified) -> io::Result<TlsListener> {
        let addr = tcp.local_addr()?;
        let tls = TlsAcceptor::from(Arc::clone(&certified.config));
        let (tx, ready) = mpsc::channel(WAITING);
        let handshaking = Arc::new(tokio::sync::Semaphore::new(HANDSHAKING));
        let acceptor = tokio::spawn(async move {
            loop {
                let Ok((tcp, peer)) = tcp.accept().await else {
                    // Out of descriptors, most often: wait rather than spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                // As the plain listeners do: a streamed answer's head and body,
                // written apart, must not wait on Nagle's algorithm.
                let _ = tcp.set_nodelay(true);
                let Ok(permit) = Arc::clone(&handshaking).try_acquire_owned() else {
                    continue; // dropped: closed
                };
                let (tls, tx) = (tls.clone(), tx.clone());
                tokio::spawn(async move {
                    // A failed handshake is the client's business: nothing
                    // reaches the server. The wait for the server to take
                    // the connection is bounded too.
                    if let Ok(Ok(stream)) =
                        tokio::time::timeout(HANDSHAKE_TIMEOUT, tls.accept(tcp)).await
                    {
                        drop(permit);
                        let _ =
                            tokio::time::timeout(HANDSHAKE_TIMEOUT, tx.send((stream, peer))).await;
                    }
                });
            }
        });
        Ok(TlsListener {
            addr,
            ready,
            acceptor,
        })
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.acceptor.abort();
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(connection) => connection,
            // The acceptor ended (only on abort): nothing more will come.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        Ok(self.addr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cacert_without_a_certificate_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("wirecheck-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let error = Trust::new(&[empty], false).unwrap_err();
        assert!(error.0.contains("no PEM certificate"), "{error}");
        assert!(error.0.contains("empty.pem"), "{error}");
        let missing = dir.join("missing.pem");
        let error = Trust::new(&[missing], false).unwrap_err();
        assert!(error.0.contains("missing.pem"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_insecure_turns_verification_off() {
        assert!(Trust::default().verifies());
        assert!(Trust::new(&[], false).unwrap().verifies());
        assert!(!Trust::new(&[], true).unwrap().verifies());
    }

    #[test]
    fn the_port_defaults_to_https() {
        assert_eq!(
            host_port("https://example.org/mcp").unwrap(),
            ("example.org".to_owned(), 443)
        );
        assert_eq!(
            host_port("https://[::1]:8443/mcp").unwrap(),
            ("::1".to_owned(), 8443)
        );
    }
}
