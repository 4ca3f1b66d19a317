#!/usr/bin/env bash
# Holds the project's store inspection to the simulator's stores: every store the migration
# simulator read or wrote for a golden (kept by `SDG_KEEP_SIMULATOR_STORES=<folder> swift test`, a
# folder per golden) must be named by `swiftdata-gen-import store --schema <the golden's input>` as
# a version or bridge of that history, with no table or column it would expect said to be missing
# or different. Usage: scripts/check-simulator-stores.sh FOLDER IMPORTER
set -euo pipefail
folder=${1:?usage: check-simulator-stores.sh FOLDER IMPORTER}
importer=${2:?usage: check-simulator-stores.sh FOLDER IMPORTER}
here=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$here/Tests/SwiftDataGenCoreTests/Fixtures"
checked=0
failed=0
goldens=0
for kept in "$folder"/*/; do
  kept=${kept%/}
  name=$(basename "$kept" | tr '+' '/')
  case "$name" in
    corpus/*) input="$fixtures/Corpus/${name#corpus/}/input" ;;
    *) input="$fixtures/Golden/$name/input" ;;
  esac
  [ -d "$input" ] || { echo "check-simulator-stores: no input for $name at $input"; failed=$((failed + 1)); continue; }
  goldens=$((goldens + 1))
  for store in "$kept"/*.store; do
    [ -f "$store" ] || continue
    checked=$((checked + 1))
    if ! report=$("$importer" store "$store" --schema "$input" 2>&1) || ! grep -q "this store is at" <<<"$report" ||
      grep -q "its tables are not the ones" <<<"$report"; then
      echo "check-simulator-stores: FAIL - $name: $(basename "$store") is not named as a version with its tables:"
      echo "$report" | sed 's/^/    /'
      failed=$((failed + 1))
    fi
  done
done
echo "check-simulator-stores: $checked stores of $goldens goldens checked, $failed not named"
[ "$checked" -gt 0 ] || { echo "check-simulator-stores: no store was kept in $folder"; exit 1; }
[ "$failed" -eq 0 ]
