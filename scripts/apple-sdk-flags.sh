#!/usr/bin/env bash
# Prints, on its last line, the swiftc flags that type-check code against Apple's own SwiftData
# interface of one SDK (the -target flag is the caller's), building what a Linux machine lacks into
# OUTDIR first. SDK is ios17, ios18, ios26, ios27 or macos15 (default ios17).
# On a Mac with Xcode: the installed SDK of that platform and Xcode's own macros, whatever its release
# (the caller reads the release from the SDK's SDKSettings.json).
# Elsewhere: the newest SDK of that release in $SDG_APPLE_SDKS or ../shared/apple-sdk beside the
# checkout (and its newer/ folder), a resource folder with only the toolchain's shims and clang, and
# the project's SwiftDataMacros plugin (Tests/AppleSDK/Macros) built for that SDK's Xcode, with the
# toolchain's SwiftSyntax. $SDG_APPLE_SDK still names the iOS 17 SDK.
# Exit 3 when no SDK is found (the caller skips), 1 when something could not be built.
# Usage: scripts/apple-sdk-flags.sh OUTDIR [SDK]
set -euo pipefail
out=${1:?usage: apple-sdk-flags.sh OUTDIR [ios17|ios18|ios26|ios27|macos15]}
which_sdk=${2:-ios17}
here=$(cd "$(dirname "$0")/.." && pwd)

case "$which_sdk" in
  ios17) platform=iPhoneOS; xcrun_sdk=iphoneos; release=17; xcode=15 ;;
  ios18) platform=iPhoneOS; xcrun_sdk=iphoneos; release=18; xcode=16 ;;
  ios26) platform=iPhoneOS; xcrun_sdk=iphoneos; release=26; xcode=26 ;;
  ios27) platform=iPhoneOS; xcrun_sdk=iphoneos; release=27; xcode=27 ;;
  macos15) platform=MacOSX; xcrun_sdk=macosx; release=15; xcode=16 ;;
  *) echo "apple-sdk: unknown SDK '$which_sdk' (ios17, ios18, ios26, ios27 or macos15)" >&2; exit 1 ;;
esac

if [ "$(uname)" = Darwin ] && sdk=$(xcrun --sdk "$xcrun_sdk" --show-sdk-path 2>/dev/null); then
  echo "apple-sdk: $sdk with Xcode's macros" >&2
  echo "-sdk $sdk"
  exit 0
fi

sdk=
if [ "$which_sdk" = ios17 ] && [ -n "${SDG_APPLE_SDK:-}" ]; then
  sdk=$SDG_APPLE_SDK
else
  root=${SDG_APPLE_SDKS:-$here/../shared/apple-sdk}
  for candidate in "$root"/"$platform$release".*.sdk "$root"/newer/"$platform$release".*.sdk; do
    [ -d "$candidate" ] && sdk=$(cd "$candidate" && pwd)
  done
fi
if [ -z "$sdk" ] || [ ! -d "$sdk/System/Library/Frameworks/SwiftData.framework" ]; then
  echo "apple-sdk: no $platform$release SDK with SwiftData (put one in ../shared/apple-sdk or \$SDG_APPLE_SDKS)" >&2
  exit 3
fi

# A copied subset can lose what clang needs before any import: a module map's umbrella folder (the
# macOS 15.5 subset's ffi.modulemap), or its symbolic links, stored as small files holding the
# link's target (a Mac framework's Modules -> Versions/Current/Modules). Such an SDK is read through
# a copy made of links, with each stored link made a link again and each missing umbrella folder
# made empty; the SDK itself is never changed.
flattened_link() { # FILE: a small file without an extension holding one relative path
  [[ "$(basename "$1")" != *.* ]] && [ -f "$1" ] && [ ! -L "$1" ] || return 1
  local target
  target=$(cat "$1")
  [[ "$target" =~ ^[A-Za-z0-9_][A-Za-z0-9_./-]*$ ]]
}
missing=()
for map in "$sdk"/usr/include/*.modulemap; do
  [ -f "$map" ] || continue
  while read -r folder; do
    [ -e "$sdk/usr/include/$folder" ] || missing+=("$folder")
  done < <(sed -n 's/^ *umbrella "\([^"]*\)".*/\1/p' "$map")
done
links=()
while IFS= read -r -d '' file; do
  flattened_link "$file" && links+=("${file#"$sdk"/}")
