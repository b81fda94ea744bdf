//! `wirecheck serve`: the reference peer over stdio, or over HTTP with
//! `--http ADDR` ([`crate::peer::http`]); judging the client with `--judge`.

use harness::Revision;

use super::args::{scenario_names, selected, ScenarioChoice};
use super::Exit;
use crate::clientcheck::{self, Director};
use crate::peer::{stdio, Peer, Serve};
use crate::report::Report;
use crate::transport::Kind;

/// Run the reference peer on standard input and output.
///
/// Newline-delimited frames in, answers out; ends at end of input. With no
/// option it serves MCP and negotiates the revision; --revision R serves MCP
/// at exactly R; --profile jsonrpc-2.0 serves the JSON-RPC 2.0 §7 methods
/// (subtract, sum, update, get_data, notify_hello, notify_sum).
///
/// With --http IP:PORT it serves over HTTP instead (loopback only unless
/// --allow-remote), until killed.
///
/// With --judge it judges the client instead: every frame both ways goes to
/// the session judge, and the scenarios (--scenario, default all) exercise
/// the client; at the end the findings and one record per scenario are
/// written to --report FILE (the run document, for `wirecheck report`) and
/// counted on stderr. Over stdio the end is the end of input; with --http
/// (Streamable HTTP at /mcp only, every session judged) it is the client's
/// DELETE of its session, or SIGINT/SIGTERM. `wirecheck run-client` runs a
/// client against it.
///
/// Exit codes: 0 at the end (with --judge: and no MUST broken), 1 with
/// --judge when a MUST was broken, 2 on a usage or I/O error.
#[derive(clap::Args)]
pub struct Args {
    /// `jsonrpc-2.0` or `mcp` (the default).
    #[arg(long, value_enum, value_name = "PROFILE")]
    pub profile: Option<super::args::ProfileName>,
    /// The MCP revision to serve exactly, instead of negotiating it.
    #[arg(long, value_name = "R")]
    pub revision: Option<Revision>,
    /// The largest frame accepted, in bytes; a longer line is answered with -32700.
    #[arg(long, default_value_t = harness::Limits::DEFAULT_MAX_FRAME_BYTES, value_name = "BYTES")]
    pub max_frame: usize,
    /// Serve over HTTP on IP:PORT instead of stdio: Streamable HTTP at /mcp and
    /// HTTP+SSE at /sse (MCP), or JSON-RPC at / (--profile jsonrpc-2.0). Port 0
    /// picks one; `listening on http://IP:PORT` goes to stderr.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Allow --http on a non-loopback address (and accept an Origin equal to Host).
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// With --http, serve HTTPS.
    #[command(flatten)]
    pub tls: super::args::ServeTlsArgs,
    /// With --http, answer 401 to every request that does not carry this
    /// header with the value of ENVVAR (`Authorization=TOKEN_VAR`), as a
    /// deployed server with a static API key or bearer token does: to try
    /// a client's, or `run --header-env`'s, way of sending it.
    #[arg(long, value_name = "NAME=ENVVAR", requires = "http", conflicts_with = "judge", value_parser = super::args::HeaderArg { from_env: true })]
    pub require_header_env: Option<crate::transport::headers::UserHeader>,
    /// Judge the client: feed every frame to the session judge and play the
    /// scenarios (over stdio, or Streamable HTTP with --http).
    #[arg(long)]
    pub judge: bool,
    /// With --judge, the scenarios to play: a name (list-changed, progress,
    /// logging, server-requests, error-shapes), repeated, or `all` (the
    /// default).
    #[arg(long, value_name = "NAME|all", requires = "judge", value_parser = scenario_names())]
    pub scenario: Vec<ScenarioChoice>,
    /// With --judge, write the report as one JSON document to FILE at the end
    /// (schemas/report.schema.json).
    #[arg(long, value_name = "FILE", requires = "judge")]
    pub report: Option<std::path::PathBuf>,
    /// With --http, serve as a protected resource (OAuth): every request needs
    /// a bearer token from the trusted authorization server (signature, iss,
    /// aud = this server's URL, exp, scope `mcp`); Protected Resource Metadata
    /// at /.well-known/oauth-protected-resource[/mcp]. Without --auth-issuer it
    /// starts wirecheck's own authorization server on a loopback port and
    /// prints `authorization server URL` on stderr. With --judge it judges
    /// the client's authorization too (PKCE, `resource`, discovery, scopes,
    /// the bearer token): its own authorization server always, recording
    /// what the client asks of it.
    #[arg(long, requires = "http")]
    pub auth: bool,
    /// With --auth, trust this running authorization server
    /// (`wirecheck auth-server`) instead of starting one.
    #[arg(long, value_name = "URL", requires = "auth", conflicts_with = "judge")]
    pub auth_issuer: Option<String>,
    /// With --judge --auth, a variation that tests one more thing:
    /// `step-up-refused` (the authorization server never grants the scope
    /// `tools/call` asks for: the client's retry limit) or `no-pkce-metadata`
    /// (its metadata names no `code_challenge_methods_supported`: the client
    /// must refuse to proceed) or `wrong-iss` (its redirects name another
    /// issuer in `iss`: the client must not redeem the code; 2026-07-28).
    #[arg(long, value_name = "NAME", requires = "auth")]
    pub auth_scenario: Option<crate::clientcheck::auth::Scenario>,
    /// With --auth, be wrong in exactly this one way (for tests).
    #[arg(
        long,
        value_name = "NAME",
        requires = "auth",
        conflicts_with = "judge",
        hide = true
    )]
    pub auth_defect: Option<crate::auth::resource::Defect>,
    /// Be wrong in exactly this one way only a sequence shows (for tests):
    /// `repeating-cursor`, `subscription-leak`, `zombie-session`.
    #[arg(long, value_name = "NAME", conflicts_with = "judge", hide = true)]
    pub state_defect: Option<crate::peer::defect::StateDefect>,
}

