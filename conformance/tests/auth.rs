//! Authorization, the server as a resource server, end to end: the protected
//! reference peer (`serve --http --auth`) passes every `mcp.auth.*` check of
//! `run --http URL --auth`; each planted defect (`--auth-defect NAME`) is
//! caught by its own rule and by nothing else; the local authorization server's
//! code flow (PKCE S256) mints a token for the resource asked.

mod common;

use std::collections::BTreeSet;
use std::io::BufRead as _;
use std::process::{Child, Command, Stdio};

use serde_json::Value;
use wirecheck::auth::resource::Defect;

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `wirecheck auth-server`: the process and its issuer URL (its first
/// line on stdout).
fn auth_server() -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["auth-server", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("auth-server starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("auth-server prints its issuer");
    let issuer = line.trim().to_owned();
    assert!(issuer.starts_with("http://127.0.0.1:"), "{issuer:?}");
    (Running(child), issuer)
}

/// A DNS-rebinding page reaches the authorization server's port but names
/// itself in `Host`: it mints nothing; the server's own address does.
#[test]
fn the_authorization_server_answers_its_own_host_only() {
    use std::io::{Read as _, Write as _};
    let (_issuing, issuer) = auth_server();
    let authority = issuer.trim_start_matches("http://").to_owned();
    let status = |host: &str| {
        let mut stream = std::net::TcpStream::connect(&authority).expect("connects");
        write!(
            stream,
            "POST /wirecheck/mint HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer.lines().next().unwrap_or_default().to_owned()
    };
    assert!(
        status("rebound.example:80").contains(" 403 "),
        "{}",
        status("rebound.example:80")
    );
    assert!(
        status(&authority).contains(" 200 "),
        "{}",
        status(&authority)
    );
}

/// `wirecheck serve --http 127.0.0.1:0 --auth ARGS`: the process, its MCP
/// URL and the issuer it trusts (both from its stderr).
fn protected(args: &[&str]) -> (Running, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["serve", "--http", "127.0.0.1:0", "--auth"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut reader = std::io::BufReader::new(stderr);
    let (mut issuer, mut url) = (String::new(), String::new());
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).expect("serve prints");
        if let Some(i) = line.trim().strip_prefix("authorization server ") {
            issuer = i.to_owned();
        } else if let Some(base) = line.trim().strip_prefix("listening on ") {
            url = format!("{base}/mcp");
        } else {
            panic!("unexpected line {line:?}");
        }
    }
    assert!(!url.is_empty() && !issuer.is_empty());
    (Running(child), url, issuer)
}

/// `wirecheck run --format json ARGS`: the exit code and the records.
fn run(args: &[&str]) -> (Option<i32>, Vec<Value>, String) {
    let mut all = vec!["run", "--format", "json"];
    all.extend_from_slice(args);
    let out = common::wirecheck(&all, b"");
    let records = if out.stdout.is_empty() {
        Vec::new()
    } else {
        common::records(&out)
    };
    (
        out.status.code(),
        records,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn outcome(record: &Value) -> &str {
    record["outcome"]["outcome"].as_str().unwrap_or("")
}

/// The rules of the records that failed or warned.
fn broken(records: &[Value]) -> BTreeSet<String> {
    records
        .iter()
        .filter(|r| matches!(outcome(r), "fail" | "warning"))
        .map(|r| r["rule"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Every server-side `mcp.auth.*` rule of the catalogue under `revision`.
fn auth_rules(revision: harness::Revision) -> BTreeSet<String> {
    harness::rules::rules()
        .iter()
        .filter(|r| {
            // The client's rules are `serve --judge --auth`'s (tests/auth_client.rs).
            let id = r.id.as_str();
            id.starts_with("mcp.auth.")
                && !id.starts_with("mcp.auth.client-")
                && r.revisions.contains(revision)
        })
        .map(|r| r.id.as_str().to_owned())
        .collect()
}

#[test]
fn the_protected_reference_peer_passes_every_authorization_check() {
    let (_peer, url, _issuer) = protected(&[]);
    let (code, records, stderr) = run(&["--http", &url, "--auth", "--revision", "all"]);
    let failing: Vec<&Value> = records.iter().filter(|r| outcome(r) == "fail").collect();
    assert!(failing.is_empty(), "{failing:#?}\n{stderr}");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        auth_rules(harness::Revision::Mcp2024_11_05),
        BTreeSet::new(),
        "no authorization before 2025-03-26"
    );
    for revision in harness::Revision::MCP {
        let judged: Vec<&Value> = records
            .iter()
            .filter(|r| {
                r["revision"] == revision.name()
                    && r["rule"]
                        .as_str()
                        .is_some_and(|r| r.starts_with("mcp.auth."))
            })
            .collect();
        let seen: BTreeSet<String> = judged
            .iter()
            .map(|r| r["rule"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(seen, auth_rules(revision), "{revision:?}");
        for record in judged {
            // The peer serves its metadata, so the fallback for a server
            // without it does not apply (it passes on the `no-as-metadata`
            // peer: without_metadata_the_default_endpoints_pass).
            let want = if record["rule"] == "mcp.auth.default-endpoints" {
                "not-applicable"
            } else {
                "pass"
            };
            assert_eq!(outcome(record), want, "{record}");
        }
    }
}

/// An authorization finding shows the exchange it rests on, in every file
/// the run writes, and no file carries a token: the 401's challenge is
/// shown, the bearer sent with a bad token is `(redacted)`.
#[test]
fn authorization_records_show_their_exchange_and_never_a_token() {
    let (_peer, url, _issuer) = protected(&[]);
    let dir = std::env::temp_dir().join(format!("wirecheck-auth-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (doc, html, sarif) = (
        dir.join("run.json"),
        dir.join("run.html"),
        dir.join("run.sarif"),
    );
    let (code, _, stderr) = run(&[
        "--http",
        &url,
        "--auth",
        "--revision",
        "2025-11-25",
        "--out",
        doc.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--sarif",
        sarif.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    for file in [&doc, &html, &sarif] {
        let text = std::fs::read_to_string(file).unwrap();
        // A JWT's header starts `eyJ` (`{"` in base64url).
        assert!(
            !text.contains("Bearer ey") && !text.contains("\"eyJ"),
            "{}",
            file.display()
        );
    }
    let document: Value = serde_json::from_slice(&std::fs::read(&doc).unwrap()).unwrap();
    let record = |vector: &str| {
        document["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["vector"] == vector)
            .unwrap_or_else(|| panic!("{vector}"))
            .clone()
    };
    let bare = record("run/2025-11-25/http/unauthenticated-401");
    assert_eq!(bare["http"][0]["status"], 401, "{bare}");
    assert!(
        bare["http"][0]["response_headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h[0] == "www-authenticate"),
        "{bare}"
    );
    let expired = record("run/2025-11-25/http/token-expired-401");
    assert!(
        expired["http"][0]["request_headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h[0] == "authorization" && h[1] == "(redacted)"),
        "{expired}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each defect, the revision it is judged under, and the rules that must
/// catch it: exactly those, and no other rule of the whole run.
const DEFECTS: &[(Defect, &str, &[&str])] = &[
    (
        Defect::WrongAudience,
        "2025-06-18",
        &["mcp.auth.token-audience-401"],
    ),
    (
        Defect::MissingAudience,
        "2025-06-18",
        &["mcp.auth.token-audience-missing-401"],
    ),
    (
        Defect::Expired,
        "2025-06-18",
        &["mcp.auth.token-expired-401"],
    ),
    (
        Defect::UnpublishedKey,
        "2025-06-18",
        &["mcp.auth.token-signature-401"],
    ),
    (
        Defect::OtherIssuer,
        "2025-06-18",
        &["mcp.auth.token-issuer-401"],
    ),
    (
        Defect::NoChallenge,
        "2025-06-18",
        &[
            "mcp.auth.challenge-resource-metadata",
            "mcp.auth.invalid-token-challenge",
        ],
    ),
    (
        Defect::NoChallengeScope,
        "2025-11-25",
        &["mcp.auth.challenge-scope"],
    ),
    (
        Defect::NoAuthorizationServers,
        "2025-06-18",
        &["mcp.auth.prm-authorization-servers"],
    ),
    (
        Defect::WrongResource,
        "2025-06-18",
        &["mcp.auth.prm-resource"],
    ),
    (
        Defect::NoInsufficientScope,
        "2025-11-25",
        &["mcp.auth.insufficient-scope-challenge"],
    ),
    (
        Defect::NoInsufficientScopeScope,
        "2025-11-25",
        &["mcp.auth.insufficient-scope-names-scope"],
    ),
    (
        Defect::OfflineAccessScope,
        "2026-07-28",
        &["mcp.auth.no-offline-access-scope"],
    ),
    (
        Defect::PartialScopeChallenge,
        "2026-07-28",
        &["mcp.auth.insufficient-scope-single-challenge"],
    ),
    (
        Defect::NoInvalidTokenError,
        "2025-03-26",
        &["mcp.auth.invalid-token-error"],
    ),
    (
        Defect::ErrorWithoutToken,
        "2025-11-25",
        &["mcp.auth.no-token-no-error"],
    ),
    (
        Defect::NoAsMetadata,
        "2025-03-26",
        &["mcp.auth.as-metadata-served"],
    ),
    (
        Defect::AsMetadataAtPath,
        "2025-03-26",
        &["mcp.auth.as-metadata-root"],
    ),
    (
        Defect::AsMetadataNoTokenEndpoint,
        "2025-03-26",
        &["mcp.auth.as-metadata-fields"],
    ),
    (
        Defect::NoRegistration,
        "2025-03-26",
        &["mcp.auth.dynamic-registration"],
    ),
];

/// Defects judged against another defect's peer rather than the sound one:
/// the defect, the revision, the peer it is compared with, the rules that
/// must catch it. Missing default endpoints matter only to a server without
/// metadata, which mcp.auth.as-metadata-served already warns of: the defect
/// adds its own rule to that peer's findings and nothing else.
const ON_TOP: &[(Defect, &str, Defect, &[&str])] = &[(
    Defect::NoDefaultToken,
    "2025-03-26",
    Defect::NoAsMetadata,
    &["mcp.auth.default-endpoints"],
)];

/// A defect's name on the command line.
fn defect_name(defect: Defect) -> String {
    use clap::ValueEnum as _;
    defect
        .to_possible_value()
        .expect("a visible value")
        .get_name()
        .to_owned()
}

#[test]
fn each_planted_defect_is_caught_by_its_own_rule_and_nothing_else() {
    use clap::ValueEnum as _;
    // One authorization server for all, named to both sides: a defect that
    // drops `authorization_servers` leaves the runner nothing to find.
    let (_issuing, issuer) = auth_server();
    // The peer with `defect` (none: the sound one) judged under `revision`:
    // the exit code, the rules it broke, stderr.
    let judge = |defect: Option<Defect>, revision: &str| {
        let mut args = vec!["--auth-issuer".to_owned(), issuer.clone()];
        if let Some(defect) = defect {
            args.extend(["--auth-defect".to_owned(), defect_name(defect)]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_peer, url, trusted) = protected(&args);
        assert_eq!(trusted, issuer);
        let (code, records, stderr) = run(&[
            "--http",
            &url,
            "--auth",
            "--auth-issuer",
            &issuer,
            "--revision",
            revision,
        ]);
        (code, broken(&records), stderr)
    };
    // What the sound peer itself breaks under a revision (nothing today:
    // tests/run_http.rs holds it to no fail and no warning), computed rather
    // than assumed, so a defect is held to adding its own rule and nothing
    // else whatever the suite around it says.
    let mut baselines: std::collections::BTreeMap<(Option<String>, &str), BTreeSet<String>> =
        Default::default();
    let planted = DEFECTS
        .iter()
        .map(|(defect, revision, rules)| (*defect, *revision, None, *rules))
        .chain(
            ON_TOP
                .iter()
                .map(|(defect, revision, on, rules)| (*defect, *revision, Some(*on), *rules)),
        );
    let mut caught = BTreeSet::new();
    for (defect, revision, on, rules) in planted {
        let baseline = baselines
            .entry((on.map(defect_name), revision))
            .or_insert_with(|| {
                let (_, broken, stderr) = judge(on, revision);
                if on.is_none() {
                    assert!(
                        broken.iter().all(|r| !r.starts_with("mcp.auth.")),
                        "{revision}: {broken:?}\n{stderr}"
                    );
                }
                broken
            });
        let name = defect_name(defect);
        let (code, broken, stderr) = judge(Some(defect), revision);
        let expected: BTreeSet<String> = rules.iter().map(|r| (*r).to_owned()).collect();
        let added: BTreeSet<String> = broken.difference(baseline).cloned().collect();
        assert_eq!(added, expected, "--auth-defect {name}\n{stderr}");
        let mandatory = broken.iter().any(|rule| {
            rule.parse::<harness::rules::RuleId>()
                .is_ok_and(|r| r.info().level.is_mandatory())
        });
        assert_eq!(
            code,
            Some(i32::from(mandatory)),
            "--auth-defect {name}: {stderr}"
        );
        caught.extend(expected);
    }
    // Every defect the peer can plant is tested, no two caught by one rule.
    assert_eq!(DEFECTS.len() + ON_TOP.len(), Defect::value_variants().len());
    let named: usize = DEFECTS
        .iter()
        .map(|(_, _, rules)| rules.len())
        .sum::<usize>()
        + ON_TOP
            .iter()
            .map(|(_, _, _, rules)| rules.len())
            .sum::<usize>();
    assert_eq!(caught.len(), named);
}

/// 2025-03-26: a server without Authorization Server Metadata is held to the
/// default endpoints, and the peer's pass: `/authorize` answers, `/token`
/// refuses an empty form with an OAuth error, `/register` refuses invalid
/// client metadata with RFC 7591's.
#[test]
fn without_metadata_the_default_endpoints_pass() {
    let (_peer, url, _issuer) = protected(&["--auth-defect", "no-as-metadata"]);
    let (_, records, stderr) = run(&["--http", &url, "--auth", "--revision", "2025-03-26"]);
    let of = |rule: &str| {
        records
            .iter()
            .find(|r| r["rule"] == rule)
            .map(|r| outcome(r).to_owned())
            .unwrap_or_default()
    };
    assert_eq!(of("mcp.auth.as-metadata-served"), "warning", "{stderr}");
    assert_eq!(of("mcp.auth.default-endpoints"), "pass", "{records:#?}");
    assert_eq!(of("mcp.auth.dynamic-registration"), "pass", "{records:#?}");
    for rule in ["mcp.auth.as-metadata-root", "mcp.auth.as-metadata-fields"] {
        assert_eq!(of(rule), "not-applicable", "{rule}");
    }
}

/// The peer is a working 2025-03-26 authorization server, not only one that
/// answers the probes: a client registers, follows the metadata's
/// `authorization_endpoint` (a redirect to the trusted server), redeems the
/// code at the peer's `/token` without `resource` (2025-03-26 has none),
/// and its token opens a session.
#[test]
fn a_2025_03_26_client_gets_a_token_through_the_peers_own_endpoints() {
    use wirecheck::auth::server::s256;
    const REDIRECT: &str = "http://127.0.0.1:9/callback";
    const VERIFIER: &str = "a-verifier-of-at-least-forty-three-characters-0123456789";
    let (_peer, url, _issuer) = protected(&[]);
    let base = url.trim_end_matches("/mcp").to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let json = |r: reqwest::Response| async move {
            serde_json::from_slice::<Value>(&r.bytes().await.unwrap()).unwrap()
        };
        let metadata = json(
            http.get(format!("{base}/.well-known/oauth-authorization-server"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(metadata["issuer"], base.as_str(), "{metadata}");
        let endpoint = |name: &str| metadata[name].as_str().unwrap().to_owned();
        let registered = http
            .post(endpoint("registration_endpoint"))
            .header("content-type", "application/json")
            .body(format!(r#"{{"redirect_uris": ["{REDIRECT}"]}}"#))
            .send()
            .await
            .unwrap();
        assert_eq!(registered.status(), 201);
        let client_id = json(registered).await["client_id"]
            .as_str()
            .unwrap()
            .to_owned();
        let mut location = reqwest::Url::parse(&endpoint("authorization_endpoint")).unwrap();
        location
            .query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &client_id)
            .append_pair("redirect_uri", REDIRECT)
            .append_pair("code_challenge", &s256(VERIFIER))
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", "s");
        // The peer's redirect, then the trusted server's with the code.
        let mut code = None;
        for _ in 0..2 {
            let answer = http.get(location.clone()).send().await.unwrap();
            assert_eq!(answer.status(), 302);
            location = reqwest::Url::parse(answer.headers()["location"].to_str().unwrap()).unwrap();
            code = location
                .query_pairs()
                .find(|(k, _)| k == "code")
                .map(|(_, v)| v.into_owned());
        }
        let code = code.expect("the redirect carries a code");
        let mut form = reqwest::Url::parse("http://x/").unwrap();
        form.query_pairs_mut()
            .append_pair("grant_type", "authorization_code")
            .append_pair("code", &code)
            .append_pair("redirect_uri", REDIRECT)
            .append_pair("client_id", &client_id)
            .append_pair("code_verifier", VERIFIER);
        let issued = http
            .post(endpoint("token_endpoint"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.query().unwrap().to_owned())
            .send()
            .await
            .unwrap();
        assert_eq!(issued.status(), 200);
        let token = json(issued).await["access_token"]
            .as_str()
            .unwrap()
            .to_owned();
        let opened = wirecheck::auth::client::post_opening(
            &url,
            harness::Revision::Mcp2025_03_26,
            Some(&token),
            std::time::Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert_eq!(opened.status, 200);
    });
}

#[test]
fn a_server_naming_no_authorization_server_cannot_be_run_with_auth() {
    let (_peer, url, _) = protected(&["--auth-defect", "no-authorization-servers"]);
    let (code, records, stderr) = run(&["--http", &url, "--auth", "--revision", "2025-11-25"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(records.is_empty());
    assert!(stderr.contains("--auth-issuer"), "{stderr}");
}

#[test]
fn auth_is_for_streamable_http_only() {
    let out = common::wirecheck(
        &[
            "run",
            "--http",
            "http://127.0.0.1:9/sse",
            "--transport",
            "sse",
            "--auth",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Streamable HTTP"));
}

#[test]
fn an_unprotected_server_is_not_failed_and_nothing_passes_for_it() {
    // A server `--auth` wrongly calls protected: it answers the opening
    // request without a token and serves no metadata. Authorization is
    // OPTIONAL and a server may protect other requests only, so no
    // authorization sentence is shown broken (not five token MUSTs failed on
    // a public request); and nothing passes for want of evidence.
    let (_issuing, issuer) = auth_server();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args(["serve", "--http", "127.0.0.1:0", "--revision", "2025-06-18"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().expect("piped"))
        .read_line(&mut line)
        .expect("serve prints its address");
    let _peer = Running(child);
    let url = format!(
        "{}/mcp",
        line.trim().strip_prefix("listening on ").expect("address")
    );
    let (code, records, stderr) = run(&[
        "--http",
        &url,
        "--auth",
        "--auth-issuer",
        &issuer,
        "--revision",
        "2025-06-18",
    ]);
    let broken = broken(&records);
    assert!(
        !broken.iter().any(|r| r.starts_with("mcp.auth.")),
        "{broken:?}"
    );
    let unseen = |rule: &str| {
        records
            .iter()
            .find(|r| r["rule"] == rule)
            .map(|r| outcome(r).to_owned())
    };
    assert_eq!(
        unseen("mcp.auth.challenge-resource-metadata").as_deref(),
        Some("not-applicable")
    );
    assert_eq!(
        unseen("mcp.auth.prm-resource").as_deref(),
        Some("not-observed")
    );
    for rule in ["mcp.auth.unauthenticated-401", "mcp.auth.prm-served"] {
        assert_eq!(unseen(rule).as_deref(), Some("not-applicable"), "{rule}");
    }
    for rule in [
        "mcp.auth.token-expired-401",
        "mcp.auth.token-signature-401",
        "mcp.auth.token-issuer-401",
        "mcp.auth.token-audience-401",
        "mcp.auth.token-audience-missing-401",
        "mcp.auth.insufficient-scope-403",
    ] {
        assert_eq!(unseen(rule).as_deref(), Some("not-observed"), "{rule}");
    }
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn the_authorization_server_redeems_a_pkce_code_for_a_token_of_the_resource_asked() {
    use wirecheck::auth::server::{s256, AuthServer};
    const REDIRECT: &str = "http://127.0.0.1:9/callback";
    const RESOURCE: &str = "http://127.0.0.1:9/mcp";
    const VERIFIER: &str = "a-verifier-of-at-least-forty-three-characters-0123456789";
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = AuthServer::bind("127.0.0.1:0".parse().unwrap())
            .await
            .unwrap();
        let issuer = server.issuer_url();
        let jwks: jsonwebtoken::jwk::JwkSet = serde_json::from_value(server.jwks()).unwrap();
        tokio::spawn(server.serve());
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let get = |url: String| {
            let http = http.clone();
            async move { http.get(url).send().await.unwrap() }
        };
        let metadata: Value = serde_json::from_slice(
            &get(format!("{issuer}/.well-known/oauth-authorization-server"))
                .await
                .bytes()
                .await
                .unwrap(),
        )
        .unwrap();
        assert_eq!(metadata["issuer"], issuer);
        assert_eq!(metadata["code_challenge_methods_supported"][0], "S256");
        // Consent is given at once: a code (with `state` and `iss`) at the redirect URI.
        let code = |state: &'static str| {
            let mut url =
                reqwest::Url::parse(metadata["authorization_endpoint"].as_str().unwrap()).unwrap();
            url.query_pairs_mut()
                .append_pair("response_type", "code")
                .append_pair("client_id", "test")
                .append_pair("redirect_uri", REDIRECT)
                .append_pair("code_challenge", &s256(VERIFIER))
                .append_pair("code_challenge_method", "S256")
                .append_pair("state", state)
                .append_pair("resource", RESOURCE);
            let answer = get(url.to_string());
            let issuer = issuer.clone();
            async move {
                let answer = answer.await;
                assert_eq!(answer.status().as_u16(), 302);
                let location =
                    reqwest::Url::parse(answer.headers()["location"].to_str().unwrap()).unwrap();
                assert!(location.as_str().starts_with(REDIRECT), "{location}");
                let query: std::collections::HashMap<String, String> =
                    location.query_pairs().into_owned().collect();
                assert_eq!(query["state"], state);
                assert_eq!(query["iss"], issuer);
                query["code"].clone()
            }
        };
        let token_endpoint = metadata["token_endpoint"].as_str().unwrap().to_owned();
        let redeem = |code: String, verifier: &'static str| {
            let body = format!(
                "grant_type=authorization_code&code={code}&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcallback&code_verifier={verifier}&client_id=test"
            );
            http.post(&token_endpoint)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
        };
        // A wrong verifier is refused.
        let refused = redeem(code("1").await, "not-the-verifier").await.unwrap();
        assert_eq!(refused.status().as_u16(), 400);
        let answer = redeem(code("2").await, VERIFIER).await.unwrap();
        assert_eq!(answer.status().as_u16(), 200);
        let granted: Value = serde_json::from_slice(&answer.bytes().await.unwrap()).unwrap();
        let token = granted["access_token"].as_str().unwrap();
        let kid = jsonwebtoken::decode_header(token).unwrap().kid.unwrap();
        let key = jsonwebtoken::DecodingKey::from_jwk(jwks.find(&kid).unwrap()).unwrap();
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
        validation.set_audience(&[RESOURCE]);
        validation.set_issuer(&[issuer.as_str()]);
        let claims = jsonwebtoken::decode::<Value>(token, &key, &validation)
            .unwrap()
            .claims;
        assert_eq!(claims["scope"], "mcp");
        // A redirect URI neither loopback nor https is refused outright.
        let mut bad =
            reqwest::Url::parse(metadata["authorization_endpoint"].as_str().unwrap()).unwrap();
        bad.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("redirect_uri", "http://example.com/callback");
        assert_eq!(get(bad.to_string()).await.status().as_u16(), 400);
    });
}
