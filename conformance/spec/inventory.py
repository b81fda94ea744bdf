#!/usr/bin/env python3
"""The inventory of normative sentences: every sentence of every MCP revision's
specification pages (and of JSON-RPC 2.0 §4 to §6) that carries an RFC 2119
keyword, with a stable id, its keyword and who it binds.

    python3 conformance/spec/inventory.py            # rewrite conformance/spec/inventory.json
    python3 conformance/spec/inventory.py --check    # fail when it is stale
    python3 conformance/spec/inventory.py --suggest  # candidate rules for unmapped sentences

The MCP pages are read from `WIRECHECK_MCP_SPEC` (default `../shared/mcp-spec`
beside the repository), as the schemas are. The repository keeps where each
sentence is and a hash of it, never the spec's text: an edited sentence gets a
new id, and the mapping entry for the old one then names a sentence that no
longer exists (`cargo test -p wirecheck --test spec_inventory` fails).

JSON-RPC 2.0 has no copy beside the repository, so its sentences are taken from
the quotes the rule catalogue (`harness/src/rules/catalogue.rs`) carries, which
are verbatim spec text: see conformance/spec/README.md for what that misses.

Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "conformance" / "spec" / "inventory.json"
MAPPING = REPO / "conformance" / "spec" / "mapping.json"
CATALOGUE = REPO / "harness" / "src" / "rules" / "catalogue.rs"
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
JSONRPC = "jsonrpc-2.0"

# RFC 2119 keywords that bind (MAY and OPTIONAL grant a permission that no peer
# can break, so a sentence whose only keywords are those is not inventoried;
# see README.md). Longest first, so "MUST NOT" is found before "MUST".
KEYWORDS = [
    "MUST NOT", "SHALL NOT", "SHOULD NOT", "NOT RECOMMENDED",
    "MUST", "REQUIRED", "SHALL", "SHOULD", "RECOMMENDED",
]
# A keyword may be set in italics with underscores (`_MUST_`, 2025-03-26
# basic/authorization §Server Metadata Discovery), which `\b` would not see
# (`_` is a word character); one inside an identifier (`MISSING_REQUIRED_X`)
# is still no keyword.
KEYWORD_RE = re.compile(
    r"(?<![A-Za-z0-9_])_?(" + "|".join(k.replace(" ", r"\s+") for k in KEYWORDS) + r")_?(?![A-Za-z0-9_])"
)
# The strongest keyword names the sentence: a sentence with MUST and SHOULD is a MUST.
STRENGTH = {k: i for i, k in enumerate(
    ["MUST NOT", "MUST", "REQUIRED", "SHALL NOT", "SHALL", "SHOULD NOT",
     "NOT RECOMMENDED", "SHOULD", "RECOMMENDED"])}

# Who a sentence binds, from the last party named before its first keyword
# ("If the server supports …, it MUST respond" binds the server). A sentence
# that names no party ("Progress tokens MUST be …") binds whoever sends the
# thing: both. The mapping overrides what this gets wrong.
PARTIES = [
    ("intermediary", r"\b(proxy|proxies|intermediar(y|ies)|gateways?)\b"),
    ("both", r"\b(both parties|either party|parties|implementations?|senders?|receivers?|"
             r"recipients?|requestors?|clients? and servers?|servers? and clients?)\b"),
    ("server", r"\b(servers?)\b"),
    ("client", r"\b(clients?|hosts?|applications?|user agents?)\b"),
]
PARTY_RES = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in PARTIES]


def spec_root() -> Path:
    env = os.environ.get("WIRECHECK_MCP_SPEC")
    return Path(env) if env else REPO.parent / "shared" / "mcp-spec"


def slug(heading: str) -> str:
    """The anchor Mintlify (and GitHub) give a heading."""
    text = re.sub(r"`|\*\*|<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"\s+", "-", text) or "top"


def clean(text: str) -> str:
    """The sentence as hashed: markup gone, whitespace collapsed. Only edits a
    reader would see change the hash."""
    text = re.sub(r"<[^>]+>", " ", text)  # JSX and the schema page's HTML
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [text](link) -> text
    text = text.replace("&#x7B;", "{").replace("&#x7D;", "}").replace("&nbsp;", " ")
    text = re.sub(r"&[a-z]+;", " ", text)
    text = re.sub(r"\*\*|__", "", text)
    return re.sub(r"\s+", " ", text).strip()


ABBREV = re.compile(r"\b(e\.g|i\.e|etc|vs|cf|approx|Sec|No)\.$", re.IGNORECASE)


def sentences(unit: str) -> list[str]:
    """A paragraph, list item or table row, split into sentences at a stop that
    is followed by a space and a capital (or markup), not after an abbreviation."""
    out, start = [], 0
    for m in re.finditer(r"[.!?](?=\s+[A-Z`*_\[(\"'])", unit):
        head = unit[start:m.end()]
        if ABBREV.search(head):
            continue
        out.append(head.strip())
        start = m.end()
    tail = unit[start:].strip()
    if tail:
        out.append(tail)
    return out


def units(text: str):
    """(heading chain, line, unit text) for each paragraph, list item and table
    row of an .mdx page, code blocks and front matter skipped."""
    lines = text.split("\n")
    i = 0
    if lines and lines[0].strip() == "---":  # front matter
        i = 1
        while i < len(lines) and lines[i].strip() != "---":
            i += 1
        i += 1
    section = "top"
    fence = None
    buf: list[str] = []
    buf_line = 0
    buf_indent = -1

    lead = False

    def flush():
        nonlocal buf, lead
        if buf:
            yield section, buf_line, " ".join(buf)
        buf = []
        lead = False

    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        lineno = i + 1
        i += 1
        if fence:
            if line.startswith(fence):
                fence = None
            continue
        m = re.match(r"(```+|~~~+)", line)
        if m:
            yield from flush()
            fence = m.group(1)
            continue
        h = re.match(r"#{1,6}\s+(.*)", line)
        if h:
            yield from flush()
            section = slug(h.group(1))
            continue
        if not line and (lead or (buf and buf[-1].endswith(":"))):
            j = i
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and re.match(r"\s*([-*+]|\d+\.)\s+", lines[j]):
                continue
        if not line or line.startswith("import ") or re.fullmatch(r"</?[A-Za-z][^>]*/?>", line):
            yield from flush()
            continue
        if line.startswith("|"):
            yield from flush()
            if not re.fullmatch(r"\|[\s:|-]*", line):
                yield section, lineno, line.strip("|")
            continue
        item = re.match(r"([-*+]|\d+\.)\s+", line)
        indent = len(raw) - len(raw.lstrip())
        if item and buf and (buf[-1].endswith(":") or lead) and indent > buf_indent:
            # A lead-in ("Receivers SHOULD:") and its list are one sentence:
            # the items are what it binds, as the catalogue quotes them.
            if lead:
                buf[-1] = re.sub(r"\.$", "", buf[-1]) + ";"
            lead = True
            buf.append(line[item.end():])
            continue
        if item or line.startswith(">"):
            yield from flush()
            line = re.sub(r"^(>\s*)?([-*+]|\d+\.)?\s*", "", line)
        if not buf:
            buf_line = lineno
            buf_indent = indent if item else -1
        buf.append(line)
    yield from flush()


def keyword_of(sentence: str) -> tuple[str, int] | None:
    bare = re.sub(r"`[^`]*`", "", sentence)  # a keyword inside code is a name, not a keyword
    found = [(re.sub(r"\s+", " ", m.group(1)), m.start()) for m in KEYWORD_RE.finditer(bare)]
    if not found:
        return None
    strongest = min(found, key=lambda f: STRENGTH[f[0]])[0]
    first = min(pos for _, pos in found)
    return strongest, first


def binds_of(sentence: str, keyword_at: int) -> str:
    prefix = re.sub(r"`[^`]*`", "", sentence)[:keyword_at]
    best = None  # (end, length, party)
    for name, pattern in PARTY_RES:
        for m in pattern.finditer(prefix):
            key = (m.end(), m.end() - m.start(), name)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best else "both"


def digest(sentence: str) -> str:
    return hashlib.sha256(sentence.encode()).hexdigest()[:10]


class Ids:
    """Stable ids: revision/page#section/hash, with ~2, ~3 for a sentence that
    a section repeats word for word."""

    def __init__(self):
        self.seen: dict[str, int] = {}

    def make(self, base: str) -> str:
        n = self.seen.get(base, 0) + 1
        self.seen[base] = n
        return base if n == 1 else f"{base}~{n}"


def entry(ids: Ids, revision: str, page: str, section: str, line: int, text: str) -> dict | None:
    found = keyword_of(text)
    if not found:
        return None
    keyword, at = found
    h = digest(text)
    return {
        "id": ids.make(f"{revision}/{page}#{section}/{h}"),
        "revision": revision,
        "page": page,
        "section": section,
        "line": line,
        "hash": h,
        "keyword": keyword,
        "binds": binds_of(text, at),
    }


def mcp_sentences(root: Path, revision: str, texts: dict | None = None) -> list[dict]:
    out: list[dict] = []
    ids = Ids()
    base = root / revision
    for path in sorted(base.rglob("*.mdx")):
        page = path.relative_to(base).with_suffix("").as_posix()
        for section, line, unit in units(path.read_text(encoding="utf-8")):
            for s in sentences(clean(unit)):
                e = entry(ids, revision, page, section, line, s)
                if e:
                    out.append(e)
                    if texts is not None:
                        texts[e["id"]] = s
    return out


def rust_strings(text: str) -> list[str]:
    """The string literals of a Rust source, escapes decoded."""
    out = []
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', text, re.DOTALL):
        out.append(re.sub(r'\\(.)', r"\1", m.group(1)))
    return out


def catalogue_rows(text: str) -> list[dict]:
    """Each row of the rule table: id, spec reference, quote, revisions text."""
    rows = []
    pattern = re.compile(
        r'^\s*(\w+) = "([^"]+)", (\w+)(?:, \w+)?, "((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"(?:,\s*([^;]*?))?;',
        re.MULTILINE | re.DOTALL,
    )
    for m in pattern.finditer(text):
        rows.append({
            "id": m.group(2),
            "spec": re.sub(r"\\(.)", r"\1", m.group(4)),
            "quote": re.sub(r"\\(.)", r"\1", m.group(5)),
            "revisions": (m.group(6) or "ALL").split(",")[0].strip(),
        })
    return rows


def strip_remarks(quote: str) -> str:
    """A quote without wirecheck's remarks: the parenthesised notes the
    catalogue appends after the spec's words ("… (MCP restates it: …)").
    Parentheses inside a sentence ("(U+002E or ASCII 46)") are spec text."""
    while quote.endswith(")"):
        depth = 0
        for i in range(len(quote) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(quote[i], 0)
            if depth == 0:
                break
        head = quote[:i].rstrip()
        if i == 0 or not head.endswith((".", "…", ":", "]")) and not head[-1].isalnum():
            break
        quote = head
    return quote


# JSON-RPC 2.0 sentences of §4 to §6 that no catalogue quote carries, kept by
# hand: where each is, its keyword, whom it binds and the hash of its text
# (`digest(clean(sentence))`, computed from a public copy of the specification,
# https://www.jsonrpc.org/specification; the text itself is not kept here). A
# lead-in ending in a colon is hashed alone: the members listed under it are
# each their own sentence. `--hash "TEXT"` prints the hash of a sentence, to
# check an entry against a copy.
JSONRPC_UNQUOTED = [
    # §5, the `result` member: present on success; absent on error.
    {"section": "s5", "hash": "63610a7bb0", "keyword": "REQUIRED", "binds": "server"},
    {"section": "s5", "hash": "c0edb22b96", "keyword": "MUST NOT", "binds": "server"},
    # §5, the `error` member: present on error; absent otherwise.
    {"section": "s5", "hash": "d3a3ab9ab9", "keyword": "REQUIRED", "binds": "server"},
    {"section": "s5", "hash": "57e74abd59", "keyword": "MUST NOT", "binds": "server"},
    # §4.2, by-position params.
    {"section": "s4-2", "hash": "eb4cf17f43", "keyword": "MUST", "binds": "client"},
    # §5.1, the lead-in: an error's Response Object has the `error` member.
    {"section": "s5-1", "hash": "601ec2c181", "keyword": "MUST", "binds": "server"},
]


def jsonrpc_sentences(texts: dict | None = None) -> list[dict]:
    """JSON-RPC 2.0 §4 to §6, from the catalogue's quotes of it."""
    # sentence -> (cited by a rule naming one section only, section)
    found: dict[str, tuple[bool, str]] = {}
    for row in catalogue_rows(CATALOGUE.read_text(encoding="utf-8")):
        cited = re.match(r"JSON-RPC 2\.0 (§[\d.]+(?:, §[\d.]+)*)", row["spec"])
        if not cited:
            continue
        secs = [c.lstrip("§") for c in cited.group(1).split(", ")]
        if not 4 <= int(secs[0].split(".")[0]) <= 6:
            continue
        for part in re.split(r"\s*…\s*", strip_remarks(row["quote"])):
            for s in sentences(clean(part)):
                if keyword_of(s):
                    # A rule citing "§4, §5" does not say which sentence is
                    # where; one citing a single section does.
                    candidate = (len(secs) == 1, "s" + secs[0].replace(".", "-"))
                    if s not in found or candidate[0] and not found[s][0]:
                        found[s] = candidate
    ids = Ids()
    out = []
    for s, section in sorted(((s, sec) for s, (_, sec) in found.items()),
                             key=lambda k: (k[1], digest(k[0]))):
        e = entry(ids, JSONRPC, "specification", section, 0, s)
        del e["line"]
        out.append(e)
        if texts is not None:
            texts[e["id"]] = s
    quoted = {e["hash"] for e in out}
    for u in JSONRPC_UNQUOTED:
        if u["hash"] in quoted:
            sys.exit(f"inventory.py: JSONRPC_UNQUOTED {u['hash']} is now quoted by the catalogue; drop it")
        e = {"id": ids.make(f"{JSONRPC}/specification#{u['section']}/{u['hash']}"), "revision": JSONRPC,
             "page": "specification", "section": u["section"], "hash": u["hash"],
             "keyword": u["keyword"], "binds": u["binds"]}
        out.append(e)
        if texts is not None:
            texts[e["id"]] = "(not quoted by the catalogue: see JSONRPC_UNQUOTED in inventory.py)"
    out.sort(key=lambda e: (e["section"], e["hash"]))
    return out


