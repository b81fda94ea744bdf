//! A saved finding played again: its frames against a fresh peer, and which
//! of them still break what they broke.

use crate::transcript::Entry;

use super::peer::{Live, Waits};
use super::{expect, Breach, Config, Expect, Kind};

/// Replays each finding's frames against a fresh peer: which still break.
pub async fn replay(
    config: &Config,
    frames: &[Vec<u8>],
    kind: Kind,
) -> Result<(Vec<Breach>, Vec<Entry>), String> {
    let waits = Waits {
        answer_timeout: config.timeout,
        grace: config.confirm_grace,
    };
    let mut live = Live::start(
        &config.target,
        config.revision,
        &waits,
        config.limits,
        &config.http,
    )
    .await?;
    let mut found = Vec::new();
    for frame in frames {
        // Sent as saved unless that would reuse an id of this session.
        let Some(frame) = live.own_ids(frame) else {
            break;
        };
        let report = live
            .exchange(&frame, expect(&frame) != Expect::Nothing)
            .await;
        found.extend(
            live.judge(&frame, &report, config.revision, config.strict)
                .into_iter()
                .filter(|b| b.kind == kind),
        );
        if !matches!(report.live, crate::driver::Live::Answered(_)) {
            break;
        }
    }
    Ok((found, live.stop().await))
}
