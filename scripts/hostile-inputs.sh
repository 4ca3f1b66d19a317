#!/usr/bin/env bash
# Writes the hostile inputs BENCHMARKS.md records (an alias bomb, 100 000 nested flow sequences,
# 2 000 nested block mappings) and runs `swiftdata-gen validate` on each under /usr/bin/time.
# Usage: scripts/hostile-inputs.sh [folder]   (default: a temporary folder; needs a release build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/.build/release/swiftdata-gen"
[ -x "$tool" ] || { echo "build first: swift build -c release" >&2; exit 2; }
root=${1:-$(mktemp -d)}
mkdir -p "$root/bomb" "$root/deep" "$root/blocks"
python3 - "$root" <<'PY'
import sys
root = sys.argv[1]
lines = ["schema: Bomb", "version: 1.0.0", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
for level in range(1, 10):
    lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 10) + "]")
open(f"{root}/bomb/1.0.0.yaml", "w").write("\n".join(lines) + "\n")
open(f"{root}/deep/1.0.0.yaml", "w").write("schema: Deep\nversion: 1.0.0\nmodels: " + "[" * 100000 + "\n")
blocks = ["schema: Blocks", "version: 1.0.0", "models:"] + ["  " * (depth + 1) + f"k{depth}:" for depth in range(2000)]
blocks[-1] += " x"
open(f"{root}/blocks/1.0.0.yaml", "w").write("\n".join(blocks) + "\n")
PY
for input in bomb deep blocks; do
  size=$(wc -c < "$root/$input/1.0.0.yaml")
  echo "== $input ($size bytes)"
  /usr/bin/time -f "wall %e s, peak RSS %M KiB" "$tool" validate "$root/$input" 2>&1 | grep -v '^Command exited' || true
done