def inventory(root: Path, texts: dict | None = None) -> list[dict]:
    out = jsonrpc_sentences(texts)
    for revision in REVISIONS:
        out.extend(mcp_sentences(root, revision, texts))
    return out


def render(items: list[dict]) -> str:
    lines = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in items)
    return (
        "{\n"
        '  "generated": "python3 conformance/spec/inventory.py; do not edit",\n'
        f'  "keywords": {json.dumps(KEYWORDS)},\n'
        '  "sentences": [\n' + lines + "\n  ]\n}\n"
    )


def words(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def suggest(root: Path) -> None:
    """For each sentence without a mapping entry, the rules whose quote holds it
    (or which it holds), by words: candidates for a human to check."""
    texts: dict[str, str] = {}
    items = inventory(root, texts)
    mapping = json.loads(MAPPING.read_text()) if MAPPING.exists() else {}
    rows = catalogue_rows(CATALOGUE.read_text(encoding="utf-8"))
    quotes = [(r["id"], words(strip_remarks(r["quote"]))) for r in rows]
    out = {}
    for e in items:
        if e["id"] in mapping.get("sentences", {}):
            continue
        w = words(texts[e["id"]])
        hits = [rid for rid, q in quotes if len(w) > 20 and (w in q or (len(q) > 20 and q in w))]
        out[e["id"]] = {"candidates": hits, "text": texts[e["id"]]}
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail when inventory.json is stale")
    ap.add_argument("--hash", metavar="TEXT",
                    help="print the hash the inventory gives a sentence (to check JSONRPC_UNQUOTED against a copy)")
    ap.add_argument("--suggest", action="store_true",
                    help="print unmapped sentences (with their text) and candidate rules")
    args = ap.parse_args()
    if args.hash is not None:
        print(digest(clean(args.hash)))
        return 0
    root = spec_root()
    if not (root / REVISIONS[0]).is_dir():
        message = f"inventory.py: no MCP spec pages at {root} (set WIRECHECK_MCP_SPEC)"
        if os.environ.get("CI"):
            print(message, file=sys.stderr)
            return 1
        print(message + "; not checked", file=sys.stderr)
        return 0
    if args.suggest:
        suggest(root)
        return 0
    fresh = render(inventory(root))
    if args.check:
        committed = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if committed != fresh:
            print(f"{OUT.relative_to(REPO)} is stale: run python3 conformance/spec/inventory.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
