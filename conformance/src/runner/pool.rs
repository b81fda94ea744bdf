//! Sessions run at once, their records handed on in plan order.
//!
//! A revision's sessions are independent (each its own process, HTTP session
//! or stream), so several run at the same time; each waits mostly on its
//! peer, not on a core. Their records are still handed on in the plan's
//! order, so a report reads the same whichever session ended first.
//!
//! `futures`' `buffered` keeps that order too, but a finished session's
//! output waiting behind an unfinished earlier one still counts against its
//! bound: behind the revision's long first session (every vector whose id is
//! free, a hundred probes and more) the other slots filled once and then sat
//! idle until it ended. Here only sessions still running count.

use std::collections::BTreeMap;
use std::future::Future;

use futures::StreamExt as _;

/// Runs `jobs`, at most `at_once` at a time, handing each one's output to
/// `take` in the jobs' order as soon as every earlier one has been handed
/// on. The first error (in the order errors come) ends it; jobs still
/// running are dropped.
pub(super) async fn in_order<T, E, F>(
    jobs: impl IntoIterator<Item = F>,
    at_once: usize,
    mut take: impl FnMut(T),
) -> Result<(), E>
where
    F: Future<Output = Result<T, E>>,
{
    let mut running = futures::stream::iter(
        jobs.into_iter()
            .enumerate()
            .map(|(n, job)| async move { (n, job.await) }),
    )
    .buffer_unordered(at_once.max(1));
    let mut finished: BTreeMap<usize, T> = BTreeMap::new();
    let mut next = 0;
    while let Some((n, output)) = running.next().await {
        finished.insert(n, output?);
        while let Some(output) = finished.remove(&next) {
            take(output);
            next += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The first job ends only once the fifth has started: under a bound of
    /// two, that happens only if the finished jobs behind the first stop
    /// counting against the bound (with `buffered` this never ends).
    #[tokio::test]
    async fn a_long_first_job_does_not_hold_the_others_back() {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let mut tx = Some(tx);
        let mut rx = Some(rx);
        let jobs = (0..6).map(|n| {
            let rx = if n == 0 { rx.take() } else { None };
            let tx = if n == 4 { tx.take() } else { None };
            async move {
                if let Some(rx) = rx {
                    rx.await.expect("the fifth job starts");
                }
                if let Some(tx) = tx {
                    tx.send(()).expect("the first job waits");
                }
                Ok::<usize, ()>(n)
            }
        });
        let mut order = Vec::new();
        let ran =
            tokio::time::timeout(Duration::from_secs(5), in_order(jobs, 2, |n| order.push(n)))
                .await;
        assert_eq!(ran, Ok(Ok(())), "the first job was never released");
        assert_eq!(order, vec![0, 1, 2, 3, 4, 5]);
    }

    #[tokio::test]
    async fn an_error_ends_it_and_nothing_after_a_gap_is_handed_on() {
        let jobs = (0..4).map(|n| async move {
            if n == 1 {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Err(n)
            } else {
                Ok(n)
            }
        });
        let mut order = Vec::new();
        assert_eq!(in_order(jobs, 4, |n| order.push(n)).await, Err(1));
        assert_eq!(order, vec![0]);
    }
}
