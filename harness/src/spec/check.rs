//! Per-frame checks: what one frame shows under a profile.

use super::Report;
use crate::ir::Frame;
use crate::profile::Profile;

/// Checks one lifted frame.
pub(super) fn frame(_frame: &Frame<'_>, _profile: Profile, _out: &mut Report) {}
