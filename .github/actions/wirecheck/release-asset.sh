#!/usr/bin/env bash
# The names of wirecheck's release assets, in one place: sourced by package.sh
# (which the release workflow runs to make them) and install.sh (which the
# action runs to fetch them), so the two cannot drift apart.
#
#   wirecheck-<tag>-<target>.tar.gz   the binary `wirecheck`, alone, at the top
#   SHA256SUMS                        `sha256sum` lines, one per archive

# The Rust target of a runner (RUNNER_OS, RUNNER_ARCH as GitHub sets them), or
# nothing when no release binary is built for it: the targets of
# .github/workflows/release.yml's matrix, no more.
wirecheck_target() {
  case "$1/$2" in
    Linux/X64) echo x86_64-unknown-linux-gnu ;;
    macOS/ARM64) echo aarch64-apple-darwin ;;
    *) return 1 ;;
  esac
}

wirecheck_archive() {
  echo "wirecheck-$1-$2.tar.gz"
}

WIRECHECK_SUMS=SHA256SUMS
