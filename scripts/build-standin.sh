#!/usr/bin/env bash
# Builds the SwiftData stand-in (module, library and macro plugin) into OUTDIR with the toolchain
# on PATH, then prints the flags that build code against it: for swiftc by default, or with
# --swift-build the `swift build` flags for a package of your own (the plugin's tool is built too).
# Usage: scripts/build-standin.sh OUTDIR [--swift-build]
set -euo pipefail
out=${1:?usage: build-standin.sh OUTDIR [--swift-build]}
mode=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
swiftc_path=$(command -v swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc_path")")/.." && pwd)
host="$toolchain/lib/swift/host"
if [ ! -f "$host/libSwiftSyntaxMacros.so" ] && [ ! -f "$host/libSwiftSyntaxMacros.dylib" ]; then
  echo "build-standin: no host SwiftSyntax in $host; this toolchain cannot build the stand-in macros" >&2
  exit 3
fi
mkdir -p "$out"
src="$here/Tests/StandIn"
stamp="$out/.sources"
# The script is in the sum too: a change to how the stand-in is built rebuilds it.
# The generator's version-hash recipe is compiled in, so both compute Apple's hashes one way.
recipe="$here/Sources/SwiftDataGenCore/Identity/VersionHashRecipe.swift"
# And its rule for pairing relationships that declare no inverse, so both pair them one way.
pairing="$here/Sources/SwiftDataGenCore/Identity/UndeclaredInversePairing.swift"
# SDG_STANDIN_SWIFTC_FLAGS (say -O, for scripts/bench-migrations.sh) is added to the library's build.
sum=$( (cat "$0" "$src/Macros/StandInMacros.swift" "$src/SwiftData/"*.swift "$src/SwiftUI/"*.swift "$src/CSQLite/"* "$recipe" "$pairing"; echo "${SDG_STANDIN_SWIFTC_FLAGS:-}") | cksum)
out=$(cd "$out" && pwd)
flags() {
  if [ "$mode" = "--swift-build" ]; then
    echo "-Xswiftc -I -Xswiftc $out -Xswiftc -load-plugin-library -Xswiftc $out/libSwiftDataStandInMacros.so -Xswiftc -DSWIFTDATA_STANDIN -Xlinker -L$out -Xlinker -lSwiftData -Xlinker -rpath -Xlinker $out"
  else
    echo "swift build flags: $(mode=--swift-build flags)" >&2
    echo "-I $out -L $out -lSwiftData -load-plugin-library $out/libSwiftDataStandInMacros.so"
  fi
}
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] && [ -f "$out/libSwiftData.so" ]; then
  flags
  exit 0
fi
"$here/scripts/prebuild-swiftsyntax.sh" "$host"
# The stand-in keeps its stores in SQLite: code built against it finds the C module beside it.
cp "$src/CSQLite/module.modulemap" "$src/CSQLite/shim.h" "$out/"
swiftc -O -emit-library -module-name SwiftDataStandInMacros "$src/Macros/StandInMacros.swift" \
  -I "$host" -L "$host" -lSwiftSyntax -lSwiftSyntaxMacros -lSwiftSyntaxBuilder \
  -Xlinker -rpath -Xlinker "$host" -o "$out/libSwiftDataStandInMacros.so" >&2
swiftc -emit-library -emit-module -module-name SwiftData -parse-as-library -swift-version 6 \
  "$src/SwiftData/"*.swift "$recipe" "$pairing" -load-plugin-library "$out/libSwiftDataStandInMacros.so" \
  -I "$src/CSQLite" -lsqlite3 ${SDG_STANDIN_SWIFTC_FLAGS:-} \
  -o "$out/libSwiftData.so" -emit-module-path "$out/SwiftData.swiftmodule" >&2
# A module named SwiftUI for tests that show a name hiding SwiftUI's; interface only.
swiftc -emit-module -module-name SwiftUI -parse-as-library -swift-version 6 "$src/SwiftUI/"*.swift \
  -emit-module-path "$out/SwiftUI.swiftmodule" >&2
echo "$sum" > "$stamp"
flags
