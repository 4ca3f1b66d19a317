#!/usr/bin/env bash
# Holds the project's Swift to .swift-format (120 columns, 4-space indentation): `swift format lint
# --strict` over Sources, Plugins, Fuzz, Tests and the importer, leaving out test fixtures (goldens
# are compared byte for byte). `--fix` reformats instead.
set -euo pipefail
cd "$(dirname "$0")/.."
files=()
while IFS= read -r file; do files+=("$file"); done < <(
  { find Sources Plugins Fuzz Importer/Sources -name '*.swift'; find Tests Importer/Tests -name '*.swift' -not -path '*/Fixtures/*'; } |
    sort)
if [ "${1:-}" = "--fix" ]; then
  swift format --in-place "${files[@]}"
else
  swift format lint --strict "${files[@]}"
  echo "lint: ${#files[@]} files, no findings"
fi
