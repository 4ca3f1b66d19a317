#!/usr/bin/env bash
# Writes the hostile inputs BENCHMARKS.md records (an alias bomb, 100 000 nested flow sequences,
# 2 000 nested block mappings) and runs `swiftdata-gen validate` on each under /usr/bin/time; then
# the importer's store and bundle readers on the inputs of hostile round four.
# Usage: scripts/hostile-inputs.sh [folder]   (default: a temporary folder; needs a release build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$(cd "$here" && swift build -c release --show-bin-path)/swiftdata-gen"
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

# The importer's store readers (ReadingBudget): amplification through shared property-list
# objects in Z_METADATA and in the kept model (Z_MODELCACHE), 9,990 tables with 20,000 entity rows,
# an XML element of 200,000 attributes. Run with the importer's debug build unless a release
# build is there.
importer="$(cd "$here/Importer" && swift build -c release --show-bin-path)/swiftdata-gen-import"
[ -x "$importer" ] || importer="$(cd "$here/Importer" && swift build --show-bin-path)/swiftdata-gen-import"
if [ ! -x "$importer" ]; then
  echo "== importer: build it first (swift build --package-path Importer) to measure the store readers"
  exit 0
fi
mkdir -p "$root/stores" "$root/bundle.xcdatamodeld/Model.xcdatamodel"
python3 - "$root" <<'PY'
import sqlite3, struct, sys, zlib
root = sys.argv[1]

class Plist:
    """A bplist00 written object by object: two-byte references, eight-byte offsets."""
    def __init__(self):
        self.objects = []
    def add(self, data):
        self.objects.append(data)
        return len(self.objects) - 1
    @staticmethod
    def head(kind, count):
        return bytes([kind << 4 | count]) if count < 15 else bytes([kind << 4 | 15, 0x13]) + struct.pack(">Q", count)
    def data(self, b): return self.add(self.head(4, len(b)) + b)
    def string(self, s): return self.add(self.head(5, len(s)) + s.encode())
    def uid(self, i): return self.add(bytes([0x81]) + struct.pack(">H", i))
    def array(self, items): return self.add(self.head(10, len(items)) + b"".join(struct.pack(">H", i) for i in items))
    def dict(self, pairs):
        return self.add(self.head(13, len(pairs)) + b"".join(struct.pack(">H", k) for k, _ in pairs)
                        + b"".join(struct.pack(">H", v) for _, v in pairs))
    def bytes(self, top):
        out = bytearray(b"bplist00")
        offsets = []
        for o in self.objects:
            offsets.append(len(out))
            out += o
        table = len(out)
        for o in offsets:
            out += struct.pack(">Q", o)
        out += bytes([0, 0, 0, 0, 0, 0, 8, 2]) + struct.pack(">QQQ", len(self.objects), top, table)
        return bytes(out)

def metadata(extra=lambda p: []):
    p = Plist()
    hashes = p.dict([(p.string("Trip"), p.data(b"\x07" * 32))])
    return p.bytes(p.dict([(p.string("NSStoreModelVersionHashes"), hashes)] + extra(p)))

def store(name, plist, cache=None, tables=0, rows=0):
    db = sqlite3.connect(f"{root}/stores/{name}")
    db.executescript("""CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Trip', 0, 0);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);""")
    db.execute("INSERT INTO Z_METADATA VALUES (1, 'u', ?)", (plist,))
    if cache is not None:
        db.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (cache,))
    for t in range(tables):
        db.execute(f"CREATE TABLE ZT{t} (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME VARCHAR)")
    for r in range(rows):
        db.execute("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, 0)", (r + 2, f"T{r % max(tables, 1)}"))
    db.commit()

def bomb(p):
    leaf = p.string("x" * 1000)
    level = leaf
    for _ in range(3):
        level = p.array([level] * 3000)
    return [(p.string("Bomb"), level)]
store("metadata-bomb.store", metadata(bomb))

p = Plist()
big = p.data(b"\x01" * (30 << 20))
archive = p.bytes(p.dict([(p.string("$objects"), p.array([big] * 2000)), (p.string("$top"), p.dict([]))]))
deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
store("model-bomb.store", metadata(), cache=deflate.compress(archive) + deflate.flush())
store("many-tables.store", metadata(), tables=9990, rows=19998)
attributes = " ".join(f'a{i}="x"' for i in range(200000))
open(f"{root}/bundle.xcdatamodeld/Model.xcdatamodel/contents", "w").write(
    f'<?xml version="1.0"?>\n<model {attributes}></model>\n')
PY
for input in metadata-bomb model-bomb many-tables; do
  echo "== store $input ($(wc -c < "$root/stores/$input.store") bytes)"
  /usr/bin/time -f "wall %e s, peak RSS %M KiB" "$importer" store "$root/stores/$input.store" 2>&1 >/dev/null \
    | grep -v '^Command exited' | tail -2 || true
done
echo "== bundle with an element of 200,000 attributes ($(wc -c < "$root/bundle.xcdatamodeld/Model.xcdatamodel/contents") bytes)"
/usr/bin/time -f "wall %e s, peak RSS %M KiB" "$importer" "$root/bundle.xcdatamodeld" --output "$root/out" 2>&1 \
  | grep -v '^Command exited' | tail -2 || true
