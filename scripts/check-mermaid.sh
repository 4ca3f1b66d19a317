#!/usr/bin/env bash
# Draws every Mermaid diagram the project holds (the goldens' and the corpus's .mmd files, the
# ```mermaid blocks of the catalog and README) with mermaid.js in headless Chromium, as GitHub's
# readers see them, and fails on any that mermaid cannot parse or render. mermaid.js comes from
# the PyPI package diagram-renderer (MIT), installed into .build/mermaid; the drawings are kept in
# .build/mermaid/diagrams.png and each one's SVG in .build/mermaid/svg/.
# With --pictures it also draws the catalog's pictures: each Resources/<name>.mmd becomes
# Resources/<name>@2x.png, a screenshot of its rendering that carries the text it was drawn from (an
# iTXt chunk that DocumentationTests compares with the .mmd beside it, so a stale picture fails).
# Exit 3 when Chromium or pip is missing, unless SDG_REQUIRE_CHROMIUM=1.
# Usage: scripts/check-mermaid.sh [--pictures]
set -euo pipefail
cd "$(dirname "$0")/.."
pictures=0
case "${1:-}" in
  "") ;;
  --pictures) pictures=1 ;;
  *) echo "usage: scripts/check-mermaid.sh [--pictures]" >&2; exit 2 ;;
