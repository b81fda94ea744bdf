//! The GitHub Action (`.github/actions/wirecheck`) and the release workflow
//! (`.github/workflows/release.yml`) agree, and the action's install script
//! does what it says, run here as a runner would run it (no GitHub needed):
//!
//! - a binary packed by `package.sh` (what the release workflow runs) is
//!   installed by `install.sh` (what the action runs) from a local release
//!   folder (`file://`), after its SHA-256 matches `SHA256SUMS`;
//! - a binary whose checksum does not match, or is not listed, is refused;
//! - no binary for the runner, no release, or a ref that is no tag: built from
//!   source, by a stand-in for `cargo` that records what it was asked;
//! - every workflow and the action parse as YAML, the action installs with
//!   `install.sh` into the folder its run step runs from, and the release's
//!   build matrix is exactly the targets `install.sh` maps runners to.
//!
//! The YAML is read by PyYAML (shipped with this machine's Python; `.ci/run`
//! installs it pinned where it is not).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in the workspace")
        .to_path_buf()
}

fn action_dir() -> PathBuf {
    repo().join(".github/actions/wirecheck")
}

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("wirecheck-release-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the scratch folder is made");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `package.sh TAG TARGET BINARY OUT`. The binary is a stand-in that answers
/// `--version` as wirecheck does (all package.sh asks of it): the debug build
/// is some 200 MB, and compressing it would be most of this test's time.
fn package(tag: &str, target: &str, out: &Path) -> Output {
    let beside = out.parent().expect("the output folder is in a folder");
    std::fs::create_dir_all(beside).expect("its parent is made");
    let binary = beside.join("wirecheck-stand-in");
    std::fs::write(&binary, format!("#!/bin/sh\necho 'wirecheck {VERSION}'\n"))
        .expect("the stand-in is written");
    make_executable(&binary);
    Command::new(action_dir().join("package.sh"))
        .args([tag, target])
        .arg(&binary)
        .arg(out)
        .output()
        .expect("package.sh runs")
}

/// The stand-in answers as the binary it stands for.
#[test]
fn the_stand_in_answers_as_wirecheck_does() {
    let real = Command::new(env!("CARGO_BIN_EXE_wirecheck"))
        .arg("--version")
        .output()
        .expect("wirecheck runs");
    assert_eq!(text(&real.stdout).trim(), format!("wirecheck {VERSION}"));
}

/// What a run of `install.sh` is given: the runner, the releases folder, the
/// source checkout; `cargo` is always a stand-in that records its arguments to
/// `cargo.args` (and builds nothing), so a build, meant or not, shows there.
struct Install<'a> {
    scratch: &'a Scratch,
    runner: (&'a str, &'a str),
    source: Option<&'a Path>,
}

impl Install<'_> {
    fn run(&self, version: &str) -> Output {
        let cargo = self.scratch.0.join("cargo");
        std::fs::write(
            &cargo,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\nexit 0\n",
                self.scratch.0.join("cargo.args").display()
            ),
        )
        .expect("the cargo stand-in is written");
        make_executable(&cargo);
        let mut cmd = Command::new(action_dir().join("install.sh"));
        cmd.arg(version)
            .arg(self.scratch.0.join("root"))
            .env("RUNNER_OS", self.runner.0)
            .env("RUNNER_ARCH", self.runner.1)
            .env("WIRECHECK_REPOSITORY", "owner/wirecheck")
            .env(
                "WIRECHECK_RELEASES",
                format!("file://{}", self.scratch.0.join("releases").display()),
            )
            .env("CARGO", &cargo)
            .env_remove("WIRECHECK_SOURCE");
        if let Some(source) = self.source {
            cmd.env("WIRECHECK_SOURCE", source);
        }
        cmd.output().expect("install.sh runs")
    }

    /// The arguments the `cargo` stand-in was given, if it ran.
    fn cargo_args(&self) -> Option<Vec<String>> {
        let args = std::fs::read_to_string(self.scratch.0.join("cargo.args")).ok()?;
        Some(args.lines().map(str::to_owned).collect())
    }
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .expect("the file is made executable");
}

/// A release `tag` in `scratch/releases/tag`, holding the Linux x86_64 archive.
fn release(scratch: &Scratch, tag: &str) -> PathBuf {
    let dir = scratch.0.join("releases").join(tag);
    let out = package(tag, "x86_64-unknown-linux-gnu", &dir);
    assert!(out.status.success(), "package.sh: {}", text(&out.stderr));
    dir
}

