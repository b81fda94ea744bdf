//! What a server's request to the client needs the client to have declared:
//! the feature's capability (client/roots, client/sampling, client/elicitation
//! §Capabilities) and, from 2025-11-25, the member inside it that a mode or an
//! option needs. Shared by the 2026-07-28 exchange check (MRTR input requests
//! against the request's `_meta` capabilities, `rules::answers`) and the
//! session judge (a 2025-11-25 server request against the `initialize`
//! capabilities), so both read one table.

use crate::ir::{Raw, ValueKind};

/// Why a capability is needed: each is a different sentence, and so a
/// different rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Why {
    /// The feature itself (`roots`, `sampling`, `elicitation`).
    Feature,
    /// An elicitation mode: `elicitation.form` (or `elicitation: {}`) or
    /// `elicitation.url`.
    ElicitationMode,
    /// Tool-enabled sampling: `sampling.tools`.
    SamplingTools,
    /// `includeContext` other than `"none"`: `sampling.context` (a SHOULD).
    SamplingContext,
}

/// One need: capability, optional member inside it, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Need {
    pub(crate) capability: &'static str,
    pub(crate) member: Option<&'static str>,
    pub(crate) why: Why,
}

const fn need(capability: &'static str, member: Option<&'static str>, why: Why) -> Need {
    Need {
        capability,
        member,
        why,
    }
}

impl Need {
    /// `roots`, `sampling.tools`, … for messages.
    pub(crate) fn name(self) -> String {
        self.member.map_or_else(
            || format!("`{}`", self.capability),
            |m| format!("`{}.{m}`", self.capability),
        )
    }
}

/// The needs of a server request `method` with `params`. Elicitation without
/// `mode` is form mode (client/elicitation §Elicitation Requests).
pub(crate) fn needs(method: &str, params: Option<&Raw<'_>>) -> Vec<Need> {
    let param = |name: &str| params.and_then(|p| p.get(name).map(Raw::into_owned));
    let text = |name: &str| param(name).and_then(|v| v.as_string().map(|s| s.into_owned()));
    match method {
        "roots/list" => vec![need("roots", None, Why::Feature)],
        "sampling/createMessage" => {
            let mut out = vec![need("sampling", None, Why::Feature)];
            // Tool-enabled: a `tools` array (client/sampling §Tools in Sampling).
            if param("tools").is_some_and(|t| t.kind() == ValueKind::Array) {
                out.push(need("sampling", Some("tools"), Why::SamplingTools));
            }
            if matches!(
                text("includeContext").as_deref(),
                Some("thisServer" | "allServers")
            ) {
                out.push(need("sampling", Some("context"), Why::SamplingContext));
            }
            out
        }
        "elicitation/create" => {
            let mode = if text("mode").as_deref() == Some("url") {
                "url"
            } else {
                "form"
            };
            vec![
                need("elicitation", None, Why::Feature),
                need("elicitation", Some(mode), Why::ElicitationMode),
            ]
        }
        _ => Vec::new(),
    }
}

/// Whether `caps` (the client's capabilities object) declares `need`: the
/// capability is an object and the member, when named, an object in it. An
/// empty `elicitation` declares form mode (client/elicitation §Capabilities:
/// "an empty capabilities object is equivalent to declaring support for
/// `form` mode only").
pub(crate) fn declares(caps: Option<&Raw<'_>>, need: Need) -> bool {
    let Some(cap) = caps.and_then(|c| c.get(need.capability)) else {
        return false;
    };
    if cap.kind() != ValueKind::Object {
        return false;
    }
    match need.member {
        None => true,
        Some(m) if cap.get(m).is_some_and(|v| v.kind() == ValueKind::Object) => true,
        // Only elicitation has a `form` member.
        Some("form") => cap.members().next().is_none(),
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Raw<'static> {
        Raw::parse(text).expect("valid JSON").into_owned()
    }

    #[test]
    fn elicitation_modes_follow_the_capability_object() {
        let form = need("elicitation", Some("form"), Why::ElicitationMode);
        let url = need("elicitation", Some("url"), Why::ElicitationMode);
        let empty = raw(r#"{"elicitation":{}}"#);
        let url_only = raw(r#"{"elicitation":{"url":{}}}"#);
        assert!(declares(Some(&empty), form));
        assert!(!declares(Some(&empty), url));
        assert!(!declares(Some(&url_only), form));
        assert!(declares(Some(&url_only), url));
        assert!(!declares(None, need("roots", None, Why::Feature)));
    }

    #[test]
    fn sampling_options_add_their_needs() {
        let p = raw(r#"{"messages":[],"maxTokens":5,"tools":[],"includeContext":"allServers"}"#);
        let whys: Vec<Why> = needs("sampling/createMessage", Some(&p))
            .iter()
            .map(|n| n.why)
            .collect();
        assert_eq!(
            whys,
            [Why::Feature, Why::SamplingTools, Why::SamplingContext]
        );
        let plain = raw(r#"{"messages":[],"maxTokens":5,"includeContext":"none"}"#);
        assert_eq!(needs("sampling/createMessage", Some(&plain)).len(), 1);
        assert!(needs("tools/call", None).is_empty());
    }
}
