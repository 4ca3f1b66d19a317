#!/usr/bin/env bash
# Builds the SwiftData stand-in (module, library and macro plugin) into OUTDIR with the toolchain
# on PATH, then prints the swiftc flags that make generated code type-check against it.
# Usage: scripts/build-standin.sh OUTDIR
set -euo pipefail
out=${1:?usage: build-standin.sh OUTDIR}
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
sum=$(cat "$src/Macros/StandInMacros.swift" "$src/SwiftData/"*.swift | cksum)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] && [ -f "$out/libSwiftData.so" ]; then
  echo "-I $out -L $out -lSwiftData -load-plugin-library $out/libSwiftDataStandInMacros.so"
  exit 0
fi
swiftc -emit-library -module-name SwiftDataStandInMacros "$src/Macros/StandInMacros.swift" \
  -I "$host" -L "$host" -lSwiftSyntax -lSwiftSyntaxMacros -lSwiftSyntaxBuilder \
  -Xlinker -rpath -Xlinker "$host" -o "$out/libSwiftDataStandInMacros.so" >&2
swiftc -emit-library -emit-module -module-name SwiftData -parse-as-library -swift-version 6 \
  "$src/SwiftData/"*.swift -load-plugin-library "$out/libSwiftDataStandInMacros.so" \
  -o "$out/libSwiftData.so" -emit-module-path "$out/SwiftData.swiftmodule" >&2
echo "$sum" > "$stamp"
echo "-I $out -L $out -lSwiftData -load-plugin-library $out/libSwiftDataStandInMacros.so"
