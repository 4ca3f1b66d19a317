import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Real apps' schema histories (Fixtures/Corpus/<owner>-<repo>): each is a golden case too, so
/// it generates byte for byte, type-checks without a warning and migrates in the simulator with
/// the goldens. Here: every app says where it comes from, and the corpus README's summary table
/// is what the histories and their SOURCE.md files say (re-record with SDG_RECORD_GOLDENS=1).
final class CorpusTests: XCTestCase {
    struct Row: Equatable {
        var app: String
        var versions: Int
        var models: Int
        var stored: Int
        var inexact: Int
        var steps: Int
        var agreeing: Int
    }

    static let readme = GoldenTests.corpusRoot.appendingPathComponent("README.md")
    static let tableStart = "<!-- summary: written by scripts/corpus-summary.sh (CorpusTests) -->"
    static let tableEnd = "<!-- end of summary -->"

    func testTheCorpusHoldsTwelveApps() {
        XCTAssertGreaterThanOrEqual(GoldenTests.corpusNames.count, 12)
    }

    func testEveryAppSaysWhereItComesFrom() throws {
        for name in GoldenTests.corpusNames {
            let source = try String(
                contentsOf: GoldenTests.folder(name).appendingPathComponent("SOURCE.md"), encoding: .utf8)
            let repository = Self.repository(in: source)
            XCTAssertEqual(
                repository.map { "corpus/" + $0.replacingOccurrences(of: "/", with: "-") }, name,
                "\(name): the folder is not named <owner>-<repo> of the repository SOURCE.md names")
            XCTAssertNotNil(source.firstMatch(of: /- Commit: [0-9a-f]{40}\n/), "\(name): SOURCE.md names no commit")
            XCTAssertTrue(source.contains("- Licence: "), "\(name): SOURCE.md says nothing of the licence")
            XCTAssertTrue(source.contains("- Files read: "), "\(name): SOURCE.md lists no files read")
            XCTAssertNotNil(Self.inexact(in: source), "\(name): SOURCE.md has no 'Inexact stored properties: N' line")
            XCTAssertTrue(
                source.contains("## Files read\n\n- `"),
                "\(name): SOURCE.md has no '## Files read' list for scripts/compare-import-checksums.sh to fetch")
            XCTAssertTrue(
                source.contains("- Checksums of the import: "),
                "\(name): SOURCE.md does not say what scripts/compare-import-checksums.sh found")
        }
    }

    /// Every step of every app is compared with the app's own plan, one row per step.
    func testEveryStepIsComparedWithTheAppsPlan() throws {
        for name in GoldenTests.corpusNames {
            let source = try String(
                contentsOf: GoldenTests.folder(name).appendingPathComponent("SOURCE.md"), encoding: .utf8)
            let history = try Self.history(name)
            let steps = zip(history.versions, history.versions.dropFirst()).map { "\($0.version) → \($1.version)" }
            XCTAssertEqual(
                Self.stageRows(in: source).map(\.step), steps,
                "\(name): the stages table of SOURCE.md must have a row per step")
        }
    }

    func testSummaryTableIsCurrent() throws {
        let rows = try GoldenTests.corpusNames.map(Self.row)
        let table = Self.table(rows)
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        guard let start = readme.range(of: Self.tableStart), let end = readme.range(of: Self.tableEnd) else {
            return XCTFail("Corpus/README.md has no summary markers")
        }
        let current = String(readme[start.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" {
            try readme.replacingCharacters(in: start.upperBound..<end.lowerBound, with: table).write(
                to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        XCTAssertEqual(current, table, "Corpus/README.md's summary is stale; run scripts/corpus-summary.sh")
    }

    static func history(_ name: String) throws -> SchemaHistory {
        let input = GoldenTests.folder(name).appendingPathComponent("input").path
        let sources = try SchemaLoader.read(directory: input).get()
        let validated = Generator.validate(sources)
        guard let history = validated.histories.first else { throw CorpusError.noHistory(name) }
        return history
    }

    static func row(_ name: String) throws -> Row {
        let source = try String(
            contentsOf: GoldenTests.folder(name).appendingPathComponent("SOURCE.md"), encoding: .utf8)
        let history = try history(name)
        let stored = history.versions.reduce(0) { sum, version in
            sum + version.models.reduce(0) { $0 + $1.properties.filter(\.isStored).count }
        }
        let stages = stageRows(in: source)
        return Row(
            app: repository(in: source) ?? name, versions: history.versions.count,
            models: history.latest?.models.count ?? 0, stored: stored, inexact: inexact(in: source) ?? 0,
            steps: stages.count,
            agreeing: stages.filter(\.agrees).count)
    }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "",
            "| app | versions | models (latest) | stored properties, all versions | expressed exactly | steps | "
                + "stages agreeing with the app's plan |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let total = row.stored + row.inexact
            lines.append(
                "| \(row.app) | \(row.versions) | \(row.models) | \(total) | \(row.stored) of \(total) | "
                    + "\(row.steps) | \(row.agreeing) of \(row.steps) |"
            )
        }
        let sum = { (field: KeyPath<Row, Int>) in rows.reduce(0) { $0 + $1[keyPath: field] } }
        let total = sum(\.stored) + sum(\.inexact)
        lines.append(
            "| **\(rows.count) apps** | \(sum(\.versions)) | \(sum(\.models)) | \(total) | \(sum(\.stored)) of "
                + "\(total) | \(sum(\.steps)) | \(sum(\.agreeing)) of \(sum(\.steps)) |"
        )
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// `owner/repo` of the line `- Repository: https://github.com/owner/repo`.
    static func repository(in source: String) -> String? {
        source.firstMatch(of: /- Repository: https:\/\/github\.com\/([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)\n/).map {
            String($0.1)
        }
    }

    static func inexact(in source: String) -> Int? {
        source.firstMatch(of: /- Inexact stored properties: ([0-9]+)/).flatMap { Int($0.1) }
    }

    /// Rows of the table under "## Stages": `| step | the app's plan | derived | agree | … |`.
    static func stageRows(in source: String) -> [(step: String, agrees: Bool)] {
        guard let section = source.range(of: "## Stages") else { return [] }
        return source[section.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }.compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > 5, cells[1].contains("→") else { return nil }
            return (cells[1], cells[4].lowercased().hasPrefix("yes"))
        }
    }

    enum CorpusError: Error {
        case noHistory(String)
    }
}
