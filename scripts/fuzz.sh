#!/usr/bin/env bash
# Builds the libFuzzer target over load → decode → validate → plan → render and runs it.
# Usage: scripts/fuzz.sh [seconds] [extra libFuzzer flags]   (default 60 s)
# The seed corpus is built from every golden fixture; crashes land in .build/fuzz/crashes/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
out="$here/.build/fuzz"
mkdir -p "$out/corpus" "$out/crashes"

# The key declarations as a module of their own (the core imports them), then the core and the
# entry point, all instrumented.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name SwiftDataGenDSL \
  -emit-library -static -emit-module -emit-module-path "$out/SwiftDataGenDSL.swiftmodule" \
  "$here"/Sources/SwiftDataGenDSL/*.swift -o "$out/libSwiftDataGenDSL.a"
find "$here/Sources/SwiftDataGenCore" -name '*.swift' | sort > "$out/sources.txt"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name SwiftDataGenFuzz \
  -I "$here/Sources/CYaml" -I "$out" -L "$out" -lSwiftDataGenDSL -lyaml \
  $(cat "$out/sources.txt") "$here/Fuzz/FuzzTarget.swift" -o "$out/fuzz-generator"

# Seeds: each golden case as config \x01 version \x01 version …
python3 - "$here/Tests/SwiftDataGenCoreTests/Fixtures/Golden" "$out/corpus" <<'PY'
import os, sys
root, corpus = sys.argv[1], sys.argv[2]
for case in sorted(os.listdir(root)):
    folder = os.path.join(root, case, "input")
    if not os.path.isdir(folder):
        continue
    names = sorted(n for n in os.listdir(folder) if n.endswith(".yaml"))
    config = open(os.path.join(folder, "swiftdata-gen.yaml"), "rb").read() if "swiftdata-gen.yaml" in names else b""
    versions = [open(os.path.join(folder, n), "rb").read() for n in names if n != "swiftdata-gen.yaml"]
    with open(os.path.join(corpus, "seed-" + case), "wb") as f:
        f.write(b"\x01".join([config] + versions))
PY

cd "$out"
SDG_TEMPLATES="$here/Templates/mustache" ./fuzz-generator corpus -max_total_time="$seconds" -max_len=65536 \
  -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$out/crashes/" -print_final_stats=1 "$@"
