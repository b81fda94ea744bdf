//! Sequences from a seed: the same seed and the same declared features give
//! the same sequence, so a run can be told again.

use crate::fuzzing::mutate::Rng;

use super::caps::Caps;
use super::op::{List, Op};

/// How many resources a subscription index ranges over: small, so that a
/// subscribe and a later unsubscribe meet the same resource often.
const RESOURCE_SLOTS: u64 = 2;

/// A sequence of `len` operations the features `caps` declares allow, from
/// `rng`. Empty when nothing applies (a server that declared no list, no
/// subscriptions and no sessions).
#[must_use]
pub fn generate(rng: &mut Rng, caps: &Caps, len: usize) -> Vec<Op> {
    let choices = choices(caps);
    if choices.is_empty() {
        return Vec::new();
    }
    let total: u64 = choices.iter().map(|(w, _)| *w).sum();
    (0..len)
        .map(|_| {
            let mut pick = rng.next_u64() % total;
            let slot = rng.next_u64() % RESOURCE_SLOTS;
            let slot = usize::try_from(slot).unwrap_or(0);
            for (weight, make) in &choices {
                if pick < *weight {
                    return make(slot);
                }
                pick -= weight;
            }
            Op::Ping
        })
        .collect()
}

type Make = Box<dyn Fn(usize) -> Op>;

/// The operations that apply, each with its weight. Walks weigh most: they
/// are what the other list operations need (a cursor to revisit, a resource
/// to subscribe to). A ping is always possible, and keeps time passing.
fn choices(caps: &Caps) -> Vec<(u64, Make)> {
    let mut out: Vec<(u64, Make)> = Vec::new();
    for list in List::ALL.into_iter().filter(|l| caps.lists.contains(l)) {
        out.push((4, Box::new(move |_| Op::Walk(list))));
        out.push((1, Box::new(move |_| Op::Revisit(list))));
        out.push((1, Box::new(move |_| Op::BogusCursor(list))));
    }
    if caps.subscribe && caps.lists.contains(&List::Resources) {
        out.push((3, Box::new(Op::Subscribe)));
        out.push((3, Box::new(Op::Unsubscribe)));
    }
    if caps.sessions {
        out.push((1, Box::new(|_| Op::EndSession)));
        out.push((2, Box::new(|_| Op::ReuseEnded)));
    }
    if !out.is_empty() {
        out.push((1, Box::new(|_| Op::Ping)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Revision;

    fn caps() -> Caps {
        Caps::of(
            Revision::Mcp2025_11_25,
            &serde_json::json!({"tools": {}, "resources": {"subscribe": true}}),
            true,
        )
    }

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let a = generate(&mut Rng::new(7), &caps(), 64);
        let b = generate(&mut Rng::new(7), &caps(), 64);
        let c = generate(&mut Rng::new(8), &caps(), 64);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.len(), 64);
    }

    #[test]
    fn only_what_was_declared_is_generated() {
        let tools_only = Caps::of(
            Revision::Mcp2025_11_25,
            &serde_json::json!({"tools": {}}),
            false,
        );
        let ops = generate(&mut Rng::new(1), &tools_only, 200);
        assert!(ops.iter().all(|op| matches!(
            op,
            Op::Walk(List::Tools)
                | Op::Revisit(List::Tools)
                | Op::BogusCursor(List::Tools)
                | Op::Ping
        )));
        assert!(generate(&mut Rng::new(1), &Caps::default(), 10).is_empty());
    }
}
