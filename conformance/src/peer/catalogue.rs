//! The fixed catalogue the reference peer offers: the tools, prompt and
//! resources the golden vectors assume (`echo`, `pay`, `long_job`, the
//! `code_review` prompt, `file:///project/README.md`), so every vector that
//! names a fixture can be played against it.

use harness::Revision;
use serde_json::{json, Value};

/// The most entries a list page carries. Small on purpose: with three tools,
/// `tools/list` needs two pages, so clients' pagination is exercised.
pub(crate) const PAGE_SIZE: usize = 2;

/// A tool: its listing and whether the call exercises progress.
pub(crate) struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    /// The JSON Schema of its arguments (server/tools §Tool: `inputSchema` is required).
    pub input_schema: fn() -> Value,
    /// Its `execution.taskSupport` under 2025-11-25 (basic/utilities/tasks
    /// §Tool-Level Negotiation); `None`: absent, the default "forbidden".
    pub task_support: Option<&'static str>,
    /// The one revision it is listed and called in, if only one: `route`'s
    /// `x-mcp-header` annotations mean something in 2026-07-28 alone.
    pub only: Option<Revision>,
}

pub(crate) const TOOLS: &[Tool] = &[
    Tool {
        name: "echo",
        description: "Returns its `text` argument as text content.",
        input_schema: || {
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
        },
        task_support: None,
        only: None,
    },
    Tool {
        name: "pay",
        description: "Stands for a tool whose backend fails: every call is answered with an Internal error (-32603) carrying structured `data`, which a client must relay whole.",
        input_schema: || {
            json!({"type": "object", "properties": {"amount": {"type": "number"}, "to": {"type": "string"}}})
        },
        task_support: None,
        only: None,
    },
    Tool {
        name: "long_job",
        description: "Runs `steps` steps (default 3, at most 100), reporting progress after each when the request carries a progressToken.",
        input_schema: || {
            json!({"type": "object", "properties": {"steps": {"type": "integer", "minimum": 1, "maximum": 100}}})
        },
        // The one long-running tool: a client may call it as a task or not.
        task_support: Some("optional"),
        only: None,
    },
    Tool {
        name: ROUTE,
        description: "Returns its `region` (and `count`, when given) as text. Over Streamable HTTP both are mirrored into headers, `Mcp-Param-Region` and `Mcp-Param-Count`, as their `x-mcp-header` annotations say.",
        // 2026-07-28 basic/transports/streamable-http §Schema Extension: one
        // string and one integer parameter mirrored into headers, so the
        // transport judge's custom-header probes (a string value with invalid
        // characters, a missing header, an integer compared numerically) are
        // proven against this peer.
        input_schema: || {
            json!({"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "count": {"type": "integer", "x-mcp-header": "Count"}
            }, "required": ["region"]})
        },
        task_support: None,
        only: Some(Revision::Mcp2026_07_28),
    },
];

/// The tool whose parameters are mirrored into `Mcp-Param-*` headers.
pub(crate) const ROUTE: &str = "route";

impl Tool {
    /// Whether it is offered under `revision`.
    pub(crate) fn offered_in(&self, revision: Revision) -> bool {
        self.only.is_none_or(|only| only == revision)
    }
}

/// The one prompt, with its arguments (server/prompts §Data Types).
pub(crate) const PROMPT: &str = "code_review";

pub(crate) fn prompt_listing() -> Value {
    json!({
        "name": PROMPT,
        "description": "Asks the model to review a piece of code.",
        "arguments": [
            {"name": "code", "description": "The code to review.", "required": true},
            {"name": "language", "description": "The code's language.", "required": false}
        ]
    })
}

/// Values `completion/complete` offers for the prompt's `language` argument.
pub(crate) const LANGUAGES: &[&str] = &[
    "c",
    "go",
    "java",
    "javascript",
    "python",
    "pytorch",
    "ruby",
    "rust",
    "typescript",
];

/// The one resource.
pub(crate) const README_URI: &str = "file:///project/README.md";
pub(crate) const README_TEXT: &str = "# project\n\nServed by the wirecheck reference peer.\n";

pub(crate) fn resource_listing() -> Value {
    json!({"uri": README_URI, "name": "README.md", "mimeType": "text/markdown"})
}

pub(crate) fn template_listing() -> Value {
    json!({"uriTemplate": "file:///project/{path}", "name": "project-file", "description": "A file of the project, by path."})
}
