//! Tests that mutation testing (`cargo mutants -p wirecheck-harness`, configured in
//! `.cargo/mutants.toml`) showed were missing: each module pins what a user of the
//! judge would see go wrong if the code it covers were broken (a wrong error code, a
//! rule not reported, a lossy round trip). A module of the one integration-test
//! binary, `tests/suite.rs`.

mod cancel_progress;
mod capability_table;
mod capture_end;
mod client_task_requests;
mod codes;
mod content_blocks;
mod cursor_pages;
mod discovered_lists;
mod elicitation_ids;
mod exchange_verdicts;
mod frame_verdicts;
mod handshake_answer;
mod id_spaces;
mod input_requests;
mod invalid_level;
mod ir_layout;
mod judge_capabilities;
mod lifecycle_scope;
mod lift_limits;
mod list_changes;
mod listed_tools;
mod listen_teardown;
mod log_level;
mod long_strings;
mod member_types;
mod meta_values;
mod meta_walk;
mod method_table;
mod mrtr_retries;
mod per_frame_checks;
mod poll_requests;
mod profiles;
mod progress_tokens;
mod prompt_lists;
mod refusal_text;
mod reply_text;
mod retry_client;
mod revision_detection;
mod revision_sets;
mod rule_ids;
mod sampling_tool_results;
mod schema_cap;
mod schema_dialects;
mod server_requests;
mod session_vectors;
mod set_level_answer;
mod subscribed_lists;
mod subscription_filter;
mod support;
mod task_cancellation;
mod task_scope;
mod task_timing;
mod task_token_bound;
mod tool_choice_modes;
mod tool_error_output;
mod unjudged_schema;
mod x_mcp_header;
