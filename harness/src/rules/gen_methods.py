#!/usr/bin/env python3
"""Writes harness/src/rules/methods.rs from the official MCP schemas.

Usage (from the repository root):
    python3 harness/src/rules/gen_methods.py [SCHEMAS] > harness/src/rules/methods.rs

SCHEMAS is the folder holding <revision>/schema.json; default: $WIRECHECK_MCP_SCHEMAS,
else ../shared/mcp-schema. The output is committed; `harness/tests/rules.rs` reruns this
script and fails when the committed file differs, so the table cannot drift from the
schemas. Deterministic: no timestamps, revisions and methods in schema order.

For each revision and each of the ClientRequest, ServerRequest, ClientNotification and
ServerNotification unions it records the method, whether `params` is required, and each
params member (required or not, and its JSON types when the schema pins them); for
requests, the same for the result type. The result type is found by name (XRequest ->
XResult) with the exceptions below, as the schemas' own ClientResult/ServerResult
unions do not say which request each result answers.
"""
import json
import os
import sys

REVISIONS = [
    ('2024-11-05', 'Mcp2024_11_05'),
    ('2025-03-26', 'Mcp2025_03_26'),
    ('2025-06-18', 'Mcp2025_06_18'),
    ('2025-11-25', 'Mcp2025_11_25'),
    ('2026-07-28', 'Mcp2026_07_28'),
]
RESULT_EXCEPTIONS = {
    'PingRequest': 'EmptyResult',
    'SetLevelRequest': 'EmptyResult',
    'SubscribeRequest': 'EmptyResult',
    'UnsubscribeRequest': 'EmptyResult',
    'GetTaskPayloadRequest': 'GetTaskPayloadResult',
    'ElicitRequest': 'ElicitResult',
}
UNIONS = [
    ('ClientRequest', 'Client', 'Request'),
    ('ServerRequest', 'Server', 'Request'),
    ('ClientNotification', 'Client', 'Notification'),
    ('ServerNotification', 'Server', 'Notification'),
]
TYPE_BITS = {
    'object': 'ty::OBJECT', 'array': 'ty::ARRAY', 'string': 'ty::STRING',
    'number': 'ty::NUMBER', 'integer': 'ty::INTEGER', 'boolean': 'ty::BOOLEAN',
    'null': 'ty::NULL',
}


def defs(rev, root):
    with open(os.path.join(root, rev, 'schema.json'), encoding='utf-8') as f:
        d = json.load(f)
    return d.get('definitions') or d['$defs']


def deref(D, s, depth=0):
    while isinstance(s, dict) and '$ref' in s and depth < 32:
        s = D[s['$ref'].split('/')[-1]]
        depth += 1
    return s


def members(D, s):
    """(required names, {name: property schema}) following $ref and allOf."""
    s = deref(D, s)
    req, props = list(s.get('required', [])), dict(s.get('properties', {}))
    for sub in s.get('allOf', []):
        r2, p2 = members(D, sub)
        req += r2
        props.update(p2)
    return req, props


def types(D, s, depth=0):
    """The JSON types a schema pins, or None when it allows any."""
    s = deref(D, s)
    if not isinstance(s, dict) or depth > 16:
        return None
    if 'type' in s:
        t = s['type']
        return set(t if isinstance(t, list) else [t])
    if 'const' in s:
        return {json_type(s['const'])}
    if 'enum' in s:
        return {json_type(v) for v in s['enum']}
    alts = s.get('anyOf') or s.get('oneOf')
    if alts:
        out = set()
        for a in alts:
            t = types(D, a, depth + 1)
            if t is None:
                return None
            out |= t
        return out
    return None


def json_type(v):
    if isinstance(v, bool):
        return 'boolean'
    if isinstance(v, int):
        return 'integer'
    if isinstance(v, float):
        return 'number'
    if isinstance(v, str):
        return 'string'
    if v is None:
        return 'null'
    return 'array' if isinstance(v, list) else 'object'


def union(D, name):
    if name not in D:
        return []
    u = D[name]
    if 'properties' in u and 'method' in u['properties']:
        return [name]  # a one-member union the generator inlined (2026-07-28 ClientNotification)
    if 'anyOf' in u:
        return [x['$ref'].split('/')[-1] for x in u['anyOf']]
    return [u['$ref'].split('/')[-1]] if '$ref' in u else []


def member_list(D, s):
    """Rust slice literal of the members of object schema s (params or result)."""
    s = deref(D, s)
    if 'anyOf' in s:
        # A union of params shapes (2025-11-25 elicitation/create: form or URL mode):
        # only what every alternative requires is recorded, with no types.
        alts = [members(D, a) for a in s['anyOf']]
        common = set(alts[0][0]).intersection(*[set(r) for r, _ in alts[1:]])
        return '&[' + ''.join(
            f'Member {{ name: "{n}", required: true, types: 0 }}, ' for n in sorted(common)) + ']'
    req, props = members(D, s)
    out = []
    for name in props:
        t = types(D, props[name])
        bits = ' | '.join(TYPE_BITS[x] for x in sorted(t)) if t else '0'
        out.append(f'Member {{ name: "{name}", required: {str(name in req).lower()}, types: {bits} }}')
    for name in req:  # required but not described: still required
        if name not in props:
            out.append(f'Member {{ name: "{name}", required: true, types: 0 }}')
    return '&[' + ', '.join(out) + ']'


def main():
    root = (sys.argv[1] if len(sys.argv) > 1 else None) or os.environ.get(
        'WIRECHECK_MCP_SCHEMAS') or '../shared/mcp-schema'
    w = sys.stdout.write
    w('// @generated by harness/src/rules/gen_methods.py from the official MCP schemas.\n')
    w('// Do not edit: rerun the script (see its docstring); `tests/rules.rs` checks it is current.\n\n')
    w('use super::schema::{ty, Kind, Member, MethodDef, Sender};\n')
    w('use crate::profile::Revision;\n\n')
    w('/// Every method of every MCP revision, per sender, in schema order.\n')
    w('pub(crate) const METHODS: &[MethodDef] = &[\n')
    for rev, variant in REVISIONS:
        D = defs(rev, root)
        for uni, sender, kind in UNIONS:
            for t in union(D, uni):
                req, props = members(D, D[t])
                method = props['method']['const']
                params_required = 'params' in req
                params = member_list(D, props['params']) if 'params' in props else '&[]'
                result = 'None'
                if kind == 'Request':
                    rt = RESULT_EXCEPTIONS.get(t, t.replace('Request', 'Result'))
                    if rt in D:
                        result = 'Some(' + member_list(D, D[rt]) + ')'
                w(f'    MethodDef {{ revision: Revision::{variant}, sender: Sender::{sender}, '
                  f'kind: Kind::{kind}, method: "{method}", params_required: {str(params_required).lower()}, '
                  f'params: {params}, result: {result} }},\n')
    w('];\n\n')
    w('/// The `_meta` keys each revision\'s schema names that carry a prefix (`…/…`).\n')
    w('pub(crate) const META_KEYS: &[(Revision, &str)] = &[\n')
    for rev, variant in REVISIONS:
        D = defs(rev, root)
        keys = set()
        for name, s in D.items():
            for k in s.get('properties', {}) if isinstance(s, dict) else {}:
                if '/' in k:
                    keys.add(k)
        for k in sorted(keys):
            w(f'    (Revision::{variant}, "{k}"),\n')
    w('];\n')


main()
