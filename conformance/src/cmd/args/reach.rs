//! How a command reaches a server over HTTP beyond its URL: whom TLS trusts
//! (`--cacert`, `--insecure`) and the user's own headers (`--header`,
//! `--header-env`). One group, flattened into every command that connects
//! out, so each builds its clients from the same [`HttpOptions`].

use std::path::PathBuf;

use crate::transport::headers::{UserHeader, UserHeaders};
use crate::transport::http::HttpOptions;
use crate::transport::tls::Trust;

/// `--header`, `--header-env`, `--cacert`, `--insecure`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReachArgs {
    /// A header sent on every request to the server, `'NAME: VALUE'`
    /// (repeatable): an API key, a bearer token. Its value is never shown
    /// in any output; prefer --header-env, which keeps it off the command
    /// line.
    #[arg(long = "header", value_name = "NAME: VALUE", value_parser = HeaderArg { from_env: false })]
    pub header: Vec<UserHeader>,
    /// A header whose value is the environment variable ENVVAR's, read at
    /// start (repeatable): `--header-env Authorization=MCP_AUTH` with
    /// `MCP_AUTH='Bearer …'`. Never shown in any output.
    #[arg(long = "header-env", value_name = "NAME=ENVVAR", value_parser = HeaderArg { from_env: true })]
    pub header_env: Vec<UserHeader>,
    /// Also trust the CA certificates in this PEM file for `https://`
    /// (repeatable): a private CA. Mozilla's roots are always trusted.
    #[arg(long, value_name = "FILE")]
    pub cacert: Vec<PathBuf>,
    /// Do not verify the server's certificate over `https://` (a
    /// self-signed test server). Only ever by name; `run` says so on its
    /// `judged:` line and in the run document.
    #[arg(long)]
    pub insecure: bool,
}

/// Parses `--header` or `--header-env` into a [`UserHeader`]. Not a plain
/// function parser: clap would repeat the rejected text, a token among it,
/// in its error.
#[derive(Clone)]
pub struct HeaderArg {
    /// `--header-env NAME=ENVVAR` rather than `--header 'NAME: VALUE'`.
    pub from_env: bool,
}

impl clap::builder::TypedValueParser for HeaderArg {
    type Value = UserHeader;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<UserHeader, clap::Error> {
        let flag = if self.from_env {
            "--header-env"
        } else {
            "--header"
        };
        let parsed = match value.to_str() {
            None => Err("is not Unicode".to_owned()),
            Some(text) if self.from_env => UserHeader::from_env(text),
            Some(text) => UserHeader::parse(text),
        };
        parsed.map_err(|why| {
            cmd.clone().error(
                clap::error::ErrorKind::ValueValidation,
                format!("{flag}: {why} (the value given is not shown: it may hold a secret)"),
            )
        })
    }
}

impl ReachArgs {
    /// The user's headers, in the order given (`--header` first).
    #[must_use]
    pub fn headers(&self) -> UserHeaders {
        UserHeaders(
            self.header
                .iter()
                .chain(&self.header_env)
                .cloned()
                .collect(),
        )
    }

    /// Whether any of these was given (they need an HTTP peer).
    #[must_use]
    pub fn given(&self) -> bool {
        !self.header.is_empty()
            || !self.header_env.is_empty()
            || !self.cacert.is_empty()
            || self.insecure
    }

    /// The options every HTTP client of the command is built with.
    ///
    /// # Errors
    /// A `--cacert` file does not read or holds no certificate.
    pub fn options(&self) -> Result<HttpOptions, String> {
        let trust = if self.cacert.is_empty() && !self.insecure {
            Trust::default()
        } else {
            Trust::new(&self.cacert, self.insecure).map_err(|e| e.to_string())?
        };
        Ok(HttpOptions {
            trust,
            headers: self.headers(),
            ..HttpOptions::default()
        })
    }

    /// `Err` naming the flags when any is given to a peer that is not
    /// reached over HTTP.
    ///
    /// # Errors
    /// See above.
    pub fn need_http(&self, http: bool) -> Result<(), String> {
        if self.given() && !http {
            return Err(
                "--header, --header-env, --cacert and --insecure apply to a server reached over HTTP (--http URL; proxy's --upstream)"
                    .into(),
            );
        }
        Ok(())
    }
}

/// This process's command line for a run document, with every secret
/// replaced by `(redacted)`: the values of `--header` and `--header-env`'s
/// variables (wherever they appear), and the values of `--env KEY=VALUE`.
#[must_use]
pub fn redacted_argv(headers: &UserHeaders) -> Vec<String> {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    redact_argv(&argv, headers)
}

