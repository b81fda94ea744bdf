//! The contenders the benches time, each one function from frame bytes to frame
//! bytes, so the criterion bench, the `facts` binary and the tests call the same
//! code.
//!
//! "Round trip" means decode and encode again: what a bridge does with every
//! frame. Each alternative is used the way its users use it:
//! - `serde_json::Value`: parse to a tree, serialize it (this workspace builds
//!   serde_json without `arbitrary_precision`/`preserve_order`; the lossless build
//!   is timed by the separate `lossless-value` crate);
//! - `rmcp`: the official Rust MCP SDK's typed `ClientJsonRpcMessage` for frames
//!   a client sends, `ServerJsonRpcMessage` for a server's replies. rmcp has no
//!   batch type (MCP 2025-06-18 dropped batches), so a batch is a `Vec` of them;
//! - `jsonrpsee-types`: `Request` (params kept as a borrowed `RawValue`),
//!   `Notification`, and `Response<&RawValue>` for a result: jsonrpsee's server
//!   reads a batch as a `Vec<&RawValue>` and each element as a request or, failing
//!   that, a notification, and so does this.

#[path = "messages.rs"]
mod messages;

pub use messages::{Spec, MIX};

use serde::de::IgnoredAny;
use serde_json::value::RawValue;

/// The folder holding the message mix.
pub const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

/// The frame's bytes from `benches/data/`.
#[must_use]
pub fn load(spec: &Spec) -> Vec<u8> {
    messages::load(spec, DATA_DIR)
}

/// A failed decode, as text: the benches only need to know it failed and why.
pub type Outcome = Result<Vec<u8>, String>;

/// The wirecheck codec: `lower(lift(b))`.
pub fn wirecheck(input: &[u8]) -> Outcome {
    let frame = harness::lift(input).map_err(|e| e.to_string())?;
    Ok(harness::lower_to_vec(&frame))
}

/// The validate-only floor: the least work a validating JSON reader can do.
pub fn floor(input: &[u8]) -> Result<(), String> {
    serde_json::from_slice::<IgnoredAny>(input)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `serde_json::Value` parse + serialize.
pub fn serde_value(input: &[u8]) -> Outcome {
    let value: serde_json::Value = serde_json::from_slice(input).map_err(|e| e.to_string())?;
    serde_json::to_vec(&value).map_err(|e| e.to_string())
}

/// rmcp's typed decode + encode.
pub fn rmcp(input: &[u8], spec: &Spec) -> Outcome {
    use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
    fn typed<T: serde::de::DeserializeOwned + serde::Serialize>(input: &[u8]) -> Outcome {
        let message: T = serde_json::from_slice(input).map_err(|e| e.to_string())?;
        serde_json::to_vec(&message).map_err(|e| e.to_string())
    }
    match (spec.batch, spec.from_client) {
        (false, true) => typed::<ClientJsonRpcMessage>(input),
        (false, false) => typed::<ServerJsonRpcMessage>(input),
        (true, true) => typed::<Vec<ClientJsonRpcMessage>>(input),
        (true, false) => typed::<Vec<ServerJsonRpcMessage>>(input),
    }
}

/// jsonrpsee-types' typed decode + encode.
pub fn jsonrpsee(input: &[u8], spec: &Spec) -> Outcome {
    let err = |e: serde_json::Error| e.to_string();
    if !spec.from_client {
        let response: jsonrpsee_types::Response<'_, &RawValue> =
            serde_json::from_slice(input).map_err(err)?;
        return serde_json::to_vec(&response).map_err(err);
    }
    if !spec.batch {
        return jsonrpsee_call(input).map_err(err);
    }
    let elements: Vec<&RawValue> = serde_json::from_slice(input).map_err(err)?;
    let mut out = Vec::with_capacity(input.len());
    out.push(b'[');
    for (i, element) in elements.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&jsonrpsee_call(element.get().as_bytes()).map_err(err)?);
    }
    out.push(b']');
    Ok(out)
}

/// One request, or failing that one notification, as jsonrpsee's server reads it.
fn jsonrpsee_call(input: &[u8]) -> Result<Vec<u8>, serde_json::Error> {
    match serde_json::from_slice::<jsonrpsee_types::Request<'_>>(input) {
        Ok(request) => serde_json::to_vec(&request),
        Err(_) => {
            let notification: jsonrpsee_types::Notification<'_, Option<&RawValue>> =
                serde_json::from_slice(input)?;
            serde_json::to_vec(&notification)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every contender decodes every frame of the mix: a bench of a failing
    /// decode would time an error path and call it a figure.
    #[test]
    fn every_contender_decodes_the_whole_mix() {
        for spec in &MIX {
            let input = load(spec);
            floor(&input).unwrap();
            assert_eq!(
                wirecheck(&input).unwrap(),
                input,
                "{}: byte-identical",
                spec.name
            );
            for (name, out) in [
                ("serde_value", serde_value(&input)),
                ("rmcp", rmcp(&input, spec)),
                ("jsonrpsee", jsonrpsee(&input, spec)),
            ] {
                let out = out.unwrap_or_else(|e| panic!("{name} on {}: {e}", spec.name));
                // Whatever they drop or reorder, each must give back valid JSON.
                floor(&out).unwrap_or_else(|e| panic!("{name} on {}: {e}", spec.name));
            }
        }
    }

    #[test]
    fn the_mix_has_the_sizes_the_issue_asks_for() {
        let sizes: Vec<usize> = MIX.iter().map(|s| load(s).len()).collect();
        assert!(sizes[0] <= 48, "ping {}", sizes[0]);
        assert!((350..=500).contains(&sizes[1]), "tools/call {}", sizes[1]);
        assert!(
            (25_000..=40_000).contains(&sizes[2]),
            "tools/list {}",
            sizes[2]
        );
        assert!(sizes[3] > 1 << 20, "resources/read {}", sizes[3]);
        let batch = load(&MIX[4]);
        let batch = harness::lift(&batch).unwrap();
        assert_eq!(batch.messages().len(), 100);
    }
}
