import Foundation
import XCTest

@testable import SwiftDataGenCore

/// A folder's writes are one step: when one file cannot be put in place, every file is as it was
/// and nothing the step made is left behind.
final class OutputWriterTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-writer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func file(_ name: String, _ contents: String) -> GeneratedFile {
        GeneratedFile(name: name, contents: contents, role: .migrationPlan(schema: "A"))
    }

    private func write(_ files: [GeneratedFile]) throws -> [Diagnostic] {
        let (changes, conflicts) = OutputWriter.changes(for: files, in: folder, owner: "../Schema")
        XCTAssertEqual(conflicts, [])
        return OutputWriter.apply(try XCTUnwrap(changes), in: folder)
    }

    func testAFailedReplaceRestoresEveryFile() throws {
        XCTAssertEqual(try write([file("A.swift", "one\n"), file("B.swift", "one\n"), file("C.swift", "one\n")]), [])
        // A folder where the manifest says a file is: the replace of C fails after A is in place.
        try FileManager.default.removeItem(atPath: folder + "/C.swift")
        try FileManager.default.createDirectory(atPath: folder + "/C.swift/inside", withIntermediateDirectories: true)
        var changes = OutputChanges(
            changes: [.init(name: "A.swift", old: "one\n", new: "two\n"), .init(name: "C.swift", old: "one\n", new: "two\n"), .init(name: "B.swift", old: "one\n", new: nil)],
            unchanged: [], oldManifest: nil, newManifest: "")
        changes.oldManifest = try String(contentsOfFile: folder + "/" + OutputManifest.fileName, encoding: .utf8)
        changes.newManifest = changes.oldManifest ?? ""
        let problems = OutputWriter.apply(changes, in: folder)
        XCTAssertEqual(problems.map(\.code), [.outputWriteFailed])
        XCTAssertTrue(problems.first?.message.contains("put back") == true, problems.first?.message ?? "")
        XCTAssertEqual(try String(contentsOfFile: folder + "/A.swift", encoding: .utf8), "one\n", "A is restored")
        XCTAssertEqual(try String(contentsOfFile: folder + "/B.swift", encoding: .utf8), "one\n", "B was not removed")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter(OutputWriter.isLeftover)
        XCTAssertEqual(left, [], "nothing staged is left behind")
    }

    func testAFolderInTheWayIsAConflictBeforeAnyWrite() throws {
        try FileManager.default.createDirectory(atPath: folder + "/B.swift", withIntermediateDirectories: true)
        let (changes, conflicts) = OutputWriter.changes(for: [file("A.swift", "a\n"), file("B.swift", "b\n")], in: folder, owner: "../Schema")
        XCTAssertNil(changes)
        XCTAssertEqual(conflicts.map(\.code), [.outputNotOwned])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/A.swift"))
    }

    func testTheManifestOwnerIsRelativeToTheOutputFolder() {
        XCTAssertEqual(OutputWriter.owner(schema: "/r/Sources/App/Schema", output: "/r/Generated"), "../Sources/App/Schema")
        XCTAssertEqual(OutputWriter.owner(schema: "/r/Schema", output: "/r/Schema/Out"), "..")
        XCTAssertEqual(OutputManifest(parsing: OutputManifest(files: ["../S": ["A.swift", "B.swift"]]).text), OutputManifest(files: ["../S": ["A.swift", "B.swift"]]))
        XCTAssertNil(OutputManifest(parsing: "owner x\n  ../escape.swift\n"), "a manifest never names a file outside its folder")
    }
}
