#!/usr/bin/env bash
# What a plugin user pays to compile the generator: builds TripsApp side by side through the
# build-tool plugin and with its generated sources checked in (no plugin), and the tool alone in
# debug and release, each from clean; then the incremental builds; last, the app through the same
# plugin given a prebuilt tool (scripts/make-artifact-bundle.sh), which is what a binary release
# would cost. Prints one line per build with its wall time.
# Usage: scripts/measure-plugin-build.sh [runs] [--prebuilt-only]   (default 1; medians when more)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
runs=${1:-1}
scope=${2:-all}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=()
if [ "$(uname)" != "Darwin" ]; then
  # shellcheck disable=SC2207 # the flags hold no spaces
  flags=($(scripts/build-standin.sh "$here/.build/standin" --swift-build))
fi

# A copy of TripsApp that applies the plugin of the package at $2, named $3.
copyApp() {
  cp -R examples/TripsApp "$1"
  rm -rf "$1/.build" "$1/Generated"
  sed -i.bak "s|path: \"../..\"|path: \"$2\"|; s|package: generatorFolder|package: \"$3\"|" "$1/Package.swift"
}

# The app through the plugin, in a copy that depends on this checkout.
plugin="$work/TripsApp"
copyApp "$plugin" "$here" "$(basename "$here")"
# The same app with the generated sources checked in and no plugin.
appOnly="$work/TripsAppOnly"
mkdir -p "$appOnly/Sources/TripsApp"
cp examples/TripsApp/Sources/TripsApp/*.swift "$appOnly/Sources/TripsApp/"
cp examples/TripsApp/Generated/*.swift "$appOnly/Sources/TripsApp/"
cat > "$appOnly/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TripsAppOnly",
    platforms: [.iOS(.v18), .macOS(.v15)],
    targets: [.executableTarget(name: "TripsApp")],
    swiftLanguageModes: [.v6]
)
EOF

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log"; echo "measure: build failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
measure() {
  local label=$1 setup=$2
  shift 2
  local times=()
  for _ in $(seq "$runs"); do
    eval "$setup"
    times+=("$(seconds "$@")")
  done
  printf '%-58s %8.1f s   (%s)\n' "$label" "$(median "${times[@]}")" "$*"
}

if [ "$scope" != "--prebuilt-only" ]; then
  toolScratch="$work/tool"
  measure "tool alone, clean debug (swiftdata-gen)" "rm -rf '$toolScratch'" \
    swift build --scratch-path "$toolScratch" --product swiftdata-gen
  measure "tool alone, clean release" "rm -rf '$toolScratch'" \
    swift build --scratch-path "$toolScratch" --product swiftdata-gen -c release
fi
measure "app only (generated sources checked in), clean debug" "rm -rf '$appOnly/.build'" \
  swift build --package-path "$appOnly" "${flags[@]}"
if [ "$scope" != "--prebuilt-only" ]; then
  measure "app through the build-tool plugin, clean debug" "rm -rf '$plugin/.build'" \
    swift build --package-path "$plugin" "${flags[@]}"
  # SwiftPM 6.3 relinks the plugin's tool on the first build after a clean one; settle first.
  swift build --package-path "$plugin" "${flags[@]}" >/dev/null 2>&1
  measure "app through the plugin, incremental, nothing changed" ":" \
    swift build --package-path "$plugin" "${flags[@]}"
  measure "app through the plugin, incremental, a Swift file changed" "echo '// touched' >> '$plugin/Sources/TripsApp/main.swift'" \
    swift build --package-path "$plugin" "${flags[@]}"
  measure "app through the plugin, incremental, a schema file changed" "echo '# touched' >> '$plugin/Sources/TripsApp/Schema/3.0.0.yaml'" \
    swift build --package-path "$plugin" "${flags[@]}"
  measure "app through the plugin, clean release" "rm -rf '$plugin/.build'" \
    swift build --package-path "$plugin" "${flags[@]}" -c release
fi

# The plugin with the tool as a binary target: a package holding the plugin's source and an
# artifact bundle, and a third copy of the app that applies that package's plugin.
prebuilt="$work/Prebuilt"
mkdir -p "$prebuilt/Plugins"
cp -R Plugins/SwiftDataGenPlugin "$prebuilt/Plugins/"
scripts/make-artifact-bundle.sh "$prebuilt" >/dev/null 2>"$work/bundle.log" || { cat "$work/bundle.log"; exit 1; }
cat > "$prebuilt/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Prebuilt",
    products: [.plugin(name: "SwiftDataGenPlugin", targets: ["SwiftDataGenPlugin"])],
    targets: [
        .binaryTarget(name: "swiftdata-gen", path: "swiftdata-gen.artifactbundle"),
        .plugin(name: "SwiftDataGenPlugin", capability: .buildTool(), dependencies: ["swiftdata-gen"]),
    ]
)
EOF
binaryApp="$work/TripsAppPrebuilt"
copyApp "$binaryApp" "$prebuilt" Prebuilt
measure "app through the plugin with a prebuilt tool, clean debug" "rm -rf '$binaryApp/.build'" \
  swift build --package-path "$binaryApp" "${flags[@]}"
