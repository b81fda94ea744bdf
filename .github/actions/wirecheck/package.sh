#!/usr/bin/env bash
# Packs a built wirecheck binary as a release asset and adds its line to
# SHA256SUMS, as .github/workflows/release.yml does for each target:
#
#   package.sh TAG TARGET BINARY OUT_DIR
#
# A TAG that names another version than the binary's own (`wirecheck
# --version`) is refused, so a release never ships a binary of another version.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/release-asset.sh"

[[ $# -eq 4 ]] || { echo "usage: package.sh TAG TARGET BINARY OUT_DIR" >&2; exit 2; }
tag=$1 target=$2 binary=$3 out=$4

version=$("$binary" --version | awk '{print $2}')
if [[ "$tag" != "v$version" ]]; then
  echo "package.sh: the tag $tag is not the binary's version (wirecheck $version): tag v$version" >&2
  exit 1
fi
mkdir -p "$out"
archive=$(wirecheck_archive "$tag" "$target")
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
cp "$binary" "$staging/wirecheck"
chmod 755 "$staging/wirecheck"
tar -czf "$out/$archive" -C "$staging" wirecheck
# sha256sum on Linux, shasum on macOS: the same two-space line either way.
if command -v sha256sum >/dev/null; then
  (cd "$out" && sha256sum "$archive") >>"$out/$WIRECHECK_SUMS"
else
  (cd "$out" && shasum -a 256 "$archive") >>"$out/$WIRECHECK_SUMS"
fi
echo "$out/$archive"
