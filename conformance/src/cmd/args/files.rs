//! The files a report is written to besides standard output.

use std::path::PathBuf;

/// The files a report is written to besides standard output, the same for
/// `run` and `fuzz`: the run document, SARIF and HTML.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReportFiles {
    /// Also write the whole report as one JSON document to FILE (the source
    /// of truth: schemas/report.schema.json; `wirecheck report` renders it
    /// again).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write a SARIF 2.1.0 log to FILE (for code-scanning dashboards):
    /// a result per defect, located in --sarif-location, else the baseline.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// The file of your repository SARIF results point at (your server's
    /// entry point, its manifest), so code scanning shows each defect there;
    /// by default the --expected-failures baseline, else no file.
    #[arg(long, value_name = "PATH", requires = "sarif")]
    pub sarif_location: Option<PathBuf>,
    /// Also write one self-contained HTML page to FILE: the rules × revisions
    /// matrix, each cell linking to its findings and their wire logs.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

impl ReportFiles {
    /// Writes `report` to each file asked for.
    ///
    /// # Errors
    /// A file that cannot be written, named.
    pub fn write(&self, report: &crate::report::Report) -> Result<(), String> {
        if let Some(path) = &self.out {
            super::super::write_json(report, path)?;
        }
        if let Some(path) = &self.sarif {
            let mut log = serde_json::to_vec_pretty(&crate::report::sarif::render(report))
                .map_err(|e| format!("cannot render SARIF: {e}"))?;
            log.push(b'\n');
            super::super::write_file(path, &log)?;
        }
        if let Some(path) = &self.html {
            super::super::write_file(path, crate::report::html::render(report).as_bytes())?;
        }
        Ok(())
    }
}
