import Foundation
import XCTest

@testable import SwiftDataGenCore

/// `PlanReport`'s JSON as Foundation would encode it; the report writes its JSON itself so that
/// the tool need not import Foundation, and this mirror holds it to what earlier releases printed.
struct EncodedPlanReport: Codable, Equatable {
    struct Step: Codable, Equatable {
        var schema, from, to: String
        var changes, stages, generated, rowWalks, teamMustWrite, carriedFromApp, dataLoss: [String]
    }

    struct Schema: Codable, Equatable {
        var schema, name, version, checksum: String
        var pairedChecksum: String?
        var entityHashes: [String: String]
        var pairedEntityHashes: [String: String]?
    }

    var schemas: [Schema]
    var steps: [Step]
    var unprovedMappings: [String]

    init(_ report: PlanReport) {
        schemas = report.schemas.map {
            Schema(
                schema: $0.schema, name: $0.name, version: $0.version, checksum: $0.checksum,
                pairedChecksum: $0.pairedChecksum, entityHashes: $0.entityHashes,
                pairedEntityHashes: $0.pairedEntityHashes)
        }
        steps = report.steps.map {
            Step(
                schema: $0.schema, from: $0.from, to: $0.to, changes: $0.changes, stages: $0.stages,
                generated: $0.generated, rowWalks: $0.rowWalks, teamMustWrite: $0.teamMustWrite,
                carriedFromApp: $0.carriedFromApp, dataLoss: $0.dataLoss)
        }
        unprovedMappings = report.unprovedMappings
    }

    var foundationJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "") + "\n"
    }
}

extension PlanReport {
    init(steps: [Step]) {
        self.init(histories: [])
        self.steps = steps
    }
}

final class PlanReportTests: XCTestCase {
    func testJSONIsWhatFoundationWritesForEveryCharacter() {
        let awkward = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }.joined() + "/é→\u{2028}\u{10FFFF}🦆"
        let steps = [
            PlanReport.Step(
                schema: "Trips", from: "1.0.0", to: "2.0.0", changes: [awkward, "\"quoted\" \\ back"],
                stages: ["lightweight 1.0.0 → 2.0.0"], generated: [], rowWalks: [], teamMustWrite: ["x"],
                carriedFromApp: [awkward], dataLoss: []),
            PlanReport.Step(
                schema: awkward, from: "", to: "\u{0}", changes: [], stages: [], generated: ["a", "b"],
                rowWalks: [awkward], teamMustWrite: [], dataLoss: ["loss"]),
        ]
        var withSchemas = PlanReport(steps: steps)
        withSchemas.schemas = [
            .init(schema: awkward, name: "T", version: "bridge 1.0.1", checksum: "a+/b="),
            .init(
                schema: "T", name: awkward, version: "2.0.0", checksum: "", pairedChecksum: "p/+=",
                entityHashes: [awkward: "00ff", "B": "11"], pairedEntityHashes: ["B": "22"]),
        ]
        withSchemas.unprovedMappings = [awkward, "Decimal"]
        for report in [PlanReport(steps: steps), PlanReport(steps: []), withSchemas] {
            XCTAssertEqual(report.json, EncodedPlanReport(report).foundationJSON)
        }
    }

    func testJSONOfAGoldenHistoryMatchesFoundation() throws {
        let report = PlanReport(histories: [try Self.history(of: "library")])
        XCTAssertFalse(report.steps.isEmpty)
        XCTAssertEqual(report.schemas.count, 8, "five versions and three bridges")
        XCTAssertEqual(report.json, EncodedPlanReport(report).foundationJSON)
    }

    /// Each step says which of its stages walk rows, and how: every generated walk is batched, and
    /// a didMigrate hook is said not to run again.
    func testEveryStepSaysWhichStagesWalkRowsAndHow() throws {
        for golden in ["library", "plan-hooks"] {
            let history = try Self.history(of: golden)
            let (plan, _) = MigrationPlanner.plan(history)
            let report = PlanReport(plans: [(history, plan)])
            for (step, reported) in zip(plan.steps, report.steps) {
                let actions = step.stages.flatMap(\.actions)
                XCTAssertEqual(reported.rowWalks.count, actions.count, "\(golden) \(step.from) → \(step.to)")
                for walk in reported.rowWalks where !walk.hasPrefix("hook ") {
                    XCTAssertTrue(walk.contains("\(MigrationPlan.batchSize) at a time"), walk)
                    XCTAssertTrue(walk.contains("finished by the next"), walk)
                }
                XCTAssertTrue(report.text.contains("row walks:"), report.text)
            }
        }
        let library = PlanReport(histories: [try Self.history(of: "library")])
        XCTAssertEqual(library.steps.map(\.rowWalks.count), [1, 1, 1, 2])
        let hooks = PlanReport(histories: [try Self.history(of: "plan-hooks")])
        XCTAssertTrue(
            hooks.steps.flatMap(\.rowWalks).contains { $0.contains("in didMigrate, which is not run again") },
            "\(hooks.steps.map(\.rowWalks))")
    }

    /// A golden's history, validated.
    private static func history(of golden: String) throws -> SchemaHistory {
        let input = GoldenTests.goldenRoot.appendingPathComponent("\(golden)/input").resolvingSymlinksInPath().path
        return try XCTUnwrap(Generator.validate(try SchemaLoader.read(directory: input).get()).histories.first)
    }
}
