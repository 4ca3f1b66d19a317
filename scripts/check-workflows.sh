#!/usr/bin/env bash
# Checks the GitHub workflows without running them (this machine has no GitHub runner): each file
# against the GitHub workflow JSON schema that check-jsonschema (PyPI, Apache-2.0) ships, installed
# into .build/workflows; every script a step runs exists and is executable; and, so that the check
# is known to bite, a copy with a job that names no runner must be refused.
# Exit 3 when pip cannot install the checker, unless SDG_REQUIRE_WORKFLOW_CHECK=1.
# Usage: scripts/check-workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=.build/workflows
package="check-jsonschema==0.39.0"
mkdir -p "$work"
missing() {
  echo "check-workflows: $1" >&2
  [ "${SDG_REQUIRE_WORKFLOW_CHECK:-}" = 1 ] && exit 1
  exit 3
}
if [ ! -f "$work/python/.complete" ]; then
  rm -rf "$work/python"
  # --target writes only into .build; a Debian Python that calls itself externally managed needs
  # to be told that this is no system install.
  install=(python3 -m pip install --quiet --disable-pip-version-check --target "$work/python" "$package")
  "${install[@]}" >"$work/pip.log" 2>&1 || "${install[@]}" --break-system-packages >>"$work/pip.log" 2>&1 \
    || { cat "$work/pip.log"; missing "cannot install $package from PyPI"; }
  echo "$package" > "$work/python/.complete"
fi
check() { PYTHONPATH="$work/python" python3 -m check_jsonschema --builtin-schema vendor.github-workflows "$@"; }

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
[ ${#workflows[@]} -gt 0 ] || { echo "check-workflows: no workflow in .github/workflows" >&2; exit 1; }
check "${workflows[@]}"

failures=0
for workflow in "${workflows[@]}"; do
  # The scripts a `run:` step names, as paths from the repository's root.
  while read -r script; do
    if [ ! -x "$script" ]; then
      echo "check-workflows: $workflow runs $script, which is not an executable file here" >&2
      failures=$((failures + 1))
    fi
  done < <(grep -oE '(^|[ :])(\.ci/run|scripts/[A-Za-z0-9_.-]+\.sh)' "$workflow" | sed -E 's/^[ :]//' | sort -u)
done

broken="$work/broken.yml"
sed '0,/runs-on:/{/runs-on:/d}' "${workflows[0]}" > "$broken"
if check "$broken" >/dev/null 2>&1; then
  echo "check-workflows: a job without runs-on passed the schema: the check does not bite" >&2
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || exit 1
echo "check-workflows: ${#workflows[@]} workflow(s) match GitHub's schema; every script they run exists"