/// Runs `wirecheck serve` with its arguments.
pub fn run(args: &Args) -> Exit {
    if let Some(defect) = args.state_defect {
        crate::peer::defect::plant(defect);
    }
    if args.tls.tls_cert.is_some() && args.http.is_none() {
        eprintln!("wirecheck serve: --tls-cert and --tls-key serve HTTPS, with --http ADDR");
        return Exit::Trouble;
    }
    match super::args::served(args.profile, args.revision) {
        Ok(Serve::JsonRpc) if args.judge && args.http.is_some() => {
            // The JSON-RPC service over HTTP keeps no sessions to judge.
            eprintln!(
                "wirecheck serve: --judge over --http judges MCP sessions; drop --profile jsonrpc-2.0"
            );
            Exit::Trouble
        }
        Ok(serve) if args.judge && args.http.is_some() => judged_http(serve, args),
        Ok(serve) if args.http.is_some() => {
            let config = crate::peer::http::Config {
                serve,
                max_frame: args.max_frame,
                allow_remote: args.allow_remote,
            };
            let auth = args.auth.then(|| crate::peer::http::AuthOptions {
                issuer: args.auth_issuer.clone(),
                defect: args.auth_defect,
            });
            let tls = match args.tls.certified() {
                Ok(tls) => tls,
                Err(e) => {
                    eprintln!("wirecheck serve: {e}");
                    return Exit::Trouble;
                }
            };
            match crate::peer::http::run(
                config,
                args.http.as_deref().unwrap_or_default(),
                auth.as_ref(),
                tls,
                args.require_header_env.clone(),
            ) {
                Ok(()) => Exit::Clean,
                Err(e) => {
                    eprintln!("wirecheck serve: {e}");
                    Exit::Trouble
                }
            }
        }
        Ok(serve) if args.judge => judged(serve, args),
        Ok(serve) => main(serve, args.max_frame),
        Err(e) => {
            eprintln!("wirecheck serve: {e}");
            Exit::Trouble
        }
    }
}

/// Serves on standard input and output until end of input.
pub fn main(serve: Serve, max_frame: usize) -> Exit {
    let mut peer = Peer::new(serve);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut output = stdout.lock();
    match stdio::serve(&mut peer, &mut input, &mut output, max_frame) {
        Ok(()) => Exit::Clean,
        Err(e) => {
            eprintln!("wirecheck serve: {e}");
            Exit::Trouble
        }
    }
}

