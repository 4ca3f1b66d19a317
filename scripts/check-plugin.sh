#!/usr/bin/env bash
# Builds every example package through the real build-tool plugin (the stand-in supplies SwiftData
# on Linux) and checks the plugin's behaviour: no regeneration when no schema file changed,
# regeneration when one did, clear errors for broken YAML and a missing or doubled config, and the
# command plugin writing sources into a target.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
failures=0
pass() { echo "check-plugin: ok   - $1"; }
fail() { echo "check-plugin: FAIL - $1"; failures=$((failures + 1)); }

for example in examples/*/; do
  example=${example%/}
  [ -f "$example/Package.swift" ] || continue
  name=$(basename "$example")
  log=$(mktemp)
  if scripts/build-example.sh "$example" >"$log" 2>&1; then pass "$name builds through the plugin and runs"; else cat "$log"; fail "$name build or run"; continue; fi
  # SwiftPM 6.3 relinks the plugin's tool on the first build after a clean one (it builds the tool
  # for plugin evaluation and again for the build), which reruns the generator once; let it settle,
  # and show that it happens once only.
  scripts/build-example.sh "$example" >"$log" 2>&1
  scripts/build-example.sh "$example" >"$log" 2>&1
  if grep -q "Generating SwiftData schemas" "$log"; then fail "$name: generator ran on a third build with nothing changed"; else pass "$name: no regeneration on a third build with nothing changed"; fi
  touch "$example/Sources/$name/main.swift"
  scripts/build-example.sh "$example" >"$log" 2>&1
  if grep -q "Generating SwiftData schemas" "$log"; then fail "$name: generator ran although no schema changed"; else pass "$name: no regeneration when only Swift changed"; fi
  touch "$example"/Sources/"$name"/Schema/swiftdata-gen.yaml
  scripts/build-example.sh "$example" >"$log" 2>&1
  if grep -q "Generating SwiftData schemas" "$log"; then pass "$name: regenerates when a schema file changed"; else fail "$name: generator did not run after a schema change"; fi
done

# Scratch packages next to the examples, so their path dependency on the repository resolves.
scratch="$here/examples/.plugin-checks"
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
make_package() {
  local dir="$scratch/$1"
  mkdir -p "$dir/Sources/App/Schema"
  sed "s/TripsApp/App/g; s|deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()|deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()|; s|path: \"../..\"|path: \"../../..\"|" \
    examples/TripsApp/Package.swift > "$dir/Package.swift"
  echo 'print(TripsSchema.versionIdentifier)' > "$dir/Sources/App/main.swift"
  cp examples/TripsApp/Sources/TripsApp/Schema/*.yaml "$dir/Sources/App/Schema/"
  echo "$dir"
}
expect_failure() {
  local label=$1 dir=$2 pattern=$3 log
  log=$(mktemp)
  if scripts/build-example.sh "$dir" >"$log" 2>&1; then fail "$label: build succeeded"; return; fi
  if grep -qE "$pattern" "$log"; then pass "$label"; else cat "$log"; fail "$label: no '$pattern' in the build log"; fi
}

dir=$(make_package broken-yaml)
sed -i 's/inverse: trip }/inverse: voyage }/' "$dir/Sources/App/Schema/3.0.0.yaml"
expect_failure "broken YAML reaches the build log at file:line:col" "$dir" \
  "Sources/App/Schema/3.0.0.yaml:[0-9]+:[0-9]+: error: inverse 'voyage' is not a property of Stop.*\[SDG202\]"

dir=$(make_package missing-config)
rm "$dir/Sources/App/Schema/swiftdata-gen.yaml"
expect_failure "missing config is named" "$dir" "has schema YAML but no swiftdata-gen.yaml"

dir=$(make_package doubled-config)
mkdir -p "$dir/Sources/App/Schema/Nested"
echo "{}" > "$dir/Sources/App/Schema/Nested/swiftdata-gen.yaml"
expect_failure "doubled config is named" "$dir" "has 2 swiftdata-gen.yaml files"

dir=$(make_package two-schemas)
mkdir -p "$dir/Sources/App/Schema/Trips" "$dir/Sources/App/Schema/Notes"
mv "$dir"/Sources/App/Schema/[0-9]*.yaml "$dir/Sources/App/Schema/Trips/"
cp examples/NotesApp/Sources/NotesApp/Schema/[0-9]*.yaml "$dir/Sources/App/Schema/Notes/"
printf 'print(TripsSchema.versionIdentifier, NotesSchema.versionIdentifier, NotesMigrationPlan.schemas.count)\n' > "$dir/Sources/App/main.swift"
log=$(mktemp)
if EXAMPLE_EXECUTABLE=App scripts/build-example.sh "$dir" >"$log" 2>&1 && grep -q "^3.0.0 1.1.0 2$" "$log"; then
  pass "two schemas in one target build and run"
else
  cat "$log"; fail "two schemas in one target"
fi

dir=$(make_package locked)
swift run -q swiftdata-gen lock "$dir/Sources/App/Schema" >/dev/null
log=$(mktemp)
if EXAMPLE_EXECUTABLE=App scripts/build-example.sh "$dir" >"$log" 2>&1 && ! grep -q "unhandled" "$log"; then
  pass "a locked schema folder builds without SwiftPM's unhandled-file warning"
else
  cat "$log"; fail "a locked schema folder: build failed or warned about an unhandled file"
fi
printf '\n' >> "$dir/Sources/App/Schema/swiftdata-gen.lock"
EXAMPLE_EXECUTABLE=App scripts/build-example.sh "$dir" >"$log" 2>&1 || true
if grep -q "Generating SwiftData schemas" "$log"; then pass "a changed lock file reruns validation"; else cat "$log"; fail "a changed lock file did not rerun the generator"; fi

dir=$(make_package command-plugin)
log=$(mktemp)
if swift package --package-path "$dir" --allow-writing-to-package-directory swiftdata-gen --target App >"$log" 2>&1; then
  cat "$log"; fail "command plugin on a target that uses the build-tool plugin: not refused"
elif grep -q "uses the SwiftDataGenPlugin build-tool plugin" "$log" && [ ! -d "$dir/Sources/App/Generated" ]; then
  pass "command plugin refuses a target that uses the build-tool plugin, and writes nothing"
else
  cat "$log"; fail "command plugin on a build-plugin target: no reason given, or Generated/ written"
fi
# Reports generate nothing, so a target with the build-tool plugin may have them.
if swift package --package-path "$dir" --allow-writing-to-package-directory swiftdata-gen --target App \
  --plan-markdown MIGRATIONS.md --diagram SCHEMA.md >"$log" 2>&1 \
  && grep -q '^### 2.0.0 → 3.0.0' "$dir/Sources/App/MIGRATIONS.md" && grep -q '^```mermaid' "$dir/Sources/App/SCHEMA.md" \
  && [ ! -d "$dir/Sources/App/Generated" ]; then
  pass "command plugin writes the plan as Markdown and the diagram into the target"
else
  cat "$log"; fail "command plugin --plan-markdown / --diagram"
fi
rm -f "$dir/Sources/App/MIGRATIONS.md" "$dir/Sources/App/SCHEMA.md"
# The next version's YAML is the team's, so a build-plugin target may have it too.
if swift package --package-path "$dir" --allow-writing-to-package-directory swiftdata-gen --target App \
  --new-version 4.0.0 >"$log" 2>&1 && grep -q '^version: 4.0.0$' "$dir/Sources/App/Schema/4.0.0.yaml" \
  && ! grep -q 'renamedFrom' "$dir/Sources/App/Schema/4.0.0.yaml" && [ ! -d "$dir/Sources/App/Generated" ]; then
  pass "command plugin starts the next version beside the latest one"
else
  cat "$log"; fail "command plugin --new-version"
fi
rm -f "$dir/Sources/App/Schema/4.0.0.yaml"
# Without the build-tool plugin, the command plugin is how the sources are made.
sed -i '/plugins: \[.plugin(name: "SwiftDataGenPlugin"/d' "$dir/Package.swift"
if swift package --package-path "$dir" --allow-writing-to-package-directory swiftdata-gen --target App >"$log" 2>&1 \
  && [ -f "$dir/Sources/App/Generated/TripsSchemaV3.swift" ] && [ -f "$dir/Sources/App/Generated/TripsMigrationPlan.swift" ]; then
  pass "command plugin writes Generated/ into the target"
else
  cat "$log"; fail "command plugin"
fi
if swift package --package-path "$dir" --allow-writing-to-package-directory swiftdata-gen --help 2>&1 | grep -q "OVERVIEW: Write the generated SwiftData sources"; then
  pass "command plugin honours --help"
else
  fail "command plugin --help"
fi
if swift package --package-path "$dir" --allow-writing-to-package-directory swiftdata-gen --taget App >"$log" 2>&1; then
  fail "command plugin accepted an unknown argument"
elif grep -q "unknown argument '--taget App'" "$log"; then
  pass "command plugin refuses unknown arguments"
else
  cat "$log"; fail "command plugin: no message for an unknown argument"
fi

if [ "$failures" -gt 0 ]; then echo "check-plugin: $failures check(s) failed"; exit 1; fi
echo "check-plugin: all checks passed"
