//! `--scenario` of `serve --judge` and `run-client`: which client scenarios
//! the reference peer plays.

use crate::clientcheck::Scenario;

/// A `--scenario` value: one scenario or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScenarioChoice {
    /// Every scenario.
    All,
    /// This one.
    One(Scenario),
}

pub(crate) fn scenario_names() -> impl clap::builder::TypedValueParser<Value = ScenarioChoice> {
    use clap::builder::TypedValueParser as _;
    let mut names = vec!["all"];
    names.extend(Scenario::ALL.iter().map(|s| s.name()));
    clap::builder::PossibleValuesParser::new(names).map(|name| {
        Scenario::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .map_or(ScenarioChoice::All, ScenarioChoice::One)
    })
}

/// The scenarios `choices` select: all when none or `all` is named.
#[must_use]
pub fn selected(choices: &[ScenarioChoice]) -> Vec<Scenario> {
    if choices.is_empty() || choices.contains(&ScenarioChoice::All) {
        return Scenario::ALL.to_vec();
    }
    Scenario::ALL
        .into_iter()
        .filter(|s| choices.contains(&ScenarioChoice::One(*s)))
        .collect()
}
