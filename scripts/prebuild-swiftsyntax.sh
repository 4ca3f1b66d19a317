#!/usr/bin/env bash
# Builds the toolchain's SwiftSyntax modules, which it ships as interfaces only, into the user's module
# cache before a macro plugin's build imports them: a type-check builds them without the SIL optimiser
# (5 CPU-s, not 7.5; BENCHMARKS.md, "The test suite"), and the plugin's build reuses them. Best effort:
# where the option is refused, the plugin's build makes them as before.
# Usage: scripts/prebuild-swiftsyntax.sh HOST (the toolchain's lib/swift/host)
host=${1:?usage: prebuild-swiftsyntax.sh HOST}
printf 'import SwiftSyntaxMacros\nimport SwiftSyntaxBuilder\n' \
  | swiftc -typecheck -I "$host" -Xllvm -sil-opt-pass-count=0 - >/dev/null 2>&1 || true