done < <(find "$sdk/System/Library/Frameworks" -path '*.framework/*' -type f -size -64c -print0 2>/dev/null)
if [ ${#missing[@]} -gt 0 ] || [ ${#links[@]} -gt 0 ]; then
  mkdir -p "$out"
  shadow="$(cd "$out" && pwd)/sdks/$(basename "$sdk")"
  if [ ! -f "$shadow/.complete" ] || [ "$(cat "$shadow/.complete")" != "$sdk" ]; then
    rm -rf "$shadow"
    (cd "$sdk" && find . -type d) | while IFS= read -r folder; do mkdir -p "$shadow/$folder"; done
    (cd "$sdk" && find . ! -type d) | while IFS= read -r file; do ln -s "$sdk/${file#./}" "$shadow/$file"; done
    for link in "${links[@]}"; do
      rm -f "$shadow/$link"
      ln -sfn "$(cat "$sdk/$link")" "$shadow/$link"
    done
    for link in "${links[@]}"; do # a restored link that leads nowhere was a file after all
      [ -e "$shadow/$link" ] || ln -sfn "$sdk/$link" "$shadow/$link"
    done
    for folder in "${missing[@]}"; do mkdir -p "$shadow/usr/include/$folder"; done
    echo "$sdk" > "$shadow/.complete"
  fi
  echo "apple-sdk: $sdk read through $shadow (links restored: ${#links[@]}; empty umbrella folders: ${missing[*]:-none})" >&2
  sdk=$shadow
fi

swiftc_path=$(command -v swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc_path")")/.." && pwd)
host="$toolchain/lib/swift/host"
if [ ! -f "$host/libSwiftSyntaxMacros.so" ]; then
  echo "apple-sdk: no host SwiftSyntax in $host; this toolchain cannot build the SwiftDataMacros plugin" >&2
  exit 3
fi
mkdir -p "$out/resources" "$out/xcode$xcode"
out=$(cd "$out" && pwd)
# The Linux resource folder defines Dispatch and others a second time; an Apple target needs only these.
# -n: a link left pointing at another toolchain (or at none) is replaced, not followed.
for part in shims clang; do
  [ "$(readlink "$out/resources/$part" 2>/dev/null)" = "$toolchain/lib/swift/$part" ] \
    || ln -sfn "$toolchain/lib/swift/$part" "$out/resources/$part"
done
src="$here/Tests/AppleSDK/Macros/SwiftDataMacros.swift"
plugin="$out/xcode$xcode/libSwiftDataMacros.so"
sum=$(cat "$0" "$src" | cksum)
build_plugin() {
  [ -f "$out/xcode$xcode/.sources" ] && [ "$(cat "$out/xcode$xcode/.sources")" = "$sum" ] && [ -f "$plugin" ] \
    && return 0
  "$here/scripts/prebuild-swiftsyntax.sh" "$host"
  # Unoptimised: -O took 8 CPU-seconds more to build and expanded no faster (BENCHMARKS.md).
  swiftc -emit-library -module-name SwiftDataMacros "$src" -D "XCODE_$xcode" \
    -I "$host" -L "$host" -lSwiftSyntax -lSwiftSyntaxMacros -lSwiftSyntaxBuilder \
    -Xlinker -rpath -Xlinker "$host" -o "$plugin" >&2
  echo "$sum" > "$out/xcode$xcode/.sources"
}
# One build at a time: the tests ask for every SDK at once, and the plugins' first builds would
# race on the user's module cache for SwiftSyntax.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$out/.plugin-lock"
  flock 9
fi
build_plugin
# The 18 and later SDKs make clang look for module maps only at the top of each search path, so
# SwiftShims needs its folder named (docs/apple-sdk-findings.md, "How it is checked").
shims=
[ "$release" = 17 ] || shims="-I $out/resources/shims"
# A module interface whose flags this compiler refuses (27.0's SwiftData carries Swift 6.4's
# -target-arch-variant) is read from a copy without them, found first through -F; the SDK is
# never changed. A compiler that knows the flag reads the SDK's own.
overlay=
modules=SwiftData.framework/Modules/SwiftData.swiftmodule
if grep -q -- '-target-arch-variant' "$sdk/System/Library/Frameworks/$modules"/*.swiftinterface 2>/dev/null \
  && ! swiftc -frontend -help 2>/dev/null | grep -q -- '-target-arch-variant'; then
  overlay="$out/overlays/$(basename "$sdk")"
  mkdir -p "$overlay/$modules"
  for interface in "$sdk/System/Library/Frameworks/$modules"/*.swiftinterface; do
    copy="$overlay/$modules/$(basename "$interface")"
    sed 's/ -target-arch-variant [^ ]*//' "$interface" > "$copy.new"
    # Rewritten only when it changes, so the module cache keyed on it stays valid.
    if cmp -s "$copy.new" "$copy"; then rm "$copy.new"; else mv "$copy.new" "$copy"; fi
  done
  echo "apple-sdk: SwiftData's interface read from $overlay, without -target-arch-variant" >&2
  overlay="-F $overlay"
fi
echo "apple-sdk: $sdk with the project's SwiftDataMacros for Xcode $xcode" >&2
echo "-sdk $sdk -resource-dir $out/resources $shims $overlay -load-plugin-library $plugin"