esac
work=.build/mermaid
resources=Sources/swiftdata-gen/SwiftDataGen.docc/Resources
package="diagram-renderer==2025.9.24.103"
mkdir -p "$work"
missing() {
  echo "check-mermaid: $1" >&2
  [ "${SDG_REQUIRE_CHROMIUM:-}" = 1 ] && exit 1
  exit 3
}
browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
[ -n "$browser" ] || missing "no Chromium to draw the diagrams in (apt-get install chromium)"
script=$(find "$work/python" -name mermaid.min.js 2>/dev/null | head -1 || true)
if [ -z "$script" ]; then
  # --target writes only into .build; a Debian Python that calls itself externally managed needs
  # to be told that this is no system install.
  install=(python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$work/python" "$package")
  "${install[@]}" >"$work/pip.log" 2>&1 || "${install[@]}" --break-system-packages >>"$work/pip.log" 2>&1 \
    || { cat "$work/pip.log"; missing "cannot install $package from PyPI"; }
  script=$(find "$work/python" -name mermaid.min.js | head -1)
fi
[ -n "$script" ] || missing "$package has no mermaid.min.js"
cp "$script" "$work/mermaid.min.js"

# The diagrams, as a JSON list of [where, text].
python3 - "$work/diagrams.js" <<'PY'
import glob, json, re, sys
found = []
sources = glob.glob("Tests/SwiftDataGenCoreTests/Fixtures/**/*.mmd", recursive=True)
sources += glob.glob("Sources/swiftdata-gen/SwiftDataGen.docc/Resources/*.mmd")
for path in sorted(sources):
    found.append([path, open(path, encoding="utf-8").read()])
pages = sorted(glob.glob("Sources/swiftdata-gen/SwiftDataGen.docc/**/*.md", recursive=True)) + ["README.md"]
for path in pages:
    text = open(path, encoding="utf-8").read()
    for number, block in enumerate(re.findall(r"```mermaid\n(.*?)```", text, re.S), 1):
        found.append([f"{path} (block {number})", block])
if not found:
    sys.exit("check-mermaid: no diagram found")
open(sys.argv[1], "w").write("const diagrams = " + json.dumps(found) + ";\n")
PY

cat >"$work/index.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"><script src="mermaid.min.js"></script><script src="diagrams.js"></script></head>
<body><pre id="results">running</pre><div id="drawings"></div>
<script>
(async () => {
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
  const lines = [];
  for (const [index, [where, text]] of diagrams.entries()) {
    try {
      await mermaid.parse(text);
      const { svg } = await mermaid.render("diagram" + index, text);
      if (!svg.includes("<svg")) throw new Error("no SVG");
      const figure = document.createElement("figure");
      figure.innerHTML = "<figcaption></figcaption>" + svg;
      figure.querySelector("figcaption").textContent = where;
      figure.dataset.svgIndex = index;
      document.getElementById("drawings").appendChild(figure);
      lines.push("ok " + where);
    } catch (error) {
      lines.push("FAIL " + where + ": " + String(error && error.message || error).split("\n").join(" "));
    }
  }
  document.getElementById("results").textContent = lines.join("\n") + "\ndone";
})();
</script></body></html>
HTML

flags=(--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars
  --allow-file-access-from-files --virtual-time-budget=30000 --window-size=1400,2000)
page="file://$(pwd)/$work/index.html"
"$browser" "${flags[@]}" --dump-dom "$page" >"$work/rendered.html" 2>"$work/chromium.log" || true
"$browser" "${flags[@]}" --screenshot="$work/diagrams.png" "$page" >/dev/null 2>&1 || true
python3 - "$work" <<'PY'
import html, os, re, sys
work = sys.argv[1]
dom = open(os.path.join(work, "rendered.html"), encoding="utf-8").read()
match = re.search(r'<pre id="results">(.*?)</pre>', dom, re.S)
results = html.unescape(match.group(1)).splitlines() if match else []
if not results or results[-1] != "done":
    sys.exit("check-mermaid: the page did not finish drawing (see " + work + "/chromium.log)")
os.makedirs(os.path.join(work, "svg"), exist_ok=True)
for index, svg in enumerate(re.findall(r"(<svg.*?</svg>)", dom, re.S)):
    open(os.path.join(work, "svg", f"{index:03}.svg"), "w", encoding="utf-8").write(svg)
failed = [line for line in results if line.startswith("FAIL")]
for line in failed:
    print("check-mermaid: " + line)
drawn = sum(1 for line in results if line.startswith("ok "))
if failed:
    sys.exit(f"check-mermaid: {len(failed)} of {drawn + len(failed)} diagrams did not render")
print(f"check-mermaid: all {drawn} Mermaid diagrams parsed and rendered by mermaid.js in Chromium")
PY

[ "$pictures" = 1 ] || exit 0
# Each picture: one page draws the diagram at its natural size and reports that size, a second
# run takes the screenshot at exactly that size (at twice the pixel density, for Retina screens).
shot=(--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars
  --allow-file-access-from-files --virtual-time-budget=30000 --force-device-scale-factor=2)
for source in "$resources"/*.mmd; do
  name=$(basename "$source" .mmd)
  python3 - "$source" "$work/picture.js" <<'PY'
import json, sys
open(sys.argv[2], "w").write("const picture = " + json.dumps(open(sys.argv[1], encoding="utf-8").read()) + ";\n")
PY
  cat >"$work/picture.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"><script src="mermaid.min.js"></script><script src="picture.js"></script>
<style>html, body { margin: 0; background: #ffffff; } #drawing { display: inline-block; padding: 16px; }</style></head>
<body><div id="drawing"></div><pre id="size" hidden>running</pre>
<script>
(async () => {
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict", er: { useMaxWidth: false } });
  try {
    const { svg } = await mermaid.render("picture", picture);
    const drawing = document.getElementById("drawing");
    drawing.innerHTML = svg;
    const box = drawing.getBoundingClientRect();
    document.getElementById("size").textContent = Math.ceil(box.width) + "," + Math.ceil(box.height);
  } catch (error) {
    document.getElementById("size").textContent = "FAIL " + String(error && error.message || error);
  }
})();
</script></body></html>
HTML
  page="file://$(pwd)/$work/picture.html"
  "$browser" "${shot[@]}" --window-size=2000,2000 --dump-dom "$page" >"$work/picture-dom.html" 2>>"$work/chromium.log" || true
  size=$(python3 -c 'import re,sys; m=re.search(r"<pre id=\"size\" hidden=\"\">(.*?)</pre>", open(sys.argv[1]).read(), re.S); print(m.group(1) if m else "none")' "$work/picture-dom.html")
  case "$size" in
    [0-9]*,[0-9]*) ;;
    *) echo "check-mermaid: $source was not drawn: $size" >&2; exit 1 ;;
  esac
  rm -f "$work/picture.png"
  "$browser" "${shot[@]}" --window-size="$size" --screenshot="$work/picture.png" "$page" >/dev/null 2>>"$work/chromium.log" || true
  [ -s "$work/picture.png" ] || { echo "check-mermaid: no screenshot of $source" >&2; exit 1; }
  python3 - "$work/picture.png" "$source" "$resources/$name@2x.png" <<'PY'
import struct, sys, zlib
picture, source, target = sys.argv[1:]
data = open(picture, "rb").read()
text = open(source, encoding="utf-8").read().encode("utf-8")
payload = b"swiftdata-gen mermaid source\0\0\0\0\0" + text
chunk = struct.pack(">I", len(payload)) + b"iTXt" + payload
chunk += struct.pack(">I", zlib.crc32(b"iTXt" + payload) & 0xFFFFFFFF)
end = data.rindex(b"IEND") - 4
open(target, "wb").write(data[:end] + chunk + data[end:])
PY
  echo "check-mermaid: drew $resources/$name@2x.png ($size CSS pixels)"
done
