// Reads what run.sh observed and holds it to expected.json: per revision, per scenario of
// the official suite, and per SDK client run, the outcome (pass, warn, fail) and, for warn
// and fail, a piece of the suite's own message, so a scenario that fails for a new reason
// is a change as much as one that starts passing. Prints one line per unit and a closing
// count; exits 1 on any difference (unexpected outcome, changed message, a unit missing
// from either side), 0 when everything is as expected.
//
//   node compare.mjs RESULTS_DIR expected.json
//
// RESULTS_DIR holds suite-<revision>/server-<scenario>-<timestamp>/checks.json (the
// suite's `-o` output) and clients/<name>.{rc,out,err} (one SDK client run each).
import fs from "node:fs";
import path from "node:path";

const [resultsDir, expectedPath] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectedPath, "utf8"));

// A scenario fails on any FAILURE check, warns on any WARNING, else passes (INFO and
// SUCCESS). The message kept is the first failing (else warning) check's.
function scenarioOutcome(checks) {
  const failure = checks.find((c) => c.status === "FAILURE");
  const warning = checks.find((c) => c.status === "WARNING");
  const worst = failure ?? warning;
  return {
    outcome: failure ? "fail" : warning ? "warn" : "pass",
    message: worst ? `${worst.id}: ${worst.errorMessage ?? ""}` : "",
  };
}

function observedSuite(dir) {
  const seen = {};
  for (const entry of fs.readdirSync(dir)) {
    // The suite names each folder server-<scenario>-<ISO timestamp with dashes>.
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    const checks = JSON.parse(fs.readFileSync(path.join(dir, entry, "checks.json"), "utf8"));
    seen[scenario] = scenarioOutcome(checks);
  }
  return seen;
}

function observedClients(dir) {
  const seen = {};
  for (const entry of fs.readdirSync(dir).filter((f) => f.endsWith(".rc"))) {
    const name = entry.slice(0, -3);
    const read = (ext) => fs.readFileSync(path.join(dir, name + ext), "utf8").trim();
    const rc = read(".rc");
    seen[name] = rc === "0" ? { outcome: "pass", message: "" } : { outcome: "fail", message: `exit ${rc}: ${read(".err")}` };
  }
  return seen;
}

const units = [];
for (const [revision, scenarios] of Object.entries(expected.suite)) {
  const dir = path.join(resultsDir, `suite-${revision}`);
  const seen = fs.existsSync(dir) ? observedSuite(dir) : {};
  units.push(...compare(`suite ${revision}`, scenarios, seen));
}
units.push(...compare("client", expected.clients, observedClients(path.join(resultsDir, "clients"))));

function compare(group, want, seen) {
  const names = [...new Set([...Object.keys(want), ...Object.keys(seen)])].sort();
  return names.map((name) => {
    const w = want[name];
    const s = seen[name];
    const label = `${group} ${name}`;
    if (!w) return { label, ok: false, line: `not in expected.json: ${s.outcome} ${s.message}` };
    if (!s) return { label, ok: false, line: `expected ${w.outcome}, but it did not run` };
    if (w.outcome !== s.outcome) {
      return { label, ok: false, line: `expected ${w.outcome}, got ${s.outcome} ${s.message}` };
    }
    if (w.outcome !== "pass" && !s.message.includes(w.message)) {
      return { label, ok: false, line: `${s.outcome} as expected, but the message changed: \`${s.message}\` has no \`${w.message}\`` };
    }
    // The verdict (why) is in expected.json and the README; the line names the message.
    return { label, ok: true, line: w.outcome === "pass" ? "pass" : `${s.outcome} as expected: ${w.message}` };
  });
}

for (const u of units) console.log(`${u.ok ? "ok  " : "DIFF"} ${u.label}: ${u.line}`);
const diff = units.filter((u) => !u.ok).length;
const count = (o) => units.filter((u) => u.ok && u.line.startsWith(o)).length;
console.log(
  `\nofficial: ${units.length} units, ${count("pass")} pass, ${count("warn")} warn, ${count("fail")} fail as expected, ${diff} differ from expected.json`,
);
process.exit(diff === 0 ? 0 : 1);
