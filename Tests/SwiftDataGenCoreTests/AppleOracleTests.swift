import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Apple's own model of each generated schema as the oracle for store identity (`AppleOracle`): on a
/// Mac its entity version hashes must be the generator's (`plan --format json`, `lock`). The
/// overlay's interface is in no SDK copy here, so on Linux the probe is type-checked without that
/// one call, and the comparison is tested on readings made from the planner's own.
final class AppleOracleTests: XCTestCase {
    /// The generator's plan for a golden, as `plan` computes it.
    static func plan(of golden: String) throws -> (MigrationPlan, GeneratedNames) {
        let input = GoldenTests.folder(golden).appendingPathComponent("input").resolvingSymlinksInPath().path
        let history = try XCTUnwrap(Generator.validate(try SchemaLoader.read(directory: input).get()).histories.first)
        return (MigrationPlanner.plan(history).plan, GeneratedNames(history: history))
    }

    /// The comparison finds an entity, a hash or a checksum that differs, and is silent on a
    /// reading equal to the generator's (either reading).
    func testTheComparisonNamesEveryDisagreement() throws {
        let (plan, _) = try Self.plan(of: "plan-model-rename")
        let reference = try XCTUnwrap(plan.schemas.last)
        let hashes = try XCTUnwrap(plan.entityHashes[reference])
        let same = AppleOracle.Reading(checksum: plan.checksums[reference] ?? "", entities: hashes)
        XCTAssertEqual(AppleOracle.differences(same, from: plan, at: reference, named: "V3").lines, [])
        var other = same
        other.entities["Badge"] = String(repeating: "0", count: 64)
        other.entities["Extra"] = String(repeating: "1", count: 64)
        other.checksum = "x"
        let found = AppleOracle.differences(other, from: plan, at: reference, named: "V3").lines
        XCTAssertEqual(found.count, 3, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("V3 Badge: Apple 0000") }, "\(found)")
        XCTAssertTrue(found.contains { $0.contains("Extra: Apple 1111") && $0.hasSuffix("expected no such entity") })
        let parsed = AppleOracle.Reading(probeOutput: "checksum abc=\nentity Badge \(hashes["Badge"] ?? "")\n")
        XCTAssertEqual(parsed?.checksum, "abc=")
        XCTAssertEqual(parsed?.entities, ["Badge": hashes["Badge"] ?? ""])
        XCTAssertNil(AppleOracle.Reading(probeOutput: "no oracle: SwiftData's Core Data overlay is not in this SDK\n"))
    }

    /// Everything the probe runs but the overlay's call type-checks against Apple's SDK here, with
    /// a golden's generated code, as it will be compiled on a Mac.
    func testTheProbeTypeChecksAgainstApplesSDK() throws {
        let sdk = try AppleSDK.ready(.iOS17)
        let folder = GoldenTests.folder("plan-model-rename").appendingPathComponent("expected")
        let files = try AppleSDKTypeCheckTests.swiftFiles(in: folder).filter {
            !AppleSDKTypeCheckTests.isUpgradeTest($0)
        }
        let (_, names) = try Self.plan(of: "plan-model-rename")
        let probe = try AppleSDK.scratchFolder("oracle").appendingPathComponent("AppleOracleProbe.swift")
        try AppleOracle.probe(schemas: "\(names.migrationPlan).schemas").write(
            to: probe, atomically: true, encoding: .utf8)
        let result = try sdk.typeCheck(files + [probe.path], floor: 17, extraFlags: ["-parse-as-library"])
        XCTAssertEqual(result.status, 0, result.output)
    }

    /// On a Mac: every golden's generated schemas, built by Apple's own SwiftData, have the entity
    /// hashes and checksum the generator computes. Elsewhere it skips, saying why; the workflow's
    /// macOS job sets `SDG_REQUIRE_APPLE_ORACLE=1`, which turns a skip into a failure.
    func testAppleHashesEveryGoldenAsTheGeneratorDoes() throws {
        #if os(macOS)
            var checked = 0
            var failures: [String] = []
            let host = ProcessInfo.processInfo.operatingSystemVersion.majorVersion
            for golden in GoldenTests.caseNames {
                let folder = GoldenTests.folder(golden)
                let generated = try AppleSDKTypeCheckTests.swiftFiles(in: folder.appendingPathComponent("expected"))
                    .filter { !AppleSDKTypeCheckTests.isUpgradeTest($0) }
                guard !generated.isEmpty else { continue }
                // The hooks a plan calls, where the golden holds them, as the SDK type-check compiles them.
                let files =
                    generated + (try AppleSDKTypeCheckTests.swiftFiles(in: folder.appendingPathComponent("hooks")))
                let floor = try AppleSDKTypeCheckTests.iOSFloor(
                    ofInput: folder.appendingPathComponent("input").resolvingSymlinksInPath().path)
                let macOS = floor >= 26 ? floor : floor - 3
                guard macOS <= host else {
                    print("apple-oracle: \(golden) needs macOS \(macOS), this Mac runs \(host): not checked")
                    continue
                }
                let (plan, names) = try Self.plan(of: golden)
                let work = try AppleSDK.scratchFolder("oracle-\(checked)")
                let probe = work.appendingPathComponent("AppleOracleProbe.swift")
                try AppleOracle.probe(schemas: "\(names.migrationPlan).schemas").write(
                    to: probe, atomically: true, encoding: .utf8)
                let binary = work.appendingPathComponent("probe").path
                let arch = ProcessInfo.processInfo.machineHardwareName
                let compile = try StandInTypeCheckTests.runTool(
                    [
                        "xcrun", "swiftc", "-swift-version", "6", "-parse-as-library", "-package-name", "Oracle",
                        "-target",
                        "\(arch)-apple-macosx\(macOS).0", "-o", binary,
                    ] + files + [probe.path])
                guard compile.status == 0 else {
                    failures.append("\(golden) does not build with Apple's SwiftData:\n\(compile.output)")
                    continue
                }
                for (index, reference) in plan.schemas.enumerated() {
                    let run = try StandInTypeCheckTests.run(binary, ["\(index)"])
                    guard run.status == 0, let apple = AppleOracle.Reading(probeOutput: run.output) else {
                        failures.append("\(golden) schema \(index): the probe said \(run.output)")
                        continue
                    }
                    let name: String
                    switch reference {
                    case .version(let number): name = "\(golden) \(names.versionedSchema(number))"
                    case .bridge(let number): name = "\(golden) \(names.bridge(into: number))"
                    }
                    let found = AppleOracle.differences(apple, from: plan, at: reference, named: name)
                    failures += found.lines
                    if found.lines.isEmpty, found.reading != "primary" {
                        print("apple-oracle: \(name) matches the paired reading")
                    }
                }
                checked += 1
            }
            XCTAssertEqual(failures, [], "Apple's model and the generator's identity differ")
            XCTAssertGreaterThanOrEqual(checked, 25, "goldens checked by Apple's model")
            print("apple-oracle: \(checked) goldens, every schema's entity hashes and checksum compared with Apple's")
        #else
            let required = ProcessInfo.processInfo.environment["SDG_REQUIRE_APPLE_ORACLE"] == "1"
            let reason =
                "Apple's makeManagedObjectModel exists only where SwiftData does: run SDG_REQUIRE_APPLE_ORACLE=1 "
                + "swift test --filter AppleOracleTests on a Mac with Xcode (the workflow's macOS job does)"
            if required { XCTFail(reason) }
            throw XCTSkip(reason)
        #endif
    }
}

#if os(macOS)
    extension ProcessInfo {
        /// `arm64` or `x86_64`, for `-target`.
        fileprivate var machineHardwareName: String {
            var system = utsname()
            uname(&system)
            return withUnsafeBytes(of: &system.machine) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
    }
#endif
