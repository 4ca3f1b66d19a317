#!/usr/bin/env bash
# Packs a release build of swiftdata-gen for this machine as a SwiftPM artifact bundle, the form a
# `.binaryTarget` takes: a build-tool plugin that depends on it runs the tool without compiling it.
# Usage: scripts/make-artifact-bundle.sh OUT_DIR   → OUT_DIR/swiftdata-gen.artifactbundle
# Covers the host's triple only (on Linux with the Swift runtime linked in; libyaml stays a system
# library); a bundle for Macs needs the same steps run on macOS, where no run has been made yet.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/make-artifact-bundle.sh OUT_DIR}
static=()
[ "$(uname)" = "Linux" ] && static=(--static-swift-stdlib)
swift build --package-path "$here" -c release --product swiftdata-gen "${static[@]}" >&2
bin=$(swift build --package-path "$here" -c release --show-bin-path)
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')
version=$("$bin/swiftdata-gen" --version)
bundle="$out/swiftdata-gen.artifactbundle"
variant="swiftdata-gen-$version-$triple/bin"
rm -rf "$bundle"
mkdir -p "$bundle/$variant"
cp "$bin/swiftdata-gen" "$bundle/$variant/"
cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "swiftdata-gen": {
      "type": "executable",
      "version": "$version",
      "variants": [{ "path": "$variant/swiftdata-gen", "supportedTriples": ["$triple"] }]
    }
  }
}
JSON
echo "$bundle"