const LINUX: (&str, &str) = ("Linux", "X64");

#[test]
fn a_release_binary_is_installed_once_its_checksum_matches() {
    let scratch = Scratch::new("ok");
    let tag = format!("v{VERSION}");
    let dir = release(&scratch, &tag);
    let archive = format!("wirecheck-{tag}-x86_64-unknown-linux-gnu.tar.gz");
    assert!(dir.join(&archive).is_file(), "package.sh names {archive}");
    let install = Install {
        scratch: &scratch,
        runner: LINUX,
        source: Some(&repo()),
    };
    let out = install.run(&tag);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "from=release\n");
    assert!(install.cargo_args().is_none(), "nothing was built");
    let installed = scratch.0.join("root/bin/wirecheck");
    let version = Command::new(&installed)
        .arg("--version")
        .output()
        .expect("the installed binary runs");
    assert_eq!(text(&version.stdout).trim(), format!("wirecheck {VERSION}"));
}

#[test]
fn a_binary_that_is_not_what_the_release_lists_is_refused() {
    let scratch = Scratch::new("tampered");
    let tag = format!("v{VERSION}");
    let dir = release(&scratch, &tag);
    let sums = dir.join("SHA256SUMS");
    let listed = std::fs::read_to_string(&sums).unwrap();
    let install = Install {
        scratch: &scratch,
        runner: LINUX,
        source: Some(&repo()),
    };
    let cases = [
        (
            format!("{}{}", "0".repeat(64), &listed[64..]),
            "has SHA-256",
        ),
        ("".to_owned(), "is not listed in SHA256SUMS"),
    ];
    for (sums_text, said) in cases {
        std::fs::write(&sums, sums_text).unwrap();
        let out = install.run(&tag);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(said) && stderr.contains("refusing it"),
            "{stderr}"
        );
        assert!(
            install.cargo_args().is_none(),
            "a refused binary is never a reason to build"
        );
        assert!(!scratch.0.join("root/bin/wirecheck").exists());
    }
}

#[test]
fn with_no_binary_for_the_runner_wirecheck_is_built_from_source() {
    let tag = format!("v{VERSION}");
    let repo = repo();
    let root = |s: &Scratch| s.0.join("root").display().to_string();
    let from_path = |s: &Scratch| {
        vec![
            "install".to_owned(),
            "--locked".into(),
            "--path".into(),
            format!("{}/conformance", repo.display()),
            "--root".into(),
            root(s),
        ]
    };
    // A runner no binary is built for; a ref that is no tag; a release with
    // no archive for this target; no release at all.
    type Case<'a> = (&'a str, (&'a str, &'a str), &'a str, &'a str);
    let cases: [Case<'_>; 4] = [
        (
            "windows",
            ("Windows", "X64"),
            "release",
            "no release binary for Windows/X64",
        ),
        ("branch", LINUX, "main", "main is no release tag"),
        ("no-asset", LINUX, "macos-only", "no wirecheck-"),
        (
            "no-release",
            LINUX,
            "v0.0.1",
            "no SHA256SUMS in release v0.0.1",
        ),
    ];
    for (name, runner, what, said) in cases {
        let scratch = Scratch::new(name);
        let version = match what {
            "release" => {
                release(&scratch, &tag);
                tag.clone()
            }
            "macos-only" => {
                let dir = release(&scratch, &tag);
                let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
                std::fs::write(
                    dir.join("SHA256SUMS"),
                    sums.replace("x86_64-unknown-linux-gnu", "aarch64-apple-darwin"),
                )
                .unwrap();
                for entry in std::fs::read_dir(&dir).unwrap() {
                    let path = entry.unwrap().path();
                    if path.extension().is_some_and(|e| e == "gz") {
                        std::fs::remove_file(path).unwrap();
                    }
                }
                tag.clone()
            }
            other => other.to_owned(),
        };
        let install = Install {
            scratch: &scratch,
            runner,
            source: Some(&repo),
        };
        let out = install.run(&version);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert_eq!(text(&out.stdout), "from=source\n", "{name}");
        assert!(stderr.contains(said), "{name}: {stderr}");
        assert_eq!(install.cargo_args(), Some(from_path(&scratch)), "{name}");
    }

    // A version other than the action's own ref has no checkout here: built
    // from the repository at that tag.
    let scratch = Scratch::new("git");
    let install = Install {
        scratch: &scratch,
        runner: LINUX,
        source: None,
    };
    let out = install.run("v0.0.1");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = [
        "install",
        "--locked",
        "--git",
        "https://github.com/owner/wirecheck",
        "--tag",
        "v0.0.1",
        "--root",
        &root(&scratch),
        "wirecheck",
    ];
    assert_eq!(
        install.cargo_args(),
        Some(expected.map(str::to_owned).to_vec())
    );
}

