//! Embeds `vectors/` into the binary, so an installed `wirecheck run` (no
//! checkout) still has its probes: writes `$OUT_DIR/embedded_vectors.rs`, a
//! slice of `(path under vectors/, include_bytes!(…))` that
//! `wirecheck::vectors::embedded` loads with the same checks as `load_all`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // Read at run time, not baked in with `env!`: cargo reuses a compiled
    // build script across checkouts sharing one target directory, and a
    // baked-in path then walks another (or a vanished) checkout's vectors.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("vectors");
    // Cargo scans a directory given here for any change beneath it.
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        let rel = path
            .strip_prefix(&root)
            .expect("walked under the root")
            .to_str()
            .expect("vector paths are UTF-8 (the loader refuses others)")
            .replace('\\', "/");
        let abs = path.to_str().expect("the checkout's path is UTF-8");
        writeln!(out, "    ({rel:?}, include_bytes!({abs:?})),").expect("write to a String");
    }
    out.push(']');
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("embedded_vectors.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}
