import Foundation
import SwiftDataGenCore
import XCTest

@testable import SwiftDataGenImport

/// The proof by Apple's SwiftData, driven through a toolchain that stands in for `xcrun swiftc`:
/// it records what each side's probe lists and prints the readings a Mac would. The real one runs
/// only on a Mac (`AppleProof.xcode`); what it decides from the readings is tested here.
final class AppleProofTests: XCTestCase {
    private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "apple-proof-\(ProcessInfo.processInfo.processIdentifier)")

    override func tearDown() {
        try? FileManager.default.removeItem(at: scratch)
        super.tearDown()
    }

    /// Readings per side, by the probe's binary name; `appError` makes the app's files fail to build.
    private func toolchain(
        app: [String], generated: [String], appError: String? = nil, probes: Probes = Probes()
    ) -> AppleProof.Toolchain {
        AppleProof.Toolchain(
            compile: { files, binary in
                if let probe = files.last { probes.record(binary, try String(contentsOfFile: probe, encoding: .utf8)) }
                if binary.hasSuffix("app-probe"), let appError { return (1, "warning: x\n\(appError)\nmore\n") }
                return (0, "")
            },
            run: { binary, arguments in
                let index = Int(arguments.first ?? "") ?? -1
                let outputs = binary.hasSuffix("app-probe") ? app : generated
                guard outputs.indices.contains(index) else { return (2, "no schema \(index)") }
                return outputs[index] == "none" ? (AppleOracle.noOracleStatus, "no oracle") : (0, outputs[index])
            })
    }

    /// The probes' sources, by binary.
    private final class Probes: @unchecked Sendable {
        private let lock = NSLock()
        private var sources: [String: String] = [:]
        func record(_ binary: String, _ source: String) { lock.withLock { sources[binary] = source } }
        func source(endingWith suffix: String) -> String? {
            lock.withLock { sources.first { $0.key.hasSuffix(suffix) }?.value }
        }
    }

    private let sides = (
        app: AppleProof.Side(files: ["/app/Schema.swift"], schemas: ["Schemas.V1", "Schemas.V2"]),
        generated: AppleProof.Side(files: ["/gen/AppSchemaV1.swift"], schemas: ["AppSchemaV1", "AppSchemaV2"])
    )

    private func reading(_ item: String, checksum: String = "c=") -> String {
        "checksum \(checksum)\nentity Item \(item)\nentity Tag 00ff\n"
    }

    func testTheSameHashesOnBothSidesProveTheImport() {
        let probes = Probes()
        let outcome = AppleProof.prove(
            app: sides.app, generated: sides.generated,
            // The checksums may differ (a modifier the generator adds); the entities may not.
            toolchain: toolchain(
                app: [reading("aa"), reading("bb")], generated: [reading("aa", checksum: "d="), reading("bb")],
                probes: probes),
            scratch: scratch)
        XCTAssertEqual(outcome, .proved(versions: 2))
        XCTAssertTrue(outcome.summary.hasPrefix("proved by Apple's SwiftData"), outcome.summary)
        XCTAssertTrue(
            probes.source(endingWith: "app-probe")?.contains("= [Schemas.V1.self, Schemas.V2.self]") == true,
            "the app's probe lists the app's schemas")
        XCTAssertTrue(
            probes.source(endingWith: "generated-probe")?.contains("= [AppSchemaV1.self, AppSchemaV2.self]") == true)
    }

    func testAnEntityApplesModelHashesOtherwiseFailsTheProof() {
        let outcome = AppleProof.prove(
            app: sides.app, generated: sides.generated,
            toolchain: toolchain(app: [reading("aa"), reading("bb")], generated: [reading("aa"), reading("cc")]),
            scratch: scratch)
        guard case .differs(let lines) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(lines, ["version 2 (Schemas.V2) Item: Apple cc, expected bb"])
    }

    func testAppFilesThatDoNotCompileAloneLeaveTheProofByReadingWithTheFirstError() {
        let outcome = AppleProof.prove(
            app: sides.app, generated: sides.generated,
            toolchain: toolchain(
                app: [], generated: [],
                appError: "/app/View.swift:3:8: error: cannot find type 'View' in scope"),
            scratch: scratch)
        XCTAssertEqual(
            outcome,
            .readingOnly(
                why: "the app schema files do not compile on their own: /app/View.swift:3:8: error: cannot find "
                    + "type 'View' in scope"))
        XCTAssertTrue(outcome.summary.hasPrefix("proved by the importer's reading only ("), outcome.summary)
    }

    func testAnSDKWithoutTheOverlayLeavesTheProofByReading() {
        let outcome = AppleProof.prove(
            app: sides.app, generated: sides.generated,
            toolchain: toolchain(app: ["none", "none"], generated: []), scratch: scratch)
        XCTAssertEqual(outcome, .readingOnly(why: "this SDK has no SwiftData Core Data overlay"))
    }

    func testOnlyAMacHasTheToolchain() {
        #if os(macOS)
            XCTAssertNotNil(AppleProof.xcode)
        #else
            XCTAssertNil(AppleProof.xcode)
        #endif
    }
}
