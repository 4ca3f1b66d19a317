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

    private func update(_ files: [GeneratedFile]) -> FolderUpdate {
        var update = FolderUpdate(directory: folder, owner: "../Schema", mode: .write)
        for file in files { update.add(file) }
        _ = update.finish()
        return update
    }

    private func write(_ files: [GeneratedFile]) -> [Diagnostic] {
        var updates = [update(files)]
        return FolderUpdate.commit(&updates)
    }

    func testAFailedReplaceRestoresEveryFile() throws {
        XCTAssertEqual(write([file("A.swift", "one\n"), file("B.swift", "one\n"), file("C.swift", "one\n")]), [])
        // A and C are staged, B is to go; then a folder appears where C is, so the replace of C
        // fails after A is in place.
        var updates = [update([file("A.swift", "two\n"), file("C.swift", "two\n")])]
        XCTAssertEqual(updates[0].changed, ["A.swift", "C.swift", "B.swift"])
        try FileManager.default.removeItem(atPath: folder + "/C.swift")
        try FileManager.default.createDirectory(atPath: folder + "/C.swift/inside", withIntermediateDirectories: true)
        let problems = FolderUpdate.commit(&updates)
        XCTAssertEqual(problems.map(\.code), [.outputWriteFailed])
        XCTAssertTrue(problems.first?.message.contains("put back") == true, problems.first?.message ?? "")
        XCTAssertEqual(try String(contentsOfFile: folder + "/A.swift", encoding: .utf8), "one\n", "A is restored")
        XCTAssertEqual(try String(contentsOfFile: folder + "/B.swift", encoding: .utf8), "one\n", "B was not removed")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter(OutputWriter.isLeftover)
        XCTAssertEqual(left, [], "nothing staged is left behind")
    }

    /// Two folders are one step: when the second cannot be written, the first is put back.
    func testAFailureInOneFolderPutsBackTheOther() throws {
        let second = folder + "/Tests"
        XCTAssertEqual(write([file("A.swift", "one\n")]), [])
        var first = FolderUpdate(directory: folder, owner: "../Schema", mode: .write)
        first.add(file("A.swift", "two\n"))
        _ = first.finish()
        var other = FolderUpdate(directory: second, owner: "../../Schema", mode: .write)
        other.add(file("T.swift", "t\n"))
        _ = other.finish()
        // The staged file of the second folder disappears before the swap.
        for name in try FileManager.default.contentsOfDirectory(atPath: second) where OutputWriter.isLeftover(name) {
            try FileManager.default.removeItem(atPath: second + "/" + name)
        }
        var updates = [first, other]
        XCTAssertEqual(FolderUpdate.commit(&updates).map(\.code), [.outputWriteFailed])
        XCTAssertEqual(
            try String(contentsOfFile: folder + "/A.swift", encoding: .utf8), "one\n", "the first folder is put back")
        XCTAssertFalse(FileManager.default.fileExists(atPath: second), "the folder the step made is gone again")
    }

    func testAFolderInTheWayIsAConflictBeforeAnyWrite() throws {
        try FileManager.default.createDirectory(atPath: folder + "/B.swift", withIntermediateDirectories: true)
        var updates = [update([file("A.swift", "a\n"), file("B.swift", "b\n")])]
        XCTAssertEqual(updates[0].problems.map(\.code), [.outputNotOwned])
        XCTAssertEqual(FolderUpdate.commit(&updates).map(\.code), [.outputNotOwned])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/A.swift"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter(OutputWriter.isLeftover), [],
            "what was staged is gone")
    }

    func testTheManifestOwnerIsRelativeToTheOutputFolder() {
        XCTAssertEqual(
            OutputWriter.owner(schema: "/r/Sources/App/Schema", output: "/r/Generated"), "../Sources/App/Schema")
        XCTAssertEqual(OutputWriter.owner(schema: "/r/Schema", output: "/r/Schema/Out"), "..")
        XCTAssertEqual(
            OutputManifest(parsing: OutputManifest(files: ["../S": ["A.swift", "B.swift"]]).text),
            OutputManifest(files: ["../S": ["A.swift", "B.swift"]]))
        XCTAssertNil(
            OutputManifest(parsing: "owner x\n  ../escape.swift\n"), "a manifest never names a file outside its folder")
    }

    /// A manifest reads back what it wrote, whatever the names hold; reads alike after a
    /// checkout turned its line ends into CRLF; and gives every run the same owner of a file a
    /// hand edit listed twice.
    func testTheManifestReadsBackWhatItWrites() throws {
        let names: Set<String> = ["A.swift", "new\nline.swift", "back\\slash.swift", "tab\t.swift", "ends\r.swift"]
        let manifest = OutputManifest(files: ["../Schema": names, "../Other\nFolder": ["B.swift"]])
        XCTAssertEqual(OutputManifest(parsing: manifest.text), manifest)
        XCTAssertEqual(
            manifest.text.components(separatedBy: "\n").count, 1 + 2 + names.count + 1 + 1, "one line per name")
        XCTAssertEqual(OutputManifest(parsing: manifest.text.replacingOccurrences(of: "\n", with: "\r\n")), manifest)
        let twice = try XCTUnwrap(OutputManifest(parsing: "owner b\n  X.swift\nowner a\n  X.swift\n"))
        for _ in 0..<20 { XCTAssertEqual(twice.owner(of: "X.swift"), "a") }
        XCTAssertEqual(twice.otherOwners(of: "X.swift"), ["b"])
        XCTAssertNil(OutputManifest(parsing: "owner a\n  bad\\escape.swift\n"))
    }
}
