#!/usr/bin/env python3
"""Mutation fuzzing of the CLI over whole schema folders (not single files).

Each round copies a golden input folder, mutates it (YAML edits that keep it close to valid:
renamed keys, swapped types, duplicated or deleted lines, hostile strings, odd file names), and
runs `swiftdata-gen validate` and `generate` on it with a time limit. A round fails when the tool
crashes (a signal, or an exit code other than 0, 1 or 2), hangs, prints an error without
`file:line:col` for an input file, exits 0 with errors printed, or writes output while failing.
Every `--check-every`th successful generation is type-checked against the SwiftData stand-in.

After a successful generation some rounds go on against the output folder: its manifest is
damaged (lines repeated, reordered, cut, CRLF ends, bad escapes, a FIFO in its place), two runs
write into it at once, or a run is killed part-way; then the tool must still end cleanly, and
`check` must pass after every run that exited 0.

Usage: scripts/fuzz-cli.py SECONDS [--seed N] [--check-every K]
Needs a built CLI (swift build, or SWIFTDATA_GEN) and, for type checks, the
stand-in (scripts/build-standin.sh). Failing inputs are kept in .build/fuzz-cli/failures/.
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
GOLDEN = os.path.join(HERE, "Tests/SwiftDataGenCoreTests/Fixtures/Golden")


def bin_path(package):
    """Where SwiftPM puts the package's debug products (not always .build/debug)."""
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=package, check=True, capture_output=True,
                          text=True).stdout.strip()


TOOL = os.environ.get("SWIFTDATA_GEN") or os.path.join(bin_path(HERE), "swiftdata-gen")
OUT = os.path.join(HERE, ".build/fuzz-cli")

WORDS = ["String", "Int", "Date", "Data", "UUID", "URL", "Decimal", "Bool", "Double", "[String]", "String?",
         "models", "id", "hashValue", "RawValue", "type", "default", "renamedFrom", "from", "unique", "indexes",
         "dedupe", "inverse", "deleteRule", "cascade", "hashModifier", "expression", "convert", "0", "-1", "1e400",
         "\"$0 }; let x = 1; {\"", "\"a\\nb\"", "null", "~", "[]", "{}", "&a", "*a", "\"\\u202E\"", "1.0.0", "2.0.0"]


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
            lines[i] = lines[i].replace("  ", " ", 1) if rng.random() < 0.5 else "  " + lines[i]
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def run(arguments, timeout=20):
    start = time.time()
    try:
        result = subprocess.run([TOOL] + arguments, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", time.time() - start
    return result.returncode, result.stderr.decode("utf-8", "replace"), time.time() - start


def damage_manifest(path, rng):
    """Edits the manifest as a hand, a merge or a checkout might; sometimes puts a FIFO there."""
    if rng.random() < 0.1:
        os.remove(path)
        os.mkfifo(path)
        return "fifo"
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    op = rng.randrange(6)
    if op == 0 and len(lines) > 2:
        lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
    elif op == 1:
        rng.shuffle(lines)
    elif op == 2:
        lines = lines[: rng.randrange(len(lines) + 1)]
    elif op == 3:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["owner ../elsewhere", "  Ghost.swift", "  bad\\q.swift", "  ../x.swift", "owner "]))
    elif op == 4:
        with open(path, "w", newline="") as f:
            f.write("\r\n".join(lines))
        return "crlf"
    else:
        lines = [l.replace("owner ", "owner ../renamed", 1) for l in lines]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return "edited"


