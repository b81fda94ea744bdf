// The fixed message mix, shared verbatim (`#[path]`) by `wirecheck-benches` and
// `lossless-value`, so both benches measure the same frames under the same names.

/// One frame of the mix: the bench group's name, the file under `benches/data/`,
/// how many JSON-RPC messages it carries, and which way it travels.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The criterion group name, also the file stem.
    pub name: &'static str,
    /// Messages in the frame (a batch counts each element).
    pub messages: u64,
    /// `true` for a frame a client sends (requests), `false` for a server's reply.
    pub from_client: bool,
    /// Whether the frame is a batch (a JSON array of messages).
    pub batch: bool,
}

/// The mix, in the order the table of `conformance/book/benchmarks.md` lists it.
pub const MIX: [Spec; 5] = [
    Spec {
        name: "ping",
        messages: 1,
        from_client: true,
        batch: false,
    },
    Spec {
        name: "tools_call",
        messages: 1,
        from_client: true,
        batch: false,
    },
    Spec {
        name: "tools_list",
        messages: 1,
        from_client: false,
        batch: false,
    },
    Spec {
        name: "resources_read",
        messages: 1,
        from_client: false,
        batch: false,
    },
    Spec {
        name: "batch",
        messages: 100,
        from_client: true,
        batch: true,
    },
];

/// The frame's bytes, read from `<data_dir>/<name>.json` (`benches/data/`).
///
/// # Panics
/// When the file is missing: the benches measure nothing without their data.
#[must_use]
pub fn load(spec: &Spec, data_dir: &str) -> Vec<u8> {
    let path = std::path::Path::new(data_dir).join(format!("{}.json", spec.name));
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `python3 benches/data/generate.py`)",
            path.display()
        )
    })
}
