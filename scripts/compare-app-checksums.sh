#!/usr/bin/env bash
# Compiles an app's own schema Swift and a corpus app's generated Swift against the SwiftData
# stand-in and compares what SwiftData's checksum sees of every entity of every schema.
# Usage: scripts/compare-app-checksums.sh <corpus-folder> "<app's schema types>" "<generated schema types>" <app swift files>...
# Example: scripts/compare-app-checksums.sh Tests/SwiftDataGenCoreTests/Fixtures/Corpus/RogyMD-remember \
#            "SchemaV1 SchemaV2 SchemaV3" "SchemaV1 SchemaV2 SchemaV3" ~/remember/RememberCore/Sources/DatabaseClient/Schemas/*.swift
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(cd "$1" && pwd); app_schemas=$2; generated_schemas=$3; shift 3
standin="$here/.build/standin"
read -r -a flags <<< "$("$here/scripts/build-standin.sh" "$standin" 2>/dev/null | tail -1)"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
checksums() {
  local dir=$1 schemas=$2; shift 2
  mkdir -p "$dir"
  { echo "import SwiftData"; for schema in $schemas; do echo "print(Schema(versionedSchema: $schema.self)._checksumText)"; done; } > "$dir/main.swift"
  if ! swiftc -swift-version 5 "${flags[@]}" -Xlinker -rpath -Xlinker "$standin" -o "$dir/run" "$@" "$dir/main.swift" > "$dir/log" 2>&1; then
    echo "compare-app-checksums: $(basename "$dir") does not compile against the stand-in:" >&2
    grep -m 5 "error:" "$dir/log" >&2
    exit 2
  fi
  "$dir/run" > "$dir/checksums.txt"
}
checksums "$work/app" "$app_schemas" "$@"
generated=()
for file in "$corpus"/expected/*.swift "$corpus"/hooks/*.swift; do
  [ -f "$file" ] && [[ "$file" != *UpgradeFrom* ]] && generated+=("$file")
done
checksums "$work/generated" "$generated_schemas" "${generated[@]}"
if diff -u "$work/app/checksums.txt" "$work/generated/checksums.txt"; then
  echo "$(basename "$corpus"): equal, $(grep -c '^entity' "$work/app/checksums.txt") entity texts over $(wc -w <<< "$app_schemas") schemas"
else
  exit 1
fi
