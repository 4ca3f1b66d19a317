#!/usr/bin/env bash
# Prints, on its last line, the swiftc flags that type-check code against Apple's own SwiftData
# interface for an iOS target (the -target flag is the caller's), building what a Linux machine
# lacks into OUTDIR first. On a Mac with Xcode: the installed iPhoneOS SDK and Xcode's own macros.
# Elsewhere: the SDK in $SDG_APPLE_SDK or ../shared/apple-sdk/iPhoneOS*.sdk beside the checkout,
# a resource folder with only the toolchain's shims and clang, and the project's SwiftDataMacros
# plugin (Tests/AppleSDK/Macros), built with the toolchain's SwiftSyntax.
# Exit 3 when no SDK is found (the caller skips), 1 when something could not be built.
# Usage: scripts/apple-sdk-flags.sh OUTDIR
set -euo pipefail
out=${1:?usage: apple-sdk-flags.sh OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(uname)" = Darwin ] && sdk=$(xcrun --sdk iphoneos --show-sdk-path 2>/dev/null); then
  echo "apple-sdk: $sdk with Xcode's macros" >&2
  echo "-sdk $sdk"
  exit 0
fi

sdk=${SDG_APPLE_SDK:-}
if [ -z "$sdk" ]; then
  for candidate in "$here"/../shared/apple-sdk/iPhoneOS*.sdk; do
    [ -d "$candidate" ] && sdk=$(cd "$candidate" && pwd)
  done
fi
if [ -z "$sdk" ] || [ ! -d "$sdk/System/Library/Frameworks/SwiftData.framework" ]; then
  echo "apple-sdk: no iPhoneOS SDK with SwiftData (set SDG_APPLE_SDK, or put one in ../shared/apple-sdk)" >&2
  exit 3
fi

swiftc_path=$(command -v swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc_path")")/.." && pwd)
host="$toolchain/lib/swift/host"
if [ ! -f "$host/libSwiftSyntaxMacros.so" ]; then
  echo "apple-sdk: no host SwiftSyntax in $host; this toolchain cannot build the SwiftDataMacros plugin" >&2
  exit 3
fi
mkdir -p "$out/resources"
out=$(cd "$out" && pwd)
# The Linux resource folder defines Dispatch and others a second time; an Apple target needs only these.
# -n: a link left pointing at another toolchain (or at none) is replaced, not followed.
for part in shims clang; do
  [ "$(readlink "$out/resources/$part" 2>/dev/null)" = "$toolchain/lib/swift/$part" ] \
    || ln -sfn "$toolchain/lib/swift/$part" "$out/resources/$part"
done
src="$here/Tests/AppleSDK/Macros/SwiftDataMacros.swift"
sum=$(cat "$0" "$src" | cksum)
if [ ! -f "$out/.sources" ] || [ "$(cat "$out/.sources")" != "$sum" ] || [ ! -f "$out/libSwiftDataMacros.so" ]; then
  "$here/scripts/prebuild-swiftsyntax.sh" "$host"
  # Unoptimised: -O took 8 CPU-seconds more to build and expanded no faster (BENCHMARKS.md).
  swiftc -emit-library -module-name SwiftDataMacros "$src" \
    -I "$host" -L "$host" -lSwiftSyntax -lSwiftSyntaxMacros -lSwiftSyntaxBuilder \
    -Xlinker -rpath -Xlinker "$host" -o "$out/libSwiftDataMacros.so" >&2
  echo "$sum" > "$out/.sources"
fi
echo "apple-sdk: $sdk with the project's SwiftDataMacros" >&2
echo "-sdk $sdk -resource-dir $out/resources -load-plugin-library $out/libSwiftDataMacros.so"
