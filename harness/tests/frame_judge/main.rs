//! The frame and exchange judges: what the per-frame rules and the reply
//! rules report for one frame, or one request and the reply that came back,
//! message and pointer included. Each module quotes the sentence it pins.
//! A module of the one integration-test binary, `tests/suite.rs`; many of
//! its tests were written where mutation testing (`conformance/book/mutation-testing.md`)
//! found a behaviour no test pinned.

mod content_blocks;
mod exchange_verdicts;
mod frame_verdicts;
mod input_requests;
mod invalid_level;
mod member_types;
mod meta_values;
mod meta_walk;
mod per_frame_checks;
mod reply_text;
mod sampling_tool_results;
mod schema_cap;
mod schema_dialects;
mod server_requests;
mod tool_choice_modes;
mod x_mcp_header;
