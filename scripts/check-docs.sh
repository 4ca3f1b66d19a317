#!/usr/bin/env bash
# Builds the DocC catalog into .build/docs (docc convert, no warning allowed), then opens its pages
# in headless Chromium as a reader would, from a local web server: each must render its own text,
# with no script error and no resource that fails to load. Screenshots go to .build/docs-pages.
# Exit 3 when no Chromium is installed (the build is still checked), unless SDG_REQUIRE_CHROMIUM=1.
# Usage: scripts/check-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
catalog=Sources/swiftdata-gen/SwiftDataGen.docc
out=.build/docs
rm -rf "$out" .build/docs-pages
mkdir -p .build/docs-pages
log=.build/docs-pages/docc.log
if ! docc convert "$catalog" --output-path "$out" --warnings-as-errors --transform-for-static-hosting \
  --fallback-display-name SwiftDataGen --fallback-bundle-identifier org.swiftdatagen.docs >"$log" 2>&1 \
  || grep -qiE "warning|error" "$log"; then
  cat "$log"
  echo "check-docs: docc convert reported a problem" >&2
  exit 1
fi
echo "check-docs: built $catalog into $out with no warning"

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [ -z "$browser" ]; then
  echo "check-docs: no Chromium to open the pages in (apt-get install chromium)" >&2
  [ "${SDG_REQUIRE_CHROMIUM:-}" = 1 ] && exit 1
  exit 3
fi

python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$out" >.build/docs-pages/server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
port=""
for _ in $(seq 1 50); do
  port=$(sed -nE 's/.*port ([0-9]+).*/\1/p' .build/docs-pages/server.log | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "check-docs: the web server did not start" >&2; exit 1; }

failed=0
# page path | text the rendered page must show
while IFS='|' read -r page text; do
  name=$(echo "$page" | tr '/' '-')
  "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --enable-logging=stderr --v=0 --virtual-time-budget=20000 --window-size=1280,1600 \
    --dump-dom "http://127.0.0.1:$port/$page" >".build/docs-pages/$name.html" 2>".build/docs-pages/$name.log" || true
  "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --virtual-time-budget=20000 --window-size=1280,1600 --screenshot=".build/docs-pages/$name.png" \
    "http://127.0.0.1:$port/$page" >/dev/null 2>&1 || true
  problems=$(grep -E "CONSOLE" ".build/docs-pages/$name.log" | grep -E "Uncaught|Failed to load|:ERROR:" || true)
  if [ -n "$problems" ]; then
    echo "check-docs: FAIL $page: a script error or a resource that did not load:"; echo "$problems"
    failed=1
  elif ! grep -qF "$text" ".build/docs-pages/$name.html"; then
    echo "check-docs: FAIL $page does not show \"$text\" once rendered"
    failed=1
  else
    echo "check-docs: ok   $page shows \"$text\""
  fi
done <<'PAGES'
documentation/swiftdatagen|Adopting in an app that has already shipped
tutorials/swiftdatagen|Ship SwiftData models without losing a row
tutorials/swiftdatagen/gettingstarted|Ship a second version with a rename and a conversion
documentation/swiftdatagen/schemafiles|What the validator enforces
documentation/swiftdatagen/diagnostics|SDG108
documentation/swiftdatagen/migrationplanning|The plan, as a reviewer reads it
PAGES
[ "$failed" = 0 ] || exit 1
echo "check-docs: every page rendered in $browser with no script error"
