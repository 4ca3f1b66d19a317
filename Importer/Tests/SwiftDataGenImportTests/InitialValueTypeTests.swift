import Foundation
import XCTest

@testable import SwiftDataGenImport

/// A stored property written without a type takes the one Swift gives its initial value; where
/// that could be another type (a failable initializer, a conversion, a function), it is not guessed.
final class InitialValueTypeTests: XCTestCase {
    private func imported(_ members: String) throws -> (yaml: String, notes: [String]) {
        let source =
            "import SwiftData\nimport Foundation\n\n@Model final class Shelf {\n" + members + "    init() {}\n}\n"
        let translated = HistoryTranslator.translate(try extracted(source, file: "Shelf.swift"))
        return (translated.files.map(\.text).joined(), translated.notes.map(\.message))
    }

    func testUntypedInitialValuesAreTypedAsSwiftTypesThem() throws {
        let (yaml, _) = try imported(
            "    var opened = Date()\n    var id = UUID()\n    var seen = Date.now\n    var old = Date.distantPast\n"
                + "    var tags = [String]()\n    var scores = [String: Int]()\n    var when = Date(timeIntervalSince1970: 0)\n"
        )
        for line in [
            "opened: { type: Date, expression: \"Date()\" }", "id: { type: UUID, expression: \"UUID()\" }",
            "seen: { type: Date, expression: Date.now }", "old: { type: Date, expression: Date.distantPast }",
            "tags: { type: \"[String]\"", "when: { type: Date, expression: \"Date(timeIntervalSince1970: 0)\" }",
        ] {
            XCTAssertTrue(yaml.contains(line), "no '\(line)' in:\n\(yaml)")
        }
    }

    func testAValueThatCouldBeAnotherTypeIsNotGuessed() throws {
        for member in [
            "    var link = URL(string: \"https://a.b\")\n", "    var count = Int(\"3\")\n",
            "    var made = makeShelfName()\n",
        ] {
            let (_, notes) = try imported(member)
            XCTAssertTrue(notes.contains { $0.contains("has no type the importer can read") }, "\(member): \(notes)")
        }
    }
}
