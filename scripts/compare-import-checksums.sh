#!/usr/bin/env bash
# Imports a corpus app's own model files with swiftdata-gen-import, generates Swift from that import
# and from the corpus transcription, and compares what SwiftData's checksum sees of every entity of
# every version. Unlike compare-app-checksums.sh this never compiles the app's Swift, so it works for
# apps whose models import SwiftUI or UIKit. The app's files come from SOURCE.md (commit, files read).
# Usage: scripts/compare-import-checksums.sh <corpus-folder> <app's git dir> [<version the YAML leaves out>...]
# A version left out (SOURCE.md says why) is removed from the import before it is generated.
# Example: scripts/compare-import-checksums.sh Tests/SwiftDataGenCoreTests/Fixtures/Corpus/Team-Chalkak-Snappie \
#            ~/mirrors/Team-Chalkak+Snappie/repo
# Exit: 0 equal, 1 different (the diff is printed), 2 the import or a build failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(cd "$1" && pwd); gitdir=$2; shift 2
standin="$here/.build/standin"
read -r -a flags <<< "$("$here/scripts/build-standin.sh" "$standin" 2>/dev/null | tail -1)"
(cd "$here" && swift build --product swiftdata-gen >/dev/null)
(cd "$here/Importer" && swift build --product swiftdata-gen-import >/dev/null)
generator="$here/.build/debug/swiftdata-gen"
importer="$here/Importer/.build/debug/swiftdata-gen-import"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

commit=$(sed -n -E 's/^- Commit: ([0-9a-f]{40}).*/\1/p' "$corpus/SOURCE.md")
mkdir -p "$work/app"
sed -n '/^## Files read/,/^## /p' "$corpus/SOURCE.md" | sed -n -E 's/^- `([^`]+\.swift)`.*/\1/p' |
  while IFS= read -r path; do
    mkdir -p "$work/app/$(dirname "$path")"
    git --git-dir "$gitdir" show "$commit:$path" > "$work/app/$path"
  done

if ! "$importer" "$work/app" --output "$work/imported" > "$work/import.log" 2>&1; then
  echo "compare-import-checksums: the import failed:" >&2; cat "$work/import.log" >&2; exit 2
fi
for left_out in "$@"; do
  rm "$work/imported/$left_out.yaml"
done

checksums() {
  local schema=$1 dir=$2
  if ! "$generator" generate "$schema" --output "$dir/generated" > "$dir.log" 2>&1; then
    echo "compare-import-checksums: $(basename "$dir") does not generate:" >&2; grep -m 5 "error" "$dir.log" >&2; exit 2
  fi
  local files=()
  # The corpus hooks are the app's own hand-written code (e.g. a static member an initial value names).
  for file in "$dir/generated"/*.swift "$corpus"/hooks/*.swift; do
    [ -f "$file" ] && [[ "$file" != *UpgradeFrom* ]] && files+=("$file")
  done
  { echo "import SwiftData"
    sed -n -E 's/^(public )?enum ([A-Za-z0-9_]+): VersionedSchema.*/\2/p' "$dir/generated"/*.swift | sort -u |
      while IFS= read -r schema_type; do
        echo "print(\"version \\($schema_type.versionIdentifier)\")"
        echo "print(Schema(versionedSchema: $schema_type.self)._checksumText)"
      done
  } > "$dir/main.swift"
  if ! swiftc -swift-version 6 "${flags[@]}" -Xlinker -rpath -Xlinker "$standin" -o "$dir/run" "${files[@]}" \
    "$dir/main.swift" > "$dir/build.log" 2>&1; then
    echo "compare-import-checksums: $(basename "$dir") does not compile against the stand-in:" >&2
    grep -m 5 "error:" "$dir/build.log" >&2; exit 2
  fi
  "$dir/run" | awk '/^version /{v=$0; next} /^entity /{e=$2} {print v ": " e ": " $0}' | sort > "$dir/checksums.txt"
}
mkdir -p "$work/import" "$work/corpus"
checksums "$work/imported" "$work/import"
checksums "$corpus/input" "$work/corpus"
if diff -u --label imported --label transcribed "$work/import/checksums.txt" "$work/corpus/checksums.txt"; then
  echo "$(basename "$corpus"): equal, $(grep -c ': entity' "$work/corpus/checksums.txt") entity texts"
else
  exit 1
fi
