import XCTest

@testable import SwiftDataGenCore

/// The drafts' YAML writer: whatever a name or a comment holds, the parser reads back exactly that
/// text, as a string, and a comment never adds a node.
final class YAMLTextTests: XCTestCase {
    func testEveryScalarReadsBackAsTheSameString() throws {
        var random = SeededRandom(state: 41)
        let samples =
            [
                "1.0.0", "10.2.33", "1.0", "2", "-1", "0x1F", "1e3", ".5", "true", "No", "y", "~", "null", "", " a",
                "a ",
                "a: b", "a #b", "- x", "[x]", "{x}", "&a", "*a", "!t", "|", ">", "%x", "@x", "`x", "'x'", "\"x\"",
                "Book.notes", "a..b", "y.n", "café", "ﬁle", "\u{FEFF}x", "\u{85}", "\u{2028}",
            ]
            + (0..<2_000).map { _ in Self.text(&random) }
        for text in samples {
            let written = YAMLText.scalar(text)
            let document = "key: \(written)\n"
            let (root, problems) = YAMLParser.parse(Array(document.utf8), file: "t.yaml")
            XCTAssertFalse(problems.hasErrors, "\(text.debugDescription) written as \(written) does not parse")
            guard case .mapping(let pairs)? = root?.content, pairs.count == 1, let scalar = pairs[0].value.scalar
            else { return XCTFail("\(text.debugDescription) written as \(written) is not one scalar") }
            XCTAssertEqual(scalar.value, text, "written as \(written)")
            // Inside a flow mapping, as the importer writes a property's keys.
            let flow = "key: { a: \(written), b: c }\n"
            let (flowRoot, flowProblems) = YAMLParser.parse(Array(flow.utf8), file: "t.yaml")
            XCTAssertFalse(flowProblems.hasErrors, "\(text.debugDescription) in a flow mapping does not parse")
            guard case .mapping(let outer)? = flowRoot?.content, case .mapping(let inner)? = outer.first?.value.content
            else { return XCTFail("\(text.debugDescription) in a flow mapping is not a mapping") }
            XCTAssertEqual(inner.map { $0.key.scalar?.value }, ["a", "b"], "\(written) added or lost a key")
            XCTAssertEqual(inner.first?.value.scalar?.value, text, "written as \(written) in a flow mapping")
            if scalar.isPlain {
                XCTAssertFalse(scalar.isNull, "\(written) reads as null")
                XCTAssertNil(Bool(scalar.value.lowercased()), "\(written) reads as a bool")
                XCTAssertNil(Double(scalar.value), "\(written) reads as a number")
            }
        }
        XCTAssertEqual(YAMLText.scalar("2.0.0"), "2.0.0", "a version number is written plain")
        XCTAssertEqual(YAMLText.scalar("Book.notes"), "Book.notes")
        XCTAssertEqual(YAMLText.scalar("1.0"), "\"1.0\"")
    }

    func testACommentStaysOneComment() throws {
        var random = SeededRandom(state: 7)
        for _ in 0..<2_000 {
            let text = Self.text(&random)
            let document = YAMLText.comment(text) + "\nkey: value\n"
            let (root, problems) = YAMLParser.parse(Array(document.utf8), file: "t.yaml")
            XCTAssertFalse(problems.hasErrors, "a comment of \(text.debugDescription) breaks the file")
            guard case .mapping(let pairs)? = root?.content else { return XCTFail("no mapping after \(document)") }
            XCTAssertEqual(
                pairs.map { $0.key.scalar?.value }, ["key"], "the comment of \(text.debugDescription) added YAML")
        }
    }

    /// Text a name from a store or a Swift source may hold: YAML's indicators, line breaks and
    /// other control characters, digits, dots, spaces, non-ASCII letters.
    private static func text(_ random: inout SeededRandom) -> String {
        let pool: [Unicode.Scalar] =
            (0..<0x80).compactMap(Unicode.Scalar.init) + [
                "é", "\u{301}", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "→", "🦆", "1", "0", ".", ".", "a", "N",
            ]
        let length = Int.random(in: 0...10, using: &random)
        var out = String.UnicodeScalarView()
        for _ in 0..<length { out.append(pool[Int.random(in: 0..<pool.count, using: &random)]) }
        return String(out)
    }
}
