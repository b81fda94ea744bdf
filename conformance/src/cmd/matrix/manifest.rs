//! The zoo manifest (`zoo.toml`): which servers a matrix judges, at which
//! pinned versions, and how each starts. Read once, checked whole, before
//! any server starts, so a typo is a usage error (exit 2) and not a column
//! of "could not run".

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::transport::{HttpKind, Kind};

/// A manifest read from disk: its servers, sorted by name (the order
/// `--shard` counts in), and the folder their paths are relative to.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The manifest file, as named on the command line.
    pub path: PathBuf,
    /// Its folder: every command's working directory, every path's base.
    pub dir: PathBuf,
    /// The servers, sorted by name.
    pub servers: Vec<Server>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    server: Vec<Server>,
}

/// One server of the zoo.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Server {
    /// Its name in the matrix and in file names (`[A-Za-z0-9._-]`).
    pub name: String,
    /// Where it comes from: `npm`, `pypi`, `crates.io` or `builtin`.
    pub ecosystem: String,
    /// `name@exact-version`, as the install scripts pin it.
    pub package: String,
    /// `mcp` or `jsonrpc-2.0`.
    pub profile: Profile,
    /// The revisions it claims (MCP); informative, every revision is played.
    #[serde(default)]
    pub revisions: Vec<String>,
    /// The transports it is judged over.
    pub transports: Vec<Kind>,
    /// Its command line over stdio.
    pub stdio: Option<String>,
    /// How it starts as an HTTP server.
    pub http: Option<Http>,
    /// Commands run before it starts, in order.
    #[serde(default)]
    pub setup: Vec<String>,
    /// An `--expected-failures` file, relative to the manifest's folder.
    pub baseline: Option<PathBuf>,
}

/// The profile a server is judged under.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
pub enum Profile {
    /// The Model Context Protocol.
    #[serde(rename = "mcp")]
    Mcp,
    /// Plain JSON-RPC 2.0 (no handshake).
    #[serde(rename = "jsonrpc-2.0")]
    JsonRpc,
}

impl Profile {
    /// Its name, as the manifest and the matrix write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Profile::Mcp => "mcp",
            Profile::JsonRpc => "jsonrpc-2.0",
        }
    }
}

/// How an HTTP server starts and where it answers.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Http {
    /// Its command line, with `{port}` where the port goes.
    pub command: String,
    /// The URL path of the endpoint (`/mcp`, `/`).
    pub path: String,
}

impl Server {
    /// The version part of `package` (after its last `@` past the first
    /// character, so `@scope/name@1.2.3` gives `1.2.3`).
    #[must_use]
    pub fn version(&self) -> &str {
        self.package
            .get(1..)
            .and_then(|rest| rest.rfind('@').map(|i| &rest[i + 1..]))
            .unwrap_or("")
    }

    fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        {
            return Err(format!(
                "server name `{name}`: only letters, digits, `.`, `_` and `-` (it names files)"
            ));
        }
        if self.version().is_empty() {
            return Err(format!(
                "{name}: package `{}` is not name@exact-version",
                self.package
            ));
        }
        if self.transports.is_empty() {
            return Err(format!("{name}: no transports"));
        }
        for &t in &self.transports {
            match (t, self.profile) {
                (Kind::Stdio, _) if self.stdio.is_none() => {
                    return Err(format!("{name}: transport stdio needs `stdio = \"…\"`"));
                }
                (Kind::Stdio, _) => {}
                (_, _) if self.http.is_none() => {
                    return Err(format!(
                        "{name}: transport {} needs `http = {{ command, path }}`",
                        t.name()
                    ));
                }
                (Kind::Http(HttpKind::JsonRpc), Profile::Mcp)
                | (Kind::Http(HttpKind::Streamable | HttpKind::Sse), Profile::JsonRpc) => {
                    return Err(format!(
                        "{name}: transport {} does not carry profile {}",
                        t.name(),
                        self.profile.name()
                    ));
                }
                _ => {}
            }
        }
        if let Some(http) = &self.http {
            if !http.command.contains("{port}") {
                return Err(format!("{name}: the http command has no `{{port}}`"));
            }
            if !http.path.starts_with('/') {
                return Err(format!("{name}: the http path must start with `/`"));
            }
        }
        Ok(())
    }
}

impl Manifest {
    /// Reads and checks the manifest at `path`.
    ///
    /// # Errors
    /// It cannot be read, is not TOML of this shape, or names a server
    /// twice or inconsistently; the message names the file.
    pub fn load(path: &Path) -> Result<Manifest, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::parse(path, &text)
    }

    /// [`Manifest::load`] on text already read.
    ///
    /// # Errors
    /// As [`Manifest::load`].
    pub fn parse(path: &Path, text: &str) -> Result<Manifest, String> {
        let file: File = toml::from_str(text).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut servers = file.server;
        let mut seen = BTreeSet::new();
        for server in &servers {
            server
                .check()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if !seen.insert(server.name.clone()) {
                return Err(format!(
                    "{}: server `{}` is named twice",
                    path.display(),
                    server.name
                ));
            }
        }
        servers.sort_by(|a, b| a.name.cmp(&b.name));
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(Manifest {
            path: path.to_path_buf(),
            dir,
            servers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zoo_manifest_loads_sorted_by_name() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/zoo/zoo.toml");
        let manifest = Manifest::load(&path).unwrap();
        let names: Vec<&str> = manifest.servers.iter().map(|s| s.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        assert!(names.len() >= 7, "{names:?}");
        let jayson = manifest
            .servers
            .iter()
            .find(|s| s.name == "jayson")
            .unwrap();
        assert_eq!(jayson.version(), "5.0.0");
        assert_eq!(jayson.transports, [Kind::Http(HttpKind::JsonRpc)]);
        let memory = manifest
            .servers
            .iter()
            .find(|s| s.name == "server-memory")
            .unwrap();
        assert_eq!(memory.version(), "2026.8.31");
        assert_eq!(memory.profile, Profile::Mcp);
    }

    #[test]
    fn inconsistent_servers_are_refused_before_anything_starts() {
        let p = Path::new("m.toml");
        let base = "name = \"a\"\necosystem = \"npm\"\npackage = \"a@1.0.0\"\n";
        let bad = [
            // stdio named but no command
            "profile = \"mcp\"\ntransports = [\"stdio\"]\n",
            // an HTTP server without {port}
            "profile = \"jsonrpc-2.0\"\ntransports = [\"jsonrpc-http\"]\nhttp = { command = \"x\", path = \"/\" }\n",
            // MCP over the plain JSON-RPC transport
            "profile = \"mcp\"\ntransports = [\"jsonrpc-http\"]\nhttp = { command = \"x {port}\", path = \"/\" }\n",
            // an unknown key (a typo)
            "profile = \"mcp\"\ntransports = [\"stdio\"]\nstdio = \"x\"\nbaseilne = \"b.json\"\n",
        ];
        for tail in bad {
            let text = format!("[[server]]\n{base}{tail}");
            assert!(Manifest::parse(p, &text).is_err(), "{text}");
        }
        let good = format!(
            "[[server]]\n{base}profile = \"mcp\"\ntransports = [\"stdio\"]\nstdio = \"x\"\n"
        );
        assert!(Manifest::parse(p, &good).is_ok());
        let twice = format!("{good}{good}");
        assert!(Manifest::parse(p, &twice).unwrap_err().contains("twice"));
        let unpinned = good.replace("a@1.0.0", "a");
        assert!(Manifest::parse(p, &unpinned).is_err());
    }
}
