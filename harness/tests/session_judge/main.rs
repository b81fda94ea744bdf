//! The session judge over whole conversations: what each protocol feature's
//! rules report for a conversation that keeps or breaks them (handshake,
//! cancellation and progress, lists and subscriptions, tasks, retries,
//! logging, elicitation), and where a rule applies. Each module quotes the
//! sentence it pins.
//! A module of the one integration-test binary, `tests/suite.rs`; many of
//! its tests were written where mutation testing (`conformance/book/mutation-testing.md`)
//! found a behaviour no test pinned.

mod cancel_progress;
mod capability_table;
mod capture_end;
mod client_task_requests;
mod cursor_pages;
mod discovered_lists;
mod elicitation_ids;
mod handshake_answer;
mod id_spaces;
mod judge_capabilities;
mod lifecycle_scope;
mod list_changes;
mod listed_tools;
mod listen_teardown;
mod log_level;
mod mrtr_retries;
mod poll_requests;
mod progress_tokens;
mod prompt_lists;
mod retry_client;
mod revision_detection;
mod session_vectors;
mod set_level_answer;
mod subscribed_lists;
mod subscription_filter;
mod task_cancellation;
mod task_scope;
mod task_timing;
mod task_token_bound;
mod tool_error_output;
mod unjudged_schema;
