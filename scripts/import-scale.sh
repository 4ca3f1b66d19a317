#!/usr/bin/env bash
# Times swiftdata-gen-import on a large app written in the layouts real apps use (each version in
# an extension of a namespace, one file a version, models related to each other, a module-scope
# alias per current model), so the lookup of every name and the proof (every version generated in
# memory and its hashes compared) are measured at scale. Prints one line of figures per size.
# Usage: scripts/import-scale.sh [importer-binary]   (default: the Importer package's debug build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
importer=${1:-"$(cd "$here/Importer" && swift build --show-bin-path)/swiftdata-gen-import"}
[ -x "$importer" ] || { echo "import-scale: build the importer first: swift build --package-path Importer" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in "4 20 10" "8 40 20" "8 80 20"; do
  set -- $size
  versions=$1 models=$2 properties=$3
  src="$work/src-$versions-$models-$properties"
  mkdir -p "$src"
  python3 - "$src" "$versions" "$models" "$properties" <<'PY'
import sys, os
src, versions, models, properties = sys.argv[1], *map(int, sys.argv[2:])
open(os.path.join(src, "Schemas.swift"), "w").write("import SwiftData\n\nenum Schemas {}\n")
for v in range(1, versions + 1):
    lines = ["import Foundation", "import SwiftData", "", "extension Schemas {",
             f"    enum V{v}: VersionedSchema {{",
             f"        static var versionIdentifier: Schema.Version {{ Schema.Version({v}, 0, 0) }}",
             "        static var models: [any PersistentModel.Type] { ["
             + ", ".join(f"M{m}.self" for m in range(models)) + "] }"]
    for m in range(models):
        lines += ["", "        @Model", f"        final class M{m} {{"]
        # Each version adds one optional property to every model: a lightweight step.
        for p in range(properties + v - 1):
            kind = ["String", "Int", "Date?", "Double", "Bool"][p % 5]
            init = {"String": ' = ""', "Int": " = 0", "Date?": "", "Double": " = 0", "Bool": " = false"}[kind]
            if p >= properties:
                kind, init = "String?", ""
            lines.append(f"            var p{p}: {kind}{init}")
        if m > 0:
            lines.append(f"            @Relationship(inverse: \\Schemas.V{v}.M{m - 1}.next) var previous: M{m - 1}?")
        if m < models - 1:
            lines.append(f"            var next: [M{m + 1}] = []")
        lines += ["            init() {}", "        }"]
    lines += ["    }", "}", ""]
    open(os.path.join(src, f"V{v}.swift"), "w").write("\n".join(lines))
aliases = "\n".join(f"typealias M{m} = Schemas.V{versions}.M{m}" for m in range(models))
open(os.path.join(src, "Current.swift"), "w").write(aliases + "\n")
PY
  out="$work/out-$versions-$models-$properties"
  lines=$(cat "$src"/*.swift | wc -l)
  /usr/bin/time -f "%e %M" -o "$work/time" "$importer" "$src" --output "$out" > "$work/log" 2>&1 || {
    echo "import-scale: the import of $versions versions × $models models failed:" >&2
    tail -5 "$work/log" >&2
    exit 1
  }
  read -r seconds kilobytes < "$work/time"
  echo "$versions versions × $models models × $properties+ properties ($lines lines of Swift): ${seconds} s, $((kilobytes / 1024)) MB peak RSS, $(ls "$out" | wc -l) files written"
done
