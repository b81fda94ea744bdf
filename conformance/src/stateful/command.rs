//! `wirecheck fuzz --stateful`'s run: the sequences played, their findings
//! filed as records, and one record for the run when no finding stands for
//! it (a clean run of sequences, or why nothing could be exercised).

use std::sync::atomic::AtomicBool;

use harness::Outcome;

use super::{run, Stats};
use crate::livefuzz::Config;
use crate::report::Report;

/// Plays sequences against `config`'s peer (at most `max_ops` operations)
/// and files what broke into `report`; each confirmed finding is saved
/// under `out_dir` for `wirecheck replay` ([`super::saved`]).
///
/// # Errors
/// No session could be opened, or nothing could be exercised.
pub fn execute(
    config: &Config,
    max_ops: Option<u64>,
    quiet: bool,
    out_dir: &std::path::Path,
    report: &mut Report,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let stop: std::sync::Arc<AtomicBool> = crate::interrupt::stop_flag(&runtime);
    let mut progress = |stats: &Stats, findings: usize| {
        if !quiet {
            eprintln!(
                "wirecheck fuzz --stateful: {} operations, {:.0} operations/s, {findings} distinct rules broken",
                stats.ops,
                stats.rate()
            );
        }
    };
    let (findings, stats) = runtime.block_on(run(config, max_ops, &stop, &mut progress))?;
    let revision = config.revision;
    let transport = config.target.kind();
    eprintln!(
        "wirecheck fuzz --stateful: {} sequences, {} operations, {} requests in {:.1}s ({:.0} operations/s, {:.0} requests/s over {transport}), {} sessions; shrinking and confirming took {:.1}s{}",
        stats.sequences,
        stats.ops,
        stats.requests,
        stats.fuzz_time.as_secs_f64(),
        stats.rate(),
        stats.request_rate(),
        stats.sessions,
        stats.shrink_time.as_secs_f64(),
        if stats.interrupted { " (interrupted)" } else { "" }
    );
    let counted = findings.iter().filter(|f| f.counts()).count();
    eprintln!(
        "wirecheck fuzz --stateful: {counted} finding(s) confirmed, {} suspected",
        findings.len() - counted
    );
    for finding in &findings {
        let mut record = finding.record(revision, transport);
        if finding.counts() {
            let path = super::saved::Saved::of(finding, revision).save(out_dir)?;
            record.place.file = Some(path.display().to_string());
        }
        report.records.push(record);
    }
    if counted > 0 {
        eprintln!(
            "wirecheck fuzz --stateful: the confirmed findings are saved under {} (`wirecheck replay` plays them again)",
            out_dir.display()
        );
    }
    let whole_run = |outcome: Outcome, note: String| {
        crate::livefuzz::whole_run(
            format!("fuzz/stateful/{revision}"),
            revision,
            transport,
            outcome,
            note,
        )
    };
    if stats.ops == 0 {
        // Nothing exercised is no clean bill.
        let why = stats
            .ended_early
            .clone()
            .unwrap_or_else(|| "the time ran out before any sequence was played".into());
        return Err(format!("no operation was played: {why}"));
    }
    if let Some(why) = &stats.ended_early {
        let why = format!("ended early after {} operations: {why}", stats.ops);
        report
            .records
            .push(whole_run(Outcome::NotObserved { why: why.clone() }, why));
    } else if findings.is_empty() {
        report.records.push(whole_run(
            Outcome::Pass,
            format!(
                "{} sequences, {} operations (seed {}), no expectation of the model broken",
                stats.sequences, stats.ops, config.seed
            ),
        ));
    }
    Ok(())
}
