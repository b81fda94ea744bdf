//! The fixed catalogue the reference peer offers: the tools, prompt and
//! resources the golden vectors assume (`echo`, `pay`, `long_job`, the
//! `code_review` prompt, `file:///project/README.md`), so every vector that
//! names a fixture can be played against it.

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
}

pub(crate) const TOOLS: &[Tool] = &[
    Tool {
        name: "echo",
        description: "Returns its `text` argument as text content.",
        input_schema: || {
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
        },
        task_support: None,
    },
    Tool {
        name: "pay",
        description: "Stands for a tool whose backend fails: every call is answered with an Internal error (-32603) carrying structured `data`, which a client must relay whole.",
        input_schema: || {
            json!({"type": "object", "properties": {"amount": {"type": "number"}, "to": {"type": "string"}}})
        },
        task_support: None,
    },
    Tool {
        name: "long_job",
        description: "Runs `steps` steps (default 3, at most 100), reporting progress after each when the request carries a progressToken.",
        input_schema: || {
            json!({"type": "object", "properties": {"steps": {"type": "integer", "minimum": 1, "maximum": 100}}})
        },
        // The one long-running tool: a client may call it as a task or not.
        task_support: Some("optional"),
    },
];

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
