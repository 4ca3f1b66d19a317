import Foundation
import SwiftDataGenCore
import XCTest

/// The importer commands the documentation shows (a fenced shell block's `swift run --package-path
/// Importer swiftdata-gen-import …` line) run with the built importer: the page's example paths
/// stand for a fixture of the same kind, the output goes to a fresh folder, and what is written
/// must validate with the generator.
final class DocumentedCommandTests: XCTestCase {
    static let prefix = "swift run --package-path Importer swiftdata-gen-import "
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func testEveryDocumentedImportRuns() throws {
        let articles = Self.packageRoot.appendingPathComponent("Sources/swiftdata-gen/SwiftDataGen.docc/Articles")
        var lines: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: articles.path).sorted() {
            let text = try String(contentsOf: articles.appendingPathComponent(name), encoding: .utf8)
            for block in text.matches(of: /```sh\n([\s\S]*?)```/) {
                lines += block.1.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    $0.hasPrefix(Self.prefix)
                }
            }
        }
        XCTAssertGreaterThanOrEqual(lines.count, 2, "the documentation lost its import commands")
        let fixtures = RoundTripTests.fixtures
        var stores = 0
        let executables = Bundle.main.executableURL!.deletingLastPathComponent()
        for line in lines {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sdg-doc-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            var arguments = line.dropFirst(Self.prefix.count).split(separator: " ").map(String.init)
            let output = work.appendingPathComponent("Schema").path
            // A store stands for one made at the latest version of a history of the same kind.
            let inspectsStore = arguments.first == "store"
            if inspectsStore {
                try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                let store = work.appendingPathComponent("default.store").path
                try StoreInspectionTests.writeStore(
                    at: store, StoreInspectionTests.version2, hashes: try StoreInspectionTests.hashes(ofVersion: 2))
                arguments[1] = store
            }
            for index in arguments.indices where !inspectsStore || index > 1 {
                if index > 0, arguments[index - 1] == "--schema", inspectsStore {
                    arguments[index] = try StoreInspectionTests.writeHistory(in: work.appendingPathComponent("History"))
                } else if index > 0, arguments[index - 1] == "--output" {
                    arguments[index] = output
                } else if arguments[index].hasSuffix(".xcdatamodeld") {
                    arguments[index] = fixtures.appendingPathComponent("CoreData/Catalog/Catalog.xcdatamodeld").path
                } else if !arguments[index].hasPrefix("-"), index == 0 || !arguments[index - 1].hasPrefix("-") {
                    arguments[index] = fixtures.appendingPathComponent("Fleet").path
                }
            }
            let imported = try RoundTripTests.run(
                executables.appendingPathComponent("swiftdata-gen-import").path, arguments)
            XCTAssertEqual(imported.status, 0, "'\(line)' failed:\n\(imported.output)")
            if inspectsStore && !arguments.contains("--output") {
                stores += 1
                continue
            }
            let validation = Generator.validate(try SchemaLoader.read(directory: output).get()).diagnostics
            XCTAssertFalse(
                validation.hasErrors,
                "what '\(line)' wrote does not validate:\n" + validation.map(\.rendered).joined(separator: "\n"))
        }
        XCTAssertGreaterThanOrEqual(stores, 1, "the documentation lost its store inspection")
    }

    /// Every option of the importer's help, and its `store` command, is in the command line
    /// reference's importer section.
    func testTheCommandLineReferenceNamesEveryImporterOption() throws {
        let page = try String(
            contentsOf: Self.packageRoot.appendingPathComponent(
                "Sources/swiftdata-gen/SwiftDataGen.docc/Reference/CommandLineReference.md"), encoding: .utf8)
        let start = try XCTUnwrap(page.range(of: "## The importer")).upperBound
        let section = String(page[start...]).components(separatedBy: "\n## ").first ?? ""
        let executables = Bundle.main.executableURL!.deletingLastPathComponent()
        let help = try RoundTripTests.run(executables.appendingPathComponent("swiftdata-gen-import").path, ["--help"])
        XCTAssertEqual(help.status, 0)
        let options = Set(help.output.matches(of: /--[a-z][a-z-]+/).map { String($0.output) }).subtracting(["--help"])
        XCTAssertGreaterThanOrEqual(options.count, 5)
        for option in options.sorted() {
            XCTAssertTrue(
                section.contains(option), "swiftdata-gen-import \(option) is not in the command line reference")
        }
        XCTAssertTrue(section.contains("swiftdata-gen-import store"))
    }
}
