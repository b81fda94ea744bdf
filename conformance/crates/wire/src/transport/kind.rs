//! The transport vocabulary lives in `ground` ([`ground::transport`]), below
//! the report model whose records name it; here at its old path so the
//! transports and commands keep naming it `transport::Kind`.

pub use ground::transport::{HttpKind, Kind};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_reads_names() {
        #[derive(serde::Deserialize)]
        struct M {
            transports: Vec<Kind>,
        }
        let m: M = toml::from_str(r#"transports = ["stdio", "sse"]"#).unwrap();
        assert_eq!(m.transports, [Kind::Stdio, Kind::Http(HttpKind::Sse)]);
        let e = toml::from_str::<M>(r#"transports = ["tcp"]"#)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("unknown variant `tcp`, expected one of `stdio`, `streamable-http`, `sse`, `jsonrpc-http`"), "{e}");
    }
}
