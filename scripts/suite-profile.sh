#!/usr/bin/env bash
# Runs `swift test` with every compiler process the tests start timed, then prints where the
# suite's time goes: wall time, CPU time of the compiles by kind, the largest compiles, and how
# many compiles ran at once in each 10 s (BENCHMARKS.md, "The test suite"). With SDG_PROFILE_LOG set,
# the log of every compile (user and system seconds, start, end, kind, first source) is copied there.
# Usage: scripts/suite-profile.sh [extra swift test arguments]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
real=$(readlink -f "$(command -v swiftc)")
toolchain=$(cd "$(dirname "$real")/.." && pwd)
# A swiftc in a folder shaped like the toolchain's (scripts find lib/swift/host beside it).
mkdir -p "$work/usr/bin"
ln -s "$toolchain/lib" "$work/usr/lib"
cat > "$work/usr/bin/swiftc" <<EOF
#!/usr/bin/env bash
start=\$(date +%s.%N)
/usr/bin/time -f "%U %S" -o "$work/t.\$\$" "$toolchain/bin/swiftc" "\$@"
status=\$?
kind=standin; case "\$*" in *iPhoneOS*) kind=sdk;; esac
case "\$*" in *-typecheck*) kind="\$kind-typecheck";; *-emit-module*|*-emit-library*) kind="\$kind-module";; *) kind="\$kind-binary";; esac
first="(none)"; for argument in "\$@"; do case "\$argument" in *.swift) first=\$argument; break;; esac; done
echo "\$(tail -1 "$work/t.\$\$") \$start \$(date +%s.%N) \$kind \$first" >> "$work/log"
rm -f "$work/t.\$\$"
exit \$status
EOF
chmod +x "$work/usr/bin/swiftc"
cd "$here"
begin=$(date +%s.%N)
status=0
PATH="$work/usr/bin:$PATH" swift test "$@" > "$work/test.log" 2>&1 || status=$?
end=$(date +%s.%N)
if [ -n "${SDG_PROFILE_LOG:-}" ]; then cp "$work/log" "$SDG_PROFILE_LOG"; fi
grep -E "Executed [0-9]+ tests" "$work/test.log" | tail -1
python3 - "$work/log" "$begin" "$end" <<'EOF'
import collections, sys
log, begin, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rows = []
for line in open(log):
    parts = line.split()
    if len(parts) < 5:
        continue
    user, system, start, stop, kind = float(parts[0]), float(parts[1]), float(parts[2]), float(parts[3]), parts[4]
    rows.append((user + system, start - begin, stop - begin, kind, parts[5] if len(parts) > 5 else ""))
print(f"wall {end - begin:.1f} s; {len(rows)} compiles, {sum(r[0] for r in rows):.1f} CPU-s")
by_kind = collections.defaultdict(lambda: [0.0, 0])
for cpu, _, _, kind, _ in rows:
    by_kind[kind][0] += cpu
    by_kind[kind][1] += 1
for kind, (cpu, count) in sorted(by_kind.items(), key=lambda item: -item[1][0]):
    print(f"  {cpu:7.1f} CPU-s  {count:4d}  {kind}")
print("largest:")
for cpu, start, stop, kind, first in sorted(rows, reverse=True)[:8]:
    print(f"  {cpu:6.1f} CPU-s  {kind:16s} {first.split('/Fixtures/')[-1]}")
print("compiles at once, per 10 s:")
second, last = 0, max((r[2] for r in rows), default=0)
while second < last:
    busy = sum(max(0, min(stop, second + 10) - max(start, second)) for _, start, stop, _, _ in rows)
    print(f"  {second:4d} s  {busy / 10:4.2f}")
    second += 10
EOF
exit "$status"