/// `serve --judge`: the judged peer on standard input and output.
fn judged(serve: Serve, args: &Args) -> Exit {
    let mut director = Director::new(serve, &selected(&args.scenario), "stdio");
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut output = stdout.lock();
    let served = clientcheck::stdio::serve(&mut director, &mut input, &mut output, args.max_frame);
    let revision = director.revision();
    // Nothing observed is never a verdict: a client that sent nothing was
    // not judged.
    let error = match served {
        Err(e) => Some(format!("serving stopped: {e}")),
        Ok(()) if !director.heard() => {
            Some("the client sent nothing on standard input: nothing to judge".to_owned())
        }
        Ok(()) => None,
    };
    let mut report = clientcheck::report(director.finish(true), Kind::Stdio, error);
    // The judge's revision, also when no record names one.
    report.profile = revision.map(|revision| harness::Profile {
        revision,
        direction: harness::Direction::ClientToServer,
    });
    written(&report, args)
}

/// `serve --http ADDR --judge`: the judged peer over Streamable HTTP until
/// the client deletes its session or a signal comes.
fn judged_http(serve: Serve, args: &Args) -> Exit {
    let addr = args.http.as_deref().unwrap_or_default();
    let config = crate::peer::http::Config {
        serve,
        max_frame: args.max_frame,
        allow_remote: args.allow_remote,
    };
    let served = crate::peer::http::check_addr(addr, args.allow_remote).and_then(|addr| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        runtime.block_on(async {
            let mut server =
                crate::peer::http::Server::bind_judged(addr, config, selected(&args.scenario))
                    .await
                    .map_err(|e| format!("--http {addr}: {e}"))?;
            if let Some(certified) = args.tls.certified()? {
                server.serve_tls(certified);
            }
            // Before anything is said on stderr: a signal sent as soon as a
            // line is read ends the run with its report.
            let stop = clientcheck::http::signalled()?;
            let auth = if args.auth {
                let (judged, issuing) =
                    crate::clientcheck::auth::protect(&mut server, args.auth_scenario).await?;
                eprintln!("authorization server {}", issuing.issuer_url());
                tokio::spawn(issuing.serve());
                Some(judged)
            } else {
                None
            };
            eprintln!("listening on {}", server.origin());
            let url = server.mcp_url();
            let (mut records, ended) = clientcheck::http::serve(server, stop, true).await;
            // The authorization records are there whether or not a client
            // came (not observed when it did not): a client that opened no
            // MCP session was still judged if its OAuth flow was seen (one
            // that refuses a bad `iss` never opens one).
            let mut opened = !records.is_empty();
            if let Some(judged) = auth {
                let revision =
                    crate::clientcheck::auth::revision(args.revision, &records, Some(&judged));
                let authorization = judged.records(revision);
                opened |= clientcheck::http::judged_anything(&authorization);
                records.extend(authorization);
            }
            // Where no client came, if none did.
            let unvisited = (!opened).then_some(url);
            Ok((records, unvisited, ended))
        })
    });
    let report = match served {
        Ok((records, Some(url), Ok(_))) => clientcheck::report(
            records,
            Kind::STREAMABLE_HTTP,
            Some(clientcheck::http::no_session(&url)),
        ),
        Ok((records, _, ended)) => clientcheck::report(records, Kind::STREAMABLE_HTTP, ended.err()),
        Err(e) => {
            eprintln!("wirecheck serve: {e}");
            return Exit::Trouble;
        }
    };
    written(&report, args)
}

/// Writes a judged run's report to --report and its tally to stderr.
fn written(report: &Report, args: &Args) -> Exit {
    if let Some(path) = &args.report {
        if let Err(e) = super::write_json(report, path) {
            eprintln!("wirecheck serve: {e}");
            return Exit::Trouble;
        }
    }
    if let Some(why) = &report.error {
        eprintln!("wirecheck serve --judge: {why}");
    }
    eprintln!(
        "wirecheck serve --judge: {}",
        crate::report::json::summary(report)
    );
    report.exit_code()
}
