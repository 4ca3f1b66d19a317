#!/usr/bin/env bash
# Times each kind of generated stage of the library golden — a lightweight schema step, a
# conversion, a de-duplication before uniqueness, a string-to-relationship link — and the
# plan-model-rename golden's model rename (a copy of every row and the relinks) on stores of 10^4,
# 10^5 and 10^6 rows in the SwiftData stand-in's simulator (an SQLite store laid out as SwiftData's),
# built with -O. Each seed and each migration runs in a process of its own; prints, per job and
# size, wall time, processor time (user and system), SQL statements run by the migration and the
# process's peak RSS. With --repeat K every size is run K times, the sizes alternating. A summary
# then gives each job's medians and, between each size and the next, the ratios the targets are
# set on (time at most 12x a decade, peak memory at most 2x).
# Usage: scripts/bench-migrations.sh [--repeat K] [--jobs JOB,...] [ROWS...]
#   (default: once, every job, 10000 100000 1000000; jobs: lightweight conversion dedupe link rename)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
repeat=1
jobs=lightweight,conversion,dedupe,link,rename
sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
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
declare -A seeds=([lightweight]=seed-v1 [conversion]=seed-v1 [dedupe]=seed-v2 [link]=seed-v3 [rename]=seed-shelf)
results="$out/results.txt"
: > "$results"
printf '%-12s %9s %10s %10s %12s %10s\n' job rows seconds processor statements "peak MiB"
for ((run = 1; run <= repeat; run++)); do
  for rows in "${sizes[@]}"; do
    for job in ${jobs//,/ }; do
      seed=${seeds[$job]:?"no job $job"}
      store="$out/bench-$job-$rows.store"
      rm -f "$store" "$store-wal" "$store-shm"
      "$out/migration-bench" "$seed" "$rows" "$store" > /dev/null
      "$out/migration-bench" "$job" "$rows" "$store" | tee -a "$results" |
        awk '{ printf "%-12s %9s %10s %10s %12s %10.1f\n", $1, $2, $3, $4, $5, $6 / 1024 }'
      rm -f "$store" "$store-wal" "$store-shm"
    done
  done
done
python3 "$here/scripts/migration-bench/summary.py" "$results"
