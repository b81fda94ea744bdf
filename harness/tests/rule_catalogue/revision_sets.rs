//! Which revisions a rule applies to is a set of revisions (`Revisions`),
//! built from ranges and joined: a rule of MCP 2025-03-26 basic/index
//! §Batching (implementations "MUST support receiving JSON-RPC batches")
//! holds under plain JSON-RPC 2.0 and 2025-03-26, not after 2025-06-18
//! changelog ("Remove support for JSON-RPC batching"). Joining two sets is a
//! union: a revision in both stays in.

use harness::rules::Revisions;
use harness::Revision;

#[test]
fn joining_overlapping_revision_sets_keeps_the_shared_revision() {
    let early = Revisions::range(Revision::Mcp2025_03_26, Revision::Mcp2025_06_18);
    let joined = early.with(Revisions::only(Revision::Mcp2025_06_18));
    assert_eq!(joined, early);
    assert!(joined.contains(Revision::Mcp2025_06_18));
    assert_eq!(
        joined.iter().collect::<Vec<_>>(),
        [Revision::Mcp2025_03_26, Revision::Mcp2025_06_18]
    );
    assert_eq!(Revisions::MCP.with(Revisions::MCP), Revisions::MCP);
}

#[test]
fn a_set_holds_exactly_its_revisions() {
    let batches =
        Revisions::only(Revision::JsonRpc2).with(Revisions::only(Revision::Mcp2025_03_26));
    let held: Vec<Revision> = Revision::ALL
        .into_iter()
        .filter(|r| batches.contains(*r))
        .collect();
    assert_eq!(held, [Revision::JsonRpc2, Revision::Mcp2025_03_26]);
}
