import Foundation
import XCTest

@testable import SwiftDataGenImport

/// Swift the importer could not read as the compiler does stops the import at its line: text the
/// parser skipped, a token it had to invent, and nesting past the limits it is bounded by.
final class HostileSourceTests: XCTestCase {
    /// The model file with `members` between its first line and its `init`.
    private func model(_ members: String) -> String {
        "import SwiftData\n\n@Model final class Shelf {\n" + members + "    init() {}\n}\n"
    }

    /// What reading `text` as a Swift file says: the loader's refusal, or the extractor's errors.
    private func errors(_ text: String) throws -> [String] {
        let said: [String]
        do {
            said = try extracted(text, file: "Shelf.swift").notes.filter(\.isError).map(\.description)
        } catch let refusal as SwiftSourceLoader.Failure {
            said = [refusal.description]
        }
        // The file's folder is a temporary one: its name as a reader sees it.
        return said.map { $0.replacing(/\S*\/Shelf\.swift/, with: "Shelf.swift") }
    }

    func testWhatTheParserSkippedStopsTheImportAtItsLine() throws {
        let conflict = try errors(
            model("<<<<<<< HEAD\n    var title: String = \"\"\n=======\n    var name: String = \"\"\n>>>>>>> b\n"))
        XCTAssertEqual(conflict.map { $0.prefix(16) }, ["Shelf.swift:4:1:"], "\(conflict)")
        let openString = try errors(model("    var title: String = \"open\n    var count: Int = 0\n"))
        XCTAssertTrue(openString.first?.hasPrefix("Shelf.swift:4:") == true, "\(openString)")
        XCTAssertFalse(
            try errors(model("    var title: String = \"\"\n    }}\n")).isEmpty, "a stray brace is read past")
        XCTAssertEqual(try errors(model("    var title: String = \"a(b[c{\"\n")), [], "brackets in a string")
    }

    /// Each size limit refuses a source just over it, before the parser sees it, at the place it is
    /// reached; just under, the source is read.
    func testSizeLimitsRefuseJustOverEach() throws {
        let filler = String(repeating: "// padding\n", count: ReadingBudget.swiftSourceBytes / 11)
        XCTAssertEqual(try errors(model("") + filler.prefix(ReadingBudget.swiftSourceBytes - 200)), [])
        let tooLarge = try errors(model("") + filler + String(repeating: "//\n", count: 200))
        XCTAssertTrue(
            tooLarge.first?.contains("more than the \(ReadingBudget.swiftSourceBytes)") == true, "\(tooLarge)")

        let symbols = { (count: Int) in "let x = [" + String(repeating: "1,", count: count / 2) + "0]\n" }
        XCTAssertEqual(try errors(model("") + symbols(ReadingBudget.swiftSourceTokens - 100)), [])
        let tooLong = try errors(model("") + symbols(ReadingBudget.swiftSourceTokens + 100))
        XCTAssertTrue(
            tooLong.first?.contains("more than \(ReadingBudget.swiftSourceTokens) tokens by here") == true, "\(tooLong)"
        )
        XCTAssertTrue(tooLong.first?.hasPrefix("Shelf.swift:6:") == true, "at the place: \(tooLong)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-total-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let part = String(filler.prefix(ReadingBudget.swiftSourceBytes - 100))
        for index in 0...(ReadingBudget.swiftSourcesTotalBytes / part.utf8.count) {
            try part.write(to: folder.appendingPathComponent("Part\(index).swift"), atomically: true, encoding: .utf8)
        }
        XCTAssertThrowsError(try SwiftSourceLoader.read([folder.path])) { error in
            XCTAssertTrue("\(error)".contains("more than \(ReadingBudget.swiftSourcesTotalBytes) bytes"), "\(error)")
        }
    }

    /// The command says notes and errors in one stream (standard error), in the order found, so an
    /// error's cause stands beside it in a log; standard output has only the result.
    func testNotesAndErrorsShareOneOrderedStream() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try model("    var title: String = \"\"\n    var shown: String { title }\n").write(
            to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        try model("<<<<<<< HEAD\n    var other: Int = 0\n=======\n>>>>>>> b\n").replacingOccurrences(
            of: "Shelf", with: "Rack"
        ).write(to: folder.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(
            "swiftdata-gen-import")
        process.arguments = [folder.path, "--output", folder.appendingPathComponent("out").path]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0)
        XCTAssertEqual(printed, "", "notes went to standard output")
        let lines = said.split(separator: "\n").map(String.init)
        let note = try XCTUnwrap(lines.firstIndex { $0.contains("A.swift:") && $0.contains(": note: ") }, said)
        let error = try XCTUnwrap(lines.firstIndex { $0.contains("B.swift:4:1: error:") }, said)
        XCTAssertLessThan(error, note, "the parse error is found first (files are read before models)")
        XCTAssertTrue(lines.last?.contains("nothing was written") == true, said)
    }

    /// A chain of typealiases, each naming the next, is followed 64 deep: a longer one is an error at
    /// the property, not a stack overflow (8 000 crashed) or a quadratic walk.
    func testATypealiasChainIsFollowedToALimit() throws {
        func chain(_ length: Int) -> String {
            "typealias A0 = Int\n" + (1...length).map { "typealias A\($0) = A\($0 - 1)\n" }.joined()
                + model("    var count: A\(length) = 0\n")
        }
        XCTAssertEqual(try errors(chain(5)), [])
        let refused = try errors(chain(2_000))
        XCTAssertEqual(refused.count, 1, "\(refused)")
        XCTAssertTrue(
            refused.first?.contains(":2005:9: error: Shelf.count's type goes through more than 64") == true,
            "\(refused)")
    }

    /// Square brackets: 12 deep is read, 13 is refused where the 13th opens (the parser's time on
    /// them doubled about every level: 16 took 4 s, 20 took 45 s). Any bracket: 256. `#if`: 64.
    func testNestingPastTheLimitsIsRefusedWhereItStarts() throws {
        func squares(_ depth: Int) -> String {
            model(
                "    var grid: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth)
                    + " = []\n")
        }
        XCTAssertEqual(try errors(squares(12)), [])
        let refused = try errors(squares(13))
        XCTAssertEqual(refused.count, 1, "\(refused)")
        XCTAssertTrue(refused.first?.hasPrefix("Shelf.swift:4:27: error: square brackets") == true, "\(refused)")

        let braces = String(repeating: "f { ", count: 257) + String(repeating: "} ", count: 257)
        XCTAssertTrue(
            try errors(model("") + "func g() { " + braces + "}\n").first?.contains(
                "brackets open here nest deeper "
                    + "than 256") == true)

        func conditionals(_ depth: Int) -> String {
            model(
                String(repeating: "#if A\n", count: depth) + "    var n: Int = 0\n"
                    + String(repeating: "#endif\n", count: depth))
        }
        XCTAssertTrue(try errors(conditionals(65)).first?.contains("#if blocks open here nest deeper than 64") == true)
    }
}
