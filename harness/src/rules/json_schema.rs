//! The JSON Schemas a message carries, judged with [`crate::schema_check`].
//!
//! basic/index §JSON Schema Usage › Schema Validation (2025-11-25, 2026-07-28,
//! MUST): "Schemas MUST be valid according to their declared or default
//! dialect". Every schema a server sends is checked against its dialect's
//! meta-schema: a `tools/list` answer's `inputSchema` and `outputSchema` (on
//! the exchange: only the request says the result is a tool list), an
//! `elicitation/create`'s `requestedSchema`, and the `inputSchema` and
//! `outputSchema` of a `sampling/createMessage`'s `tools` (per frame). No
//! client message carries a schema in any revision.
//!
//! schema `ToolResultContent.structuredContent` (2025-11-25, 2026-07-28,
//! SHOULD): "If the tool defined an outputSchema, this SHOULD conform to that
//! schema." The tool is one of the sampling request's own `tools`, named by
//! the `tool_use` block whose `id` the result's `toolUseId` gives, so one
//! frame shows it.
//!
//! What [`crate::schema_check`] cannot judge (a dialect it does not know, a
//! `$ref` that does not resolve: nothing is fetched) is not reported here:
//! a frame rule has findings only, and an unread schema is none.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{at, Report, RuleId};
use crate::ir::{Raw, ValueKind};
use crate::schema_check::{self, Verdict};

/// The members of a tool that hold a schema.
const TOOL_SCHEMAS: [&str; 2] = ["inputSchema", "outputSchema"];

/// `holder`'s member `name` when it is an object (a schema that is no object
/// is the MCP schema's to refuse: every MCP schema member is typed `object`).
fn schema_at(holder: &Raw<'_>, name: &str) -> Option<Value> {
    holder
        .get(name)
        .filter(|s| s.kind() == ValueKind::Object)
        .and_then(|s| s.to_value())
}

/// Reports `rule` when `schema` (at `pointer`) breaks its meta-schema.
fn meta(rule: RuleId, schema: &Value, pointer: &str, what: &str, out: &mut Report) {
    if let Verdict::Breaks(b) = schema_check::valid(schema, out.revision) {
        out.flag(
            rule,
            format!("{pointer}{}", b.pointer),
            format!("{what} is no valid JSON Schema: {}", b.why),
        );
    }
}

/// The tools of a `tools/list` result (`pointer` at the result).
pub(super) fn tools_list(result: &Raw<'_>, pointer: &str, out: &mut Report) {
    if !out.applies(RuleId::McpSchemaToolsValid) {
        return;
    }
    tools(result, pointer, RuleId::McpSchemaToolsValid, out);
}

/// Each tool of `holder.tools` (`pointer` at `holder`): its schemas against
/// their meta-schemas. Returns each tool's `outputSchema` by name.
fn tools(
    holder: &Raw<'_>,
    pointer: &str,
    rule: RuleId,
    out: &mut Report,
) -> BTreeMap<String, Value> {
    let mut output = BTreeMap::new();
    let Some(list) = holder.get("tools").filter(|l| l.kind() == ValueKind::Array) else {
        return output;
    };
    let base = at(pointer, "tools");
    for (i, tool) in list.elements().enumerate() {
        let here = at(&base, &i.to_string());
        for member in TOOL_SCHEMAS {
            let Some(schema) = schema_at(&tool, member) else {
                continue;
            };
            let what = format!("the tool's `{member}`");
            meta(rule, &schema, &at(&here, member), &what, out);
            if member == "outputSchema" {
                if let Some(name) = string(&tool, "name") {
                    output.insert(name, schema);
                }
            }
        }
    }
    output
}

/// A request a server sends (`pointer` at its `params`).
pub(super) fn request(method: &str, params: &Raw<'_>, pointer: &str, out: &mut Report) {
    match method {
        "elicitation/create" if out.applies(RuleId::McpSchemaValid) => {
            if let Some(schema) = schema_at(params, "requestedSchema") {
                let here = at(pointer, "requestedSchema");
                meta(
                    RuleId::McpSchemaValid,
                    &schema,
                    &here,
                    "the `requestedSchema`",
                    out,
                );
            }
        }
        "sampling/createMessage"
            if out.applies(RuleId::McpSchemaValid)
                || out.applies(RuleId::McpSamplingToolResultConform) =>
        {
            let output = tools(params, pointer, RuleId::McpSchemaValid, out);
            if !output.is_empty() {
                tool_results(params, pointer, &output, out);
            }
        }
        _ => {}
    }
}

/// The content blocks of a sampling message: one block or an array of them,
/// with the pointer to each.
fn blocks<'r>(message: &'r Raw<'_>, pointer: &str) -> Vec<(Raw<'r>, String)> {
    let here = at(pointer, "content");
    match message.get("content") {
        Some(c) if c.kind() == ValueKind::Array => c
            .elements()
            .enumerate()
            .map(|(i, b)| (b.into_owned(), at(&here, &i.to_string())))
            .collect(),
        Some(c) => vec![(c.into_owned(), here)],
        None => Vec::new(),
    }
}

fn string(holder: &Raw<'_>, name: &str) -> Option<String> {
    holder
        .get(name)
        .and_then(|v| v.as_string().map(|s| s.into_owned()))
}

/// The `tool_result` blocks of a sampling request's messages whose tool use
/// (an earlier `tool_use` block with that `id`) named a tool with an
/// `outputSchema`: their `structuredContent` against it. A result with
/// `isError: true` reports a failed use, not the tool's output (as
/// server/tools §Output Schema is judged), so it is not judged.
fn tool_results(
    params: &Raw<'_>,
    pointer: &str,
    output: &BTreeMap<String, Value>,
    out: &mut Report,
) {
    let Some(messages) = params.get("messages") else {
        return;
    };
    let base = at(pointer, "messages");
    let mut used: BTreeMap<String, String> = BTreeMap::new();
    for (i, message) in messages.elements().enumerate() {
        for (block, here) in blocks(&message, &at(&base, &i.to_string())) {
            match string(&block, "type").as_deref() {
                Some("tool_use") => {
                    if let (Some(id), Some(name)) = (string(&block, "id"), string(&block, "name")) {
                        used.insert(id, name);
                    }
                }
                Some("tool_result") => {
                    if block.get("isError").is_some_and(|e| e.as_str() == "true") {
                        continue;
                    }
                    let Some(name) = string(&block, "toolUseId").and_then(|id| used.get(&id))
                    else {
                        continue;
                    };
                    let Some(schema) = output.get(name) else {
                        continue;
                    };
                    let Some(content) = block.get("structuredContent").and_then(|c| c.to_value())
                    else {
                        continue;
                    };
                    if let Verdict::Breaks(b) =
                        schema_check::conform(schema, &content, out.revision)
                    {
                        out.flag(
                            RuleId::McpSamplingToolResultConform,
                            format!("{}{}", at(&here, "structuredContent"), b.pointer),
                            format!(
                                "the `structuredContent` of a result of tool {name:?} breaks the tool's `outputSchema`: {}",
                                b.why
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }
}
