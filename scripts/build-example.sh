#!/usr/bin/env bash
# Builds an example package through the real build-tool plugin and runs its executable. On Linux
# the SwiftData stand-in is supplied by flags; on macOS the real SwiftData is used.
# Usage: scripts/build-example.sh examples/TripsApp [extra swift build args]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
example=$(cd "${1:?usage: build-example.sh EXAMPLE_DIR}" && pwd)
shift
# The executable to run afterwards: the folder's name unless EXAMPLE_EXECUTABLE says otherwise.
name=${EXAMPLE_EXECUTABLE:-$(basename "$example")}
flags=()
if [ "$(uname)" != "Darwin" ]; then
  # shellcheck disable=SC2207 # the flags hold no spaces
  flags+=($("$here/scripts/build-standin.sh" "$here/.build/standin" --swift-build))
  # SwiftPM does not see a module passed by flags change: a build made against another stand-in
  # would link objects laid out for it, so it is thrown away.
  stamp="$example/.build/.standin-sources"
  if [ -d "$example/.build" ] && ! cmp -s "$stamp" "$here/.build/standin/.sources" 2>/dev/null; then
    rm -rf "$example/.build"
  fi
fi
# ${flags[@]+…}: an empty array under `set -u` is an error in the bash macOS ships.
swift build --package-path "$example" ${flags[@]+"${flags[@]}"} "$@"
if [ "$(uname)" != "Darwin" ]; then cp "$here/.build/standin/.sources" "$example/.build/.standin-sources"; fi
bin=$(swift build --package-path "$example" ${flags[@]+"${flags[@]}"} --show-bin-path)
if [ -x "$bin/$name" ]; then
  "$bin/$name"
fi
