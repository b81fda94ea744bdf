//! The servers people deploy, reached as they are: over HTTPS with a
//! certificate minted here (a private CA and a leaf for 127.0.0.1), and
//! behind a static header whose value comes from the environment and
//! appears in no output.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A private CA and a server certificate it signed, as PEM files in a
/// directory of their own.
struct Minted {
    dir: PathBuf,
}

impl Minted {
    fn new(name: &str) -> Minted {
        use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
        let dir =
            std::env::temp_dir().join(format!("wirecheck-https-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ca_key = KeyPair::generate().unwrap();
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "wirecheck test CA");
        let ca = ca.self_signed(&ca_key).unwrap();
        let leaf_key = KeyPair::generate().unwrap();
        let leaf = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
            .unwrap()
            .signed_by(&leaf_key, &ca, &ca_key)
            .unwrap();
        std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
        std::fs::write(dir.join("cert.pem"), leaf.pem()).unwrap();
        std::fs::write(dir.join("key.pem"), leaf_key.serialize_pem()).unwrap();
        Minted { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }
}

impl Drop for Minted {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn serve(extra: &[&str], env: &[(&str, &str)]) -> common::Listening {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wirecheck"));
    command.args(["serve", "--http", "127.0.0.1:0"]).args(extra);
    for (k, v) in env {
        command.env(k, v);
    }
    common::listening(command)
}

fn wirecheck(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wirecheck"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

/// Each record's id and outcome, for comparing two runs check by check.
fn verdicts(out: &Output) -> BTreeMap<String, String> {
    common::records(out)
        .iter()
        .map(|r| {
            let id = format!(
                "{} {}",
                r["id"].as_str().unwrap_or_default(),
                r["vector"].as_str().unwrap_or_default()
            );
            let outcome = r["outcome"]["outcome"].as_str().unwrap_or("").to_owned();
            (id, outcome)
        })
        .collect()
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_reference_peer_over_https_is_judged_as_over_http() {
    let minted = Minted::new("same");
    let plain = serve(&[], &[]);
    let tls = serve(
        &[
            "--tls-cert",
            &minted.path("cert.pem"),
            "--tls-key",
            &minted.path("key.pem"),
        ],
        &[],
    );
    assert!(tls.url.starts_with("https://127.0.0.1:"), "{}", tls.url);
    let args = |url: &str| {
        vec![
            "run".to_owned(),
            "--format".into(),
            "json".into(),
            "--revision".into(),
            "2025-11-25".into(),
            "--http".into(),
            url.to_owned(),
        ]
    };
    let over_http = common::wirecheck(
        &args(&plain.url)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        b"",
    );
    let doc = minted.path("run.json");
    let mut secure_args = args(&tls.url);
    secure_args.extend([
        "--cacert".into(),
        minted.path("ca.pem"),
        "--out".into(),
        doc.clone(),
    ]);
    let over_https = common::wirecheck(
        &secure_args.iter().map(String::as_str).collect::<Vec<_>>(),
        b"",
    );
    assert_eq!(over_http.status.code(), Some(0), "{}", text(&over_http));
    assert_eq!(over_https.status.code(), Some(0), "{}", text(&over_https));
    let (http, https) = (verdicts(&over_http), verdicts(&over_https));
    assert!(http.len() > 100, "{} records", http.len());
    assert_eq!(http, https, "the same checks with the same outcomes");
    let run = common::run_document(Path::new(&doc));
    let seen = &run["run"]["peer"]["tls"];
    assert!(
        seen["version"].as_str().unwrap().starts_with("TLSv1_"),
        "{seen}"
    );
    assert_eq!(
        seen["certificate_sha256"].as_str().unwrap().len(),
        64,
        "{seen}"
    );
    assert_eq!(seen["verified"], true);
}

#[test]
fn an_untrusted_certificate_is_refused_unless_insecure_is_named() {
    let minted = Minted::new("untrusted");
    let tls = serve(
        &[
            "--tls-cert",
            &minted.path("cert.pem"),
            "--tls-key",
            &minted.path("key.pem"),
        ],
        &[],
    );
    // Not trusted by default: one reason, not a failure per probe.
    let refused = wirecheck(
        &["run", "--revision", "2025-11-25", "--http", &tls.url],
        &[],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    let why = text(&refused);
    assert!(why.contains("TLS handshake"), "{why}");
    assert!(
        why.contains("--cacert") && why.contains("--insecure"),
        "{why}"
    );
    assert!(!why.contains("FAIL"), "{why}");

    let doc = minted.path("insecure.json");
    let insecure = wirecheck(
        &[
            "run",
            "--revision",
            "2025-11-25",
            "--http",
            &tls.url,
            "--insecure",
            "--out",
            &doc,
        ],
        &[],
    );
    assert_eq!(insecure.status.code(), Some(0), "{}", text(&insecure));
    assert!(
        text(&insecure).contains("NOT verified (--insecure)"),
        "the terminal says so: {}",
        text(&insecure)
    );
    let run = common::run_document(Path::new(&doc));
    assert_eq!(run["run"]["peer"]["tls"]["verified"], false);

    // A --cacert that is no certificate is named, before anything is sent.
    let bogus = minted.path("key.pem");
    let bad = wirecheck(
        &[
            "run",
            "--revision",
            "2025-11-25",
            "--http",
            &tls.url,
            "--cacert",
            &bogus,
        ],
        &[],
    );
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    assert!(text(&bad).contains("key.pem"), "{}", text(&bad));
}

#[test]
fn a_static_header_from_the_environment_is_sent_and_shown_nowhere() {
    const SECRET: &str = "s3cr3t-token-4f1d9";
    const OTHER: &str = "other-s3cr3t-77ab";
    let token = format!("Bearer {SECRET}");
    let env = [("WIRECHECK_TEST_TOKEN", token.as_str())];
    let served = serve(
        &["--require-header-env", "Authorization=WIRECHECK_TEST_TOKEN"],
        &env,
    );

    // Without the header the server answers 401 to everything: no run.
    let without = wirecheck(
        &["run", "--revision", "2025-11-25", "--http", &served.url],
        &[],
    );
    assert_eq!(without.status.code(), Some(2), "{}", text(&without));

    let dir = std::env::temp_dir().join(format!("wirecheck-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).display().to_string();
    let other = format!("X-Other: {OTHER}");
    let with = wirecheck(
        &[
            "run",
            "--revision",
            "2025-11-25",
            "--http",
            &served.url,
            "--header-env",
            "Authorization=WIRECHECK_TEST_TOKEN",
            "--header",
            &other,
            "--out",
            &file("run.json"),
            "--sarif",
            &file("run.sarif"),
            "--html",
            &file("run.html"),
            "--junit",
            &file("run.xml"),
            "--markdown",
            &file("run.md"),
            "--transcripts",
            &file("transcripts"),
            "--verbose",
        ],
        &env,
    );
    assert_eq!(with.status.code(), Some(0), "{}", text(&with));
    let mut outputs = vec![("stdout and stderr".to_owned(), text(&with))];
    collect(&dir, &mut outputs);
    assert!(
        outputs.len() >= 7,
        "every view was written: {}",
        outputs.len()
    );
    for (name, content) in &outputs {
        assert!(!content.contains(SECRET), "the token is in {name}");
        assert!(!content.contains(OTHER), "the --header value is in {name}");
    }
    let run = common::run_document(&dir.join("run.json"));
    let argv = run["run"]["argv"].to_string();
    assert!(argv.contains("X-Other: (redacted)"), "{argv}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn collect(dir: &Path, into: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, into);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            into.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
}

/// The proxy serves TLS to its client and speaks TLS to its upstream, each
/// with its own trust, and the conversation through it is judged as direct.
#[test]
fn the_proxy_serves_and_forwards_https() {
    use std::io::BufRead as _;
    let minted = Minted::new("proxy");
    let upstream = serve(
        &[
            "--tls-cert",
            &minted.path("cert.pem"),
            "--tls-key",
            &minted.path("key.pem"),
        ],
        &[],
    );
    let mut proxy = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .args([
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            &upstream.url,
            "--cacert",
            &minted.path("ca.pem"),
            "--tls-cert",
            &minted.path("cert.pem"),
            "--tls-key",
            &minted.path("key.pem"),
            "--quiet",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(proxy.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let origin = line
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected: {line}"))
        .to_owned();
    assert!(origin.starts_with("https://127.0.0.1:"), "{line}");
    let through = wirecheck(
        &[
            "run",
            "--revision",
            "2025-11-25",
            "--http",
            &format!("{origin}/mcp"),
            "--cacert",
            &minted.path("ca.pem"),
        ],
        &[],
    );
    let _ = proxy.kill();
    let _ = proxy.wait();
    assert_eq!(through.status.code(), Some(0), "{}", text(&through));
}
