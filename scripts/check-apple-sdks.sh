#!/usr/bin/env bash
# The checks against Apple's newer SDKs (iOS 18.6, iOS 26.2, iOS 27.0, macOS 15.5), which `swift test` leaves
# out to stay within three minutes on a new machine: each costs about 35 CPU-seconds to read the
# first time. Runs every test that reads them, with SDG_NEWER_SDKS=1 and every SDK required.
# Usage: scripts/check-apple-sdks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export SDG_NEWER_SDKS=1 SDG_REQUIRE_APPLE_SDK=1
swift test --filter \
  'AppleSDKTypeCheckTests|AppleSDKRefusalTests|StandInAgreementTests|DarwinSourcesTests|ReservedNameTests|DocumentationTests.testTheTutorialReplays|DocumentationTests.testTheSampleThatOpensTheStoreOffTheLaunchPathMigratesAnOldStore|DocumentationTests.testTheExtensionSampleOpensOnlyAMigratedStore'
