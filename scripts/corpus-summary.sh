#!/usr/bin/env bash
# Rewrites the summary table of Tests/SwiftDataGenCoreTests/Fixtures/Corpus/README.md from the
# corpus histories and their SOURCE.md files; CorpusTests fails while the table is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
SDG_RECORD_GOLDENS=1 swift test --filter CorpusTests/testSummaryTableIsCurrent
git --no-pager diff --stat -- Tests/SwiftDataGenCoreTests/Fixtures/Corpus/README.md