#[test]
fn a_tag_of_another_version_is_never_packaged() {
    let scratch = Scratch::new("other-tag");
    let dist = scratch.0.join("dist");
    let out = package("v999.0.0", "x86_64-unknown-linux-gnu", &dist);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&format!("tag v{VERSION}")), "{stderr}");
    assert!(!dist.exists(), "nothing written");
}

/// `path` read as YAML (by PyYAML), as JSON.
fn yaml(path: &Path) -> Value {
    let out = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
        ])
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{} does not parse as YAML (or PyYAML is missing: pip install pyyaml==6.0.3): {}",
        path.display(),
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("PyYAML writes JSON")
}

/// The targets `install.sh` maps a runner to, over every runner GitHub has.
fn mapped_targets() -> BTreeSet<String> {
    let script = format!(
        "source '{}'; for r in Linux/X64 Linux/ARM64 macOS/X64 macOS/ARM64 Windows/X64 Windows/ARM64; do \
         wirecheck_target \"${{r%/*}}\" \"${{r#*/}}\" || true; done",
        action_dir().join("release-asset.sh").display()
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_owned).collect()
}

/// The `run:` text of every step of every job of a workflow, joined.
fn runs(workflow: &Value) -> String {
    let mut all = String::new();
    for job in workflow["jobs"]
        .as_object()
        .into_iter()
        .flat_map(|j| j.values())
    {
        for step in job["steps"].as_array().into_iter().flatten() {
            all.push_str(step["run"].as_str().unwrap_or_default());
            all.push('\n');
        }
    }
    all
}

#[test]
fn the_action_and_the_release_workflow_agree() {
    let workflows = repo().join(".github/workflows");
    let mut parsed = 0;
    for entry in std::fs::read_dir(&workflows).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
            let doc = yaml(&path);
            assert!(doc["jobs"].is_object(), "{} has no jobs", path.display());
            parsed += 1;
        }
    }
    assert!(parsed >= 2);

    let release = yaml(&workflows.join("release.yml"));
    // PyYAML reads YAML 1.1, where a bare `on` is `true`.
    let on = &release.get("on").unwrap_or(&release["true"]);
    assert_eq!(on["push"]["tags"], serde_json::json!(["v*"]));
    let matrix: BTreeSet<String> = release["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("a build matrix of targets")
        .iter()
        .map(|e| {
            e["target"]
                .as_str()
                .expect("each entry names a target")
                .to_owned()
        })
        .collect();
    assert_eq!(
        matrix,
        mapped_targets(),
        "release.yml builds other targets than install.sh fetches"
    );
    let release_runs = runs(&release);
    assert!(release_runs.contains(".github/actions/wirecheck/package.sh \"$GITHUB_REF_NAME\""));
    assert!(release_runs.contains("dist/SHA256SUMS"));
    assert!(release_runs.contains("gh release upload \"$GITHUB_REF_NAME\" dist/*"));

    let action = yaml(&action_dir().join("action.yml"));
    assert_eq!(action["runs"]["using"], "composite");
    assert!(
        action["inputs"]["version"].is_object(),
        "the action takes a version"
    );
    let steps = action["runs"]["steps"].as_array().unwrap();
    let install = steps
        .iter()
        .find(|s| s["id"] == "install")
        .expect("a step with id install");
    let run = install["run"].as_str().unwrap();
    assert!(run.contains("\"$GITHUB_ACTION_PATH/install.sh\""), "{run}");
    assert!(
        run.contains("\"$RUNNER_TEMP/wirecheck\" >>\"$GITHUB_OUTPUT\""),
        "{run}"
    );
    assert_eq!(
        action["outputs"]["installed-from"]["value"],
        "${{ steps.install.outputs.from }}"
    );
    let suite = steps
        .iter()
        .find(|s| s["name"] == "Run the suite")
        .and_then(|s| s["run"].as_str())
        .unwrap();
    assert!(
        suite.contains("\"$RUNNER_TEMP/wirecheck/bin/wirecheck\""),
        "{suite}"
    );
    // The build from source is install.sh's fallback now, never a step of its own.
    assert!(!steps.iter().any(|s| s["run"]
        .as_str()
        .is_some_and(|r| r.contains("cargo install"))));
}
