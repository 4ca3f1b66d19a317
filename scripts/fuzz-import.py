#!/usr/bin/env python3
"""Mutation fuzzing of swiftdata-gen-import over the importer's Swift fixtures.

Each round copies one fixture folder, mutates one or two of its files (lines repeated, deleted or
swapped; words replaced by Swift's own: keywords, attributes, literals such as 0xFF or Int.max,
`#if`, deep generics, backticks), and imports it into a fresh folder with a time limit. A round
fails when the importer crashes (a signal, or an exit code other than 0, 1 or 2), hangs, or exits
non-zero with files written (it writes all or nothing). It also counts the imports that exited 0
with YAML that `swiftdata-gen validate` refuses: each is something the importer did not note.

Usage: scripts/fuzz-import.py SECONDS [--seed N] [--show SDGnnn]
--show prints each refusal with that code, with the line the generator quotes, to work it down.
Needs the importer built (swift build --package-path Importer) and
the CLI built (swift build). Failing inputs are kept in .build/fuzz-import/failures/.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(HERE, "Importer/Tests/SwiftDataGenImportTests/Fixtures")


def bin_path(package):
    """Where SwiftPM puts the package's debug products (not always .build/debug)."""
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=package, check=True, capture_output=True,
                          text=True).stdout.strip()


IMPORTER = os.environ.get("SWIFTDATA_GEN_IMPORT") or os.path.join(bin_path(os.path.join(HERE, "Importer")),
                                                                   "swiftdata-gen-import")
TOOL = os.environ.get("SWIFTDATA_GEN") or os.path.join(bin_path(HERE), "swiftdata-gen")
OUT = os.path.join(HERE, ".build/fuzz-import")

WORDS = ["var", "let", "static", "private", "@Model", "@Transient", "@Attribute(.unique)", "@Attribute(originalName: \"x\")",
         "@Relationship(deleteRule: .cascade)", "0xFF", "0b11", "Int.max", "9223372036854775807", "-1", "\"\\u{202E}\"",
         "`default`", "String", "Int?", "[String]", "Date", "Data", "UUID", "Optional<Int>", "Array<Array<Int>>",
         "Schema.Version(1, 0, 0)", ".init(2, 0, 0)", "#if DEBUG", "#endif", "{", "}", "(", ")", "<", ">", "enum", "struct",
         "class", "final", "VersionedSchema", "SchemaMigrationPlan", "Codable", "typealias T = String", "self", "nil"]


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 1:
            del lines[i]
        elif op == 2:
            words = re.split(r"(\W+)", lines[i])
            candidates = [k for k, w in enumerate(words) if re.match(r"\w", w or "")]
            if candidates:
                words[rng.choice(candidates)] = rng.choice(WORDS)
            lines[i] = "".join(words)
        elif op == 3:
            lines[i] = lines[i] + " " + rng.choice(WORDS)
        elif op == 4:
            depth = rng.choice([3, 300, 3000])
            lines.insert(i, "    var deep: " + "Array<" * depth + "Int" + ">" * depth + " = []")
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    seconds = float(sys.argv[1])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    show = sys.argv[sys.argv.index("--show") + 1] if "--show" in sys.argv else None
    rng = random.Random(seed)
    os.makedirs(os.path.join(OUT, "failures"), exist_ok=True)
    # Folders that hold Swift (the Core Data bundles and stores beside them have none).
    # Every folder below the fixtures that holds Swift is a seed: the layouts and the agreement
    # corpus's forms are one level deeper.
    cases = sorted(os.path.relpath(folder, FIXTURES) for folder, _, files in os.walk(FIXTURES)
                   if folder != FIXTURES and any(f.endswith(".swift") for f in files))
    rounds = imported = refused = 0
    refusals = {}  # diagnostic code -> imports refused with it: the importer's unnoted gaps, by kind
    failures = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        rounds += 1
        work = tempfile.mkdtemp(prefix="sdg-fuzz-import-")
        source = os.path.join(work, "swift")
        shutil.copytree(os.path.join(FIXTURES, rng.choice(cases)), source)
        names = sorted(f for f in os.listdir(source) if f.endswith(".swift"))
        for name in rng.sample(names, k=rng.randint(1, min(2, len(names)))):
            path = os.path.join(source, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutate(text, rng))
        out = os.path.join(work, "schema")
        problem = None
        try:
            result = subprocess.run([IMPORTER, source, "--output", out], capture_output=True, timeout=60)
            code = result.returncode
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            problem = "hang (over 60 s)"
        elif code < 0 or code not in (0, 1, 2):
            problem = f"crash (exit {code})"
        elif code != 0 and os.path.isdir(out) and os.listdir(out):
            problem = "exit non-zero with files written"
        elif code == 0:
            imported += 1
            validated = subprocess.run([TOOL, "validate", out], capture_output=True, timeout=60)
            if validated.returncode not in (0, 1):
                problem = f"the generator crashed on imported YAML (exit {validated.returncode})"
            elif validated.returncode == 1:
                refused += 1
                text = (validated.stdout + validated.stderr).decode("utf-8", "replace")
                for code_seen in set(re.findall(r"error: .*\[(SDG[0-9]+)\]", text)):
                    refusals[code_seen] = refusals.get(code_seen, 0) + 1
                if show:
                    for line in text.splitlines():
                        if f"[{show}]" in line:
                            print("SHOW " + line.split("/")[-1], flush=True)
        if problem:
            kept = os.path.join(OUT, "failures", f"round-{seed}-{rounds}")
            shutil.copytree(source, kept, dirs_exist_ok=True)
            failures.append((problem, kept))
            print(f"FAIL {problem}: {kept}", flush=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{rounds} rounds, {imported} imported, {refused} of them refused by validate, {len(failures)} failures in {seconds:.0f} s (seed {seed})")
    if refusals:
        print("refused with: " + ", ".join(f"{code} {count}" for code, count in sorted(refusals.items(), key=lambda item: -item[1])))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
