#!/usr/bin/env bash
# Imports a corpus app's own model files with swiftdata-gen-import, generates Swift from that import
# and hands it to compare-app-checksums.sh in place of the app's Swift: what SwiftData's checksum sees
# of every entity of every version is compared with the corpus's generated Swift. The app's own Swift
# is never compiled, so this works for apps whose models import SwiftUI or UIKit. The app's files come from SOURCE.md (commit, files read).
# Usage: scripts/compare-import-checksums.sh <corpus-folder> <app's git dir> [<version the YAML leaves out>...]
# A version left out (SOURCE.md says why) is removed from the import before it is generated.
# Example: scripts/compare-import-checksums.sh Tests/SwiftDataGenCoreTests/Fixtures/Corpus/Team-Chalkak-Snappie \
#            ~/mirrors/Team-Chalkak+Snappie/repo
# Exit: 0 equal, 1 different (the diff is printed), 2 the import or a build failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(cd "$1" && pwd); gitdir=$2; shift 2
(cd "$here" && swift build --product swiftdata-gen >/dev/null)
(cd "$here/Importer" && swift build --product swiftdata-gen-import >/dev/null)
# Where SwiftPM put them: its newer build system does not use .build/debug.
generator="$(cd "$here" && swift build --show-bin-path)/swiftdata-gen"
importer="$(cd "$here/Importer" && swift build --show-bin-path)/swiftdata-gen-import"
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

if ! "$generator" generate "$work/imported" --output "$work/generated" > "$work/generate.log" 2>&1; then
  echo "compare-import-checksums: the import does not generate:" >&2; grep -m 5 "error" "$work/generate.log" >&2; exit 2
fi

# The VersionedSchema types of a folder of generated Swift, in version order.
schema_types() {
  for file in "$1"/*.swift; do
    type=$(sed -n -E 's/^(public )?enum ([A-Za-z0-9_]+): VersionedSchema.*/\2/p' "$file")
    version=$(sed -n -E 's/.*Schema\.Version\(([0-9]+), ([0-9]+), ([0-9]+)\).*/\1.\2.\3/p' "$file" | head -1)
    [ -n "$type" ] && echo "$version $type"
  done | sort -V | cut -d' ' -f2 | tr '\n' ' '
}
# The "app" side is the import's generated Swift, with the corpus hooks (the app's own code, e.g. a
# static member an initial value names); compare-app-checksums.sh compiles and compares.
imported=()
for file in "$work/generated"/*.swift "$corpus"/hooks/*.swift; do
  [ -f "$file" ] && [[ "$file" != *UpgradeFrom* ]] && imported+=("$file")
done
"$here/scripts/compare-app-checksums.sh" "$corpus" "$(schema_types "$work/generated")" \
  "$(schema_types "$corpus/expected")" "${imported[@]}"
