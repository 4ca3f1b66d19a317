#!/usr/bin/env bash
# Times each kind of generated stage of the library golden — a lightweight schema step, a
# conversion, a de-duplication before uniqueness, a string-to-relationship link — and the
# plan-model-rename golden's model rename (a copy of every row and the relinks) on stores of 10^4,
# 10^5 and 10^6 rows in the SwiftData stand-in's simulator (an SQLite store laid out as SwiftData's),
# built with -O. Each seed and each migration runs in a process of its own; prints, per job and
# size, wall time, SQL statements run by the migration and the process's peak RSS.
# Usage: scripts/bench-migrations.sh [ROWS...]   (default: 10000 100000 1000000)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
out="$here/.build/migration-bench"
mkdir -p "$out"
standin="$out/standin"
flags=$(SDG_STANDIN_SWIFTC_FLAGS="-O" "$here/scripts/build-standin.sh" "$standin" 2>/dev/null)
golden="$here/Tests/SwiftDataGenCoreTests/Fixtures/Golden/library/expected"
renamed="$here/Tests/SwiftDataGenCoreTests/Fixtures/Golden/plan-model-rename/expected"
sources=$(ls "$golden"/*.swift "$renamed"/*.swift | grep -v UpgradeFrom)
# shellcheck disable=SC2086
swiftc -O -swift-version 6 -module-name MigrationBench $flags -Xlinker -rpath -Xlinker "$standin" \
  $sources "$here/scripts/migration-bench/main.swift" -o "$out/migration-bench"
printf '%-12s %9s %10s %12s %10s\n' job rows seconds statements "peak MiB"
for rows in "${sizes[@]}"; do
  for pair in "lightweight seed-v1" "conversion seed-v1" "dedupe seed-v2" "link seed-v3" "rename seed-shelf"; do
    set -- $pair
    store="$out/bench-$1-$rows.store"
    rm -f "$store"
    "$out/migration-bench" "$2" "$rows" "$store" > /dev/null
    read -r job count seconds statements peak < <("$out/migration-bench" "$1" "$rows" "$store")
    printf '%-12s %9s %10s %12s %10.1f\n' "$job" "$count" "$seconds" "$statements" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')"
    rm -f "$store"
  done
done
