#!/usr/bin/env python3
"""Prints the benches' results as ratios, in Markdown, from one criterion run.

    cargo bench -p wirecheck-benches
    CARGO_TARGET_DIR=$PWD/target cargo bench --manifest-path benches/lossless-value/Cargo.toml
    python3 benches/report.py [--criterion DIR] [--fuzz SUMMARY.json]

Reads criterion's `<group>/<function>/new/estimates.json` (the median), the
`wirecheck-facts.json` the `facts` bench writes (heap peaks, fidelity), and the
fuzz summary `fuzz/nightly.sh` writes (`fuzz/out/summary.json`, else the CI
smoke's `target/fuzz-smoke/summary.json`), if present.
Ratios are what hold across machines and load: every time is divided by another
measured in the same run, so a busy machine moves both sides.
"""

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Frame name -> (label, messages in the frame); the order is the table's.
FRAMES = [
    ("ping", "ping request", 1),
    ("tools_call", "`tools/call` request", 1),
    ("tools_list", "`tools/list` result, 50 tools", 1),
    ("resources_read", "`resources/read` result, 1 MiB blob", 1),
    ("batch", "batch of 100 small requests", 100),
]
# The targets: round trip / floor at most this.
FLOOR_TARGET = {"ping": 3.0, "tools_call": 1.3, "tools_list": 1.0, "resources_read": 1.0,
                "batch": 1.3}
# ... and at least this much faster than these alternatives, on these frames.
SPEEDUP_TARGET = {("tools_call", "serde_value"): 5, ("tools_list", "serde_value"): 5,
                  ("tools_call", "rmcp"): 15, ("tools_list", "rmcp"): 15}
ALTERNATIVES = [
    ("serde_value", "serde_json `Value`"),
    ("serde_value_lossless", "`Value`, lossless features"),
    ("rmcp", "rmcp typed"),
    ("jsonrpsee", "jsonrpsee-types"),
]


def median_ns(criterion, group, function):
    path = os.path.join(criterion, group, function, "new", "estimates.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["median"]["point_estimate"]
    except (OSError, KeyError, ValueError):
        return None


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def fmt_ratio(r, target=None, at_most=True):
    if r is None:
        return "not measured"
    text = f"{r:.2f}x"
    if target is not None:
        met = r <= target if at_most else r >= target
        text += f" {'✓' if met else '✗'} ({'≤' if at_most else '≥'}{target:g}x)"
    return text


def fmt_time(ns):
    if ns is None:
        return "not measured"
    for unit, scale in (("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_bytes(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} B"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--criterion", default=os.path.join(ROOT, "target", "criterion"))
    # The nightly run's summary, else the CI smoke's (`.ci/run`), whichever exists.
    fuzz_default = next((p for p in (os.path.join(ROOT, "fuzz", "out", "summary.json"),
                                     os.path.join(ROOT, "target", "fuzz-smoke", "summary.json"))
                         if os.path.exists(p)), os.path.join(ROOT, "fuzz", "out", "summary.json"))
    parser.add_argument("--fuzz", default=fuzz_default)
    args = parser.parse_args()
    crit = args.criterion
    facts = load_json(os.path.join(crit, "wirecheck-facts.json")) or {}
    if median_ns(crit, "ping", "roundtrip") is None:
        sys.exit(f"report.py: no criterion results under {crit}; run `cargo bench -p wirecheck-benches`")

    t = {(g, f): median_ns(crit, g, f) for g, _, _ in FRAMES
         for f in ["lift", "lower", "roundtrip", "floor_ignored_any", "memcpy"]
         + [a for a, _ in ALTERNATIVES]}

    out = []
    out.append("Round trip `lower(lift(b))` against the floor (lower is better; "
               "target in brackets):\n")
    out.append("| frame | size | round trip | ÷ floor `IgnoredAny` | ÷ memcpy | lift ÷ floor "
               "| lower ÷ floor | round trip MB/s | messages/s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g, label, msgs in FRAMES:
        rt, fl = t[g, "roundtrip"], t[g, "floor_ignored_any"]
        size = facts.get(g, {}).get("bytes")
        mbs = f"{size / rt * 1e3:.0f}" if size and rt else "not measured"
        mps = f"{msgs / rt * 1e9:,.0f}" if rt else "not measured"
        out.append(f"| {label} | {fmt_bytes(size) if size else '?'} | {fmt_time(rt)} "
                   f"| {fmt_ratio(ratio(rt, fl), FLOOR_TARGET[g])} "
                   f"| {fmt_ratio(ratio(rt, t[g, 'memcpy']))} "
                   f"| {fmt_ratio(ratio(t[g, 'lift'], fl))} "
                   f"| {fmt_ratio(ratio(t[g, 'lower'], fl))} | {mbs} | {mps} |")

    out.append("\nHow many times slower each alternative's decode + encode is than the "
               "wirecheck round trip (higher is better for wirecheck):\n")
    out.append("| frame | " + " | ".join(name for _, name in ALTERNATIVES) + " |")
    out.append("|---|" + "---:|" * len(ALTERNATIVES))
    for g, label, _ in FRAMES:
        cells = []
        for a, _ in ALTERNATIVES:
            target = SPEEDUP_TARGET.get((g, a))
            cells.append(fmt_ratio(ratio(t[g, a], t[g, "roundtrip"]), target, at_most=False))
        out.append(f"| {label} | " + " | ".join(cells) + " |")

    if facts:
        out.append("\nHeap, counted by a global allocator (`facts` bench): the peak held "
                   "live, relative to the frame's size, and whether the output is the input "
                   "byte for byte:\n")
        out.append("| frame | `lift` peak | wirecheck round trip | serde_json `Value` "
                   "| rmcp typed | jsonrpsee-types |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for g, label, _ in FRAMES:
            f = facts.get(g)
            if not f:
                continue
            size = f["bytes"]
            cells = [f"{fmt_bytes(f['lift_peak_bytes'])} ({f['lift_peak_bytes'] / size:.3g}x)"]
            for c in ["wirecheck", "serde_value", "rmcp", "jsonrpsee"]:
                cf = f["contenders"][c]
                ident = "identical" if cf["byte_identical"] else (
                    "same value" if cf["same_value"] else "CHANGED")
                cells.append(f"{cf['roundtrip_peak_bytes'] / size:.2f}x, {ident}")
            out.append(f"| {label} | " + " | ".join(cells) + " |")

    fuzz = load_json(args.fuzz)
    out.append("\nFuzz targets (`fuzz/nightly.sh` summary):\n")
    out.append("| target | execs/s | seconds | sanitizer |")
    out.append("|---|---:|---:|---|")
    if isinstance(fuzz, list) and fuzz:
        for entry in fuzz:
            execs = entry.get("execs_per_sec")
            out.append(f"| `{entry.get('target')}` | "
                       f"{execs if execs is not None else 'not measured'} | "
                       f"{entry.get('seconds', '?')} | {entry.get('sanitizer', '?')} |")
    else:
        out.append(f"| all | not measured (no {os.path.relpath(args.fuzz, ROOT)}) | | |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