fn redact_argv(argv: &[String], headers: &UserHeaders) -> Vec<String> {
    let mut out = Vec::with_capacity(argv.len());
    let mut next_is = None;
    for arg in argv {
        let arg = headers.redact(&shown_url(arg));
        let redacted = match (next_is.take(), arg.split_once('=')) {
            (Some("--header"), _) => header_redacted(&arg),
            (Some("--env"), _) => env_redacted(&arg),
            (None, Some(("--header", value))) => format!("--header={}", header_redacted(value)),
            (None, Some(("--env", value))) => format!("--env={}", env_redacted(value)),
            _ => arg.clone(),
        };
        if arg == "--header" || arg == "--env" {
            next_is = Some(if arg == "--header" {
                "--header"
            } else {
                "--env"
            });
        }
        out.push(redacted);
    }
    out
}

/// `text` as a run document may show it: a URL's password and the values
/// of its query (`?api_key=…`) replaced by `(redacted)`, where hosted
/// servers put a key when they take none in a header. Any other text is
/// returned as it is.
#[must_use]
pub fn shown_url(text: &str) -> String {
    if !(text.starts_with("http://") || text.starts_with("https://")) {
        return text.to_owned();
    }
    let Ok(mut url) = reqwest::Url::parse(text) else {
        return text.to_owned();
    };
    if url.password().is_some() {
        let _ = url.set_password(Some("(redacted)"));
    }
    if url.query().is_some() {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, _)| (k.into_owned(), "(redacted)".to_owned()))
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.to_string()
}

fn header_redacted(given: &str) -> String {
    match given.split_once(':') {
        Some((name, _)) => format!("{name}: (redacted)"),
        None => "(redacted)".into(),
    }
}

fn env_redacted(given: &str) -> String {
    match given.split_once('=') {
        Some((key, _)) => format!("{key}=(redacted)"),
        None => given.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_leave_the_command_line() {
        let headers = UserHeaders(vec![UserHeader::parse("X-Env-Key: fromenv-secret").unwrap()]);
        let argv: Vec<String> = [
            "wirecheck",
            "run",
            "--header",
            "Authorization: Bearer tok",
            "--header=X-Key: k1",
            "--env",
            "API_KEY=k2",
            "--env=OTHER=k3",
            "--header-env",
            "X-Env-Key=VAR",
            "--stdio",
            "server --key fromenv-secret",
            "--http",
            "https://user:pa55word@example.com/mcp?api_key=k3y-value",
        ]
        .map(String::from)
        .to_vec();
        let out = redact_argv(&argv, &headers).join(" ");
        for secret in ["tok", "k1", "k2", "k3", "fromenv", "pa55word", "k3y-value"] {
            assert!(!out.contains(secret), "{secret} in {out}");
        }
        assert!(out.contains("Authorization: (redacted)"), "{out}");
        assert!(out.contains("--env API_KEY=(redacted)"), "{out}");
        assert!(out.contains("--env=OTHER=(redacted)"), "{out}");
        assert!(out.contains("X-Env-Key=VAR"), "{out}");
    }

    #[test]
    fn reach_flags_need_an_http_peer() {
        let none = ReachArgs::default();
        assert!(none.need_http(false).is_ok());
        let insecure = ReachArgs {
            insecure: true,
            ..ReachArgs::default()
        };
        assert!(insecure.need_http(true).is_ok());
        assert!(insecure.need_http(false).unwrap_err().contains("--http"));
        assert!(!insecure.options().unwrap().trust.verifies());
        assert!(none.options().unwrap().trust.verifies());
    }
}

/// `--tls-cert`, `--tls-key`: serve HTTPS instead of HTTP (`serve --http`,
/// `proxy --listen`), so a client's or this tool's TLS is judged end to end.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServeTlsArgs {
    /// Serve HTTPS with the certificate chain in this PEM file (with
    /// --tls-key).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert, in PEM (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
}

impl ServeTlsArgs {
    /// The certificate and key to serve with, when given.
    ///
    /// # Errors
    /// A file does not read, holds no certificate or key, or they do not match.
    pub fn certified(&self) -> Result<Option<crate::transport::tls::Certified>, String> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => crate::transport::tls::Certified::from_pem_files(cert, key)
                .map(Some)
                .map_err(|e| e.to_string()),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod clap_tests {
    use super::*;
    use clap::Parser as _;

    #[derive(clap::Parser, Debug)]
    struct Probe {
        #[command(flatten)]
        reach: ReachArgs,
    }

    /// clap's own error never shows what was given: a header typed without
    /// its colon is all secret.
    #[test]
    fn a_refused_header_is_not_echoed() {
        let error = Probe::try_parse_from(["p", "--header", "Authorization Bearer s3cret-tok"])
            .unwrap_err()
            .to_string();
        assert!(!error.contains("s3cret"), "{error}");
        assert!(error.contains("NAME: VALUE"), "{error}");
        let error = Probe::try_parse_from(["p", "--header-env", "Authorization"])
            .unwrap_err()
            .to_string();
        assert!(error.contains("NAME=ENVVAR"), "{error}");
    }
}