def start(arguments):
    return subprocess.Popen([TOOL] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def hostile_output_round(schema, out, work, rng):
    """Damages the output folder or races on it; returns a problem or None."""
    kind = rng.randrange(3)
    if kind == 0:
        damage_manifest(os.path.join(out, ".swiftdata-gen-manifest"), rng)
        code, stderr, _ = run(["generate", schema, "--output", out])
        problem = check_failure(code, stderr, schema)
        if problem:
            return "after a damaged manifest: " + problem
        if code == 0:
            checked, stderr, _ = run(["check", schema, "--output", out])
            if checked != 0:
                return "after a damaged manifest, generate exited 0 and check does not pass: " + stderr[:300]
        return None
    if kind == 1:
        first, second = start(["generate", schema, "--output", out]), start(["generate", schema, "--output", out])
        try:
            codes = [first.wait(timeout=60), second.wait(timeout=60)]
        except subprocess.TimeoutExpired:
            first.kill()
            second.kill()
            return "hang: two runs on one folder"
        if any(c not in (0, 1, 2) for c in codes):
            return f"crash: two runs on one folder exited {codes}"
        if 0 in codes:
            checked, stderr, _ = run(["check", schema, "--output", out])
            if checked != 0:
                return "two runs on one folder left it stale: " + stderr[:300]
        return None
    victim = start(["generate", schema, "--output", out])
    time.sleep(rng.uniform(0, 0.08))
    victim.kill()
    victim.wait()
    code, stderr, _ = run(["generate", schema, "--output", out])
    if code != 0:
        return "a run after a killed one did not repair the folder: " + stderr[:300]
    if any(name.startswith(".swiftdata-gen.") for name in os.listdir(out)):
        return "a killed run's staged files were left behind"
    checked, stderr, _ = run(["check", schema, "--output", out])
    return None if checked == 0 else "after a killed run and a repair, check does not pass: " + stderr[:300]


def check_failure(code, stderr, schema):
    if code is None:
        return "hang (over 20 s)"
    if code < 0 or code not in (0, 1, 2):
        return f"crash (exit {code})"
    errors = [l for l in stderr.split("\n") if ": error:" in l or l.startswith("error:")]
    if code == 0 and errors:
        return "exit 0 with errors printed"
    for line in errors:
        if line.startswith(schema) and not re.match(re.escape(schema) + r"/[^:]+:\d+:\d+: error:", line):
            return "an error about an input file without file:line:col"
    return None


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    seconds = float(sys.argv[1])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    check_every = int(sys.argv[sys.argv.index("--check-every") + 1]) if "--check-every" in sys.argv else 25
    rng = random.Random(seed)
    os.makedirs(os.path.join(OUT, "failures"), exist_ok=True)
    flags = None
    if shutil.which("swiftc"):
        built = subprocess.run(["bash", os.path.join(HERE, "scripts/build-standin.sh"), os.path.join(HERE, ".build/standin")], capture_output=True)
        if built.returncode == 0:
            flags = built.stdout.decode().strip().split("\n")[-1].split()
    cases = [c for c in sorted(os.listdir(GOLDEN)) if os.path.isdir(os.path.join(GOLDEN, c, "input"))]
    rounds = generated = checked = hostile = 0
    failures = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        rounds += 1
        work = tempfile.mkdtemp(prefix="sdg-fuzz-cli-")
        schema = os.path.join(work, "schema")
        shutil.copytree(os.path.realpath(os.path.join(GOLDEN, rng.choice(cases), "input")), schema)
        names = sorted(f for f in os.listdir(schema) if f.endswith(".yaml"))
        for name in rng.sample(names, k=rng.randint(1, min(2, len(names)))):
            path = os.path.join(schema, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutate(text, rng))
        if rng.random() < 0.05 and names:
            victim = rng.choice(names)
            os.rename(os.path.join(schema, victim), os.path.join(schema, victim.replace(".yaml", "\n.yaml")))
        out = os.path.join(work, "out")
        problem = None
        code, stderr, _ = run(["validate", schema])
        problem = check_failure(code, stderr, schema)
        if not problem:
            code, stderr, _ = run(["generate", schema, "--output", out, "--upgrade-tests", os.path.join(work, "tests")])
            problem = check_failure(code, stderr, schema)
            if not problem and code != 0 and os.path.isdir(out) and any(f.endswith(".swift") for f in os.listdir(out)):
                problem = "output written although generation failed"
            if not problem and code == 0 and rng.random() < 0.3:
                hostile += 1
                problem = hostile_output_round(schema, out, work, rng)
            if not problem and code == 0:
                generated += 1
                # A plan that calls hooks the team has not written does not compile, by design (SDG628).
                if flags and generated % check_every == 0 and "[SDG628]" not in stderr:
                    checked += 1
                    files = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".swift")]
                    typecheck = subprocess.run(["swiftc", "-typecheck", "-swift-version", "6", "-package-name", "FuzzCheck"] + flags + files, capture_output=True)
                    if typecheck.returncode != 0:
                        problem = "exit 0 with output that does not compile: " + typecheck.stderr.decode()[:300]
        if problem:
            kept = os.path.join(OUT, "failures", f"round-{seed}-{rounds}")
            shutil.copytree(schema, kept, dirs_exist_ok=True)
            failures.append((problem, kept))
            print(f"FAIL {problem}: {kept}", flush=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{rounds} rounds, {generated} generated, {checked} type-checked, {hostile} against a damaged or raced output folder, {len(failures)} failures in {seconds:.0f} s (seed {seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
