#!/usr/bin/env python3
"""Mutates the importer's Core Data fixtures and imports each result with swiftdata-gen-import:
every run must end with exit 0 (imported) or 1 (a clear error), never a signal, another code or
more than 10 seconds, and must leave no file outside its scratch folder.

Usage: scripts/fuzz-import-xml.py [seconds] [--seed N]   (default 60 s; build the importer first)
"""
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(HERE, "Importer", ".build", "debug", "swiftdata-gen-import")
FIXTURES = sorted(glob.glob(os.path.join(HERE, "Importer/Tests/SwiftDataGenImportTests/Fixtures/CoreData/*/*.xcdatamodeld/*/contents")))
SNIPPETS = [
    b'<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>', b"&b;", b"&#0;", b"&#x110000;",
    b"<![CDATA[", b"]]>", b"<!--", b"-->", b"<?x ?>", b'<entity name="', b'attributeType="Integer 64"', b"\xff\xfe",
    b"</entity>", b"<entity>", b'name=""', b'toMany="YES"', b'parentEntity="Item"', b'destinationEntity="Nope"',
    b'inverseName="x"', b'defaultValueString="1e999"', b'attributeType="Composite"', b"<model>", b"</model>",
]


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        position = rng.randint(0, max(len(data) - 1, 0))
        if choice < 0.3 and data:
            data[position] = rng.randint(0, 255)
        elif choice < 0.5:
            data[position:position] = rng.choice(SNIPPETS)
        elif choice < 0.65:
            del data[position:position + rng.randint(1, 64)]
        elif choice < 0.8:
            end = min(len(data), position + rng.randint(1, 400))
            data[position:position] = data[position:end] * rng.randint(1, 20)
        else:
            data = data[:position]
    return bytes(data)


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 60
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else int(time.time())
    rng = random.Random(seed)
    outcomes = {}
    failures = 0
    deadline = time.time() + seconds
    runs = 0
    while time.time() < deadline:
        source = rng.choice(FIXTURES)
        scratch = tempfile.mkdtemp(prefix="sdg-fuzz-xml-")
        bundle = os.path.join(scratch, "M.xcdatamodeld", "M.xcdatamodel")
        os.makedirs(bundle)
        with open(source, "rb") as f:
            data = mutate(f.read(), rng)
        with open(os.path.join(bundle, "contents"), "wb") as f:
            f.write(data)
        started = time.time()
        try:
            result = subprocess.run([TOOL, os.path.dirname(bundle), "--output", os.path.join(scratch, "out")],
                                    capture_output=True, timeout=10)
            code = result.returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
        elapsed = time.time() - started
        runs += 1
        outcomes[code] = outcomes.get(code, 0) + 1
        if code not in (0, 1):
            failures += 1
            keep = os.path.join(HERE, ".build", "fuzz-xml", f"failure-{runs}.xml")
            os.makedirs(os.path.dirname(keep), exist_ok=True)
            shutil.copy(os.path.join(bundle, "contents"), keep)
            print(f"FAIL ({code}, {elapsed:.1f} s): kept {keep}")
        shutil.rmtree(scratch)
    print(f"seed {seed}: {runs} imports in {seconds} s; outcomes {outcomes}; failures {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
