//! An error as one line of text with all its causes: reqwest's and hyper's
//! own `Display` names only the top ("error sending request") and keeps the
//! useful part (connection refused, reset, a cut body) in `source()`. Every
//! HTTP client here (the transports, `load`'s connections, the proxy's
//! upstream) reports a failure through this one function.

/// `error` and each of its causes, joined with `: `.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
