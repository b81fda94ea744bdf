#!/usr/bin/env bash
# Installs wirecheck for the composite action (action.yml): the release binary
# of VERSION for this runner, checked against the release's SHA256SUMS; else,
# when the release has no binary for this runner (or VERSION is no release
# tag: a branch, a commit), built from source with `cargo install --locked`.
#
#   install.sh VERSION ROOT
#
# Installs ROOT/bin/wirecheck and prints `from=release` or `from=source` (the
# action's output `installed-from`). Environment:
#   WIRECHECK_REPOSITORY     owner/name the releases are under (the action's own)
#   WIRECHECK_RELEASES       where release assets are, default
#                            https://github.com/$WIRECHECK_REPOSITORY/releases/download
#                            (tests point it at a local folder, file://…)
#   WIRECHECK_SOURCE         the source checkout to build when VERSION is the
#                            action's own ref (the action's checkout)
#   RUNNER_OS, RUNNER_ARCH   as GitHub sets them
#   CARGO                    the cargo to build with, default cargo
# A binary whose checksum does not match, or that is missing from SHA256SUMS, is
# an error, never a reason to build: it means the release is not what was published.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/release-asset.sh"

[[ $# -eq 2 ]] || { echo "usage: install.sh VERSION ROOT" >&2; exit 2; }
version=$1 root=$2
say() { echo "wirecheck install: $*" >&2; }

from_source() {
  say "$1; building wirecheck $version from source (cargo install --locked)"
  if [[ -n "${WIRECHECK_SOURCE:-}" && -f "$WIRECHECK_SOURCE/conformance/Cargo.toml" ]]; then
    "${CARGO:-cargo}" install --locked --path "$WIRECHECK_SOURCE/conformance" --root "$root"
  else
    "${CARGO:-cargo}" install --locked --git "https://github.com/$WIRECHECK_REPOSITORY" \
      --tag "$version" --root "$root" wirecheck
  fi
  echo "from=source"
}

# Release tags are v<semver>; anything else (a branch, a commit) has no release.
if [[ ! "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
  from_source "$version is no release tag"
  exit 0
fi
if ! target=$(wirecheck_target "${RUNNER_OS:-}" "${RUNNER_ARCH:-}"); then
  from_source "no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
  exit 0
fi

base="${WIRECHECK_RELEASES:-https://github.com/${WIRECHECK_REPOSITORY:?WIRECHECK_REPOSITORY is not set}/releases/download}"
archive=$(wirecheck_archive "$version" "$target")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetch() { curl --fail --silent --show-error --location --retry 3 --output "$work/$2" "$base/$version/$1"; }

# No checksum file: no release of that tag (or one made before binaries were):
# source. A checksum file but no archive for this target: source too.
if ! fetch "$WIRECHECK_SUMS" sums 2>"$work/err"; then
  from_source "no $WIRECHECK_SUMS in release $version ($(tr -d '\n' <"$work/err"))"
  exit 0
fi
if ! fetch "$archive" "$archive" 2>"$work/err"; then
  from_source "no $archive in release $version ($(tr -d '\n' <"$work/err"))"
  exit 0
fi
expected=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$work/sums")
if [[ -z "$expected" ]]; then
  say "$archive is not listed in $WIRECHECK_SUMS of release $version: refusing it"
  exit 1
fi
if command -v sha256sum >/dev/null; then
  actual=$(sha256sum "$work/$archive" | cut -d' ' -f1)
else
  actual=$(shasum -a 256 "$work/$archive" | cut -d' ' -f1)
fi
if [[ "$actual" != "$expected" ]]; then
  say "$archive has SHA-256 $actual, but $WIRECHECK_SUMS of release $version says $expected: refusing it"
  exit 1
fi
mkdir -p "$root/bin"
tar -xzf "$work/$archive" -C "$work" wirecheck
install -m 755 "$work/wirecheck" "$root/bin/wirecheck"
say "release binary $archive, SHA-256 $actual"
echo "from=release"
