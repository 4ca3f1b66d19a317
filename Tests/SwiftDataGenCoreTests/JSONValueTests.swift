import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The tools' one JSON writer, held to what Foundation's `JSONEncoder` prints with the options
/// earlier releases used, over random documents.
final class JSONValueTests: XCTestCase {
    /// The same value as Foundation encodes it.
    private struct Encoded: Encodable {
        var value: JSONValue

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .bool(let flag): try container.encode(flag)
            case .null: try container.encodeNil()
            case .array(let items): try container.encode(items.map(Encoded.init))
            case .object(let members): try container.encode(members.mapValues(Encoded.init))
            }
        }
    }

    private func foundation(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Encoded(value: value)), as: UTF8.self) + "\n"
    }

    /// Text that a key or value from a store or a schema may hold: every ASCII character, control
    /// characters, mixed case and digits (the sort), combining marks, the line separators JSON
    /// allows raw, astral scalars.
    private func text(_ random: inout SeededRandom) -> String {
        let pool: [Unicode.Scalar] =
            (0..<0x80).compactMap(Unicode.Scalar.init) + [
                "é", "\u{301}", "\u{2028}", "\u{2029}", "ﬁ", "→", "\u{FFFF}",
                "\u{E000}", "🦆", "\u{10FFFF}", "Z", "a", "1", "9", "/",
            ]
        let length = Int.random(in: 0...8, using: &random)
        var out = String.UnicodeScalarView()
        for _ in 0..<length { out.append(pool[Int.random(in: 0..<pool.count, using: &random)]) }
        return String(out)
    }

    private func value(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &random) {
        case 0: return .string(text(&random))
        case 1:
            let edges = [Int.min, Int.max, 0, -1]
            return .integer(
                Bool.random(using: &random)
                    ? edges[Int.random(in: 0..<edges.count, using: &random)]
                    : Int.random(in: -1000...1000, using: &random))
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                members[text(&random)] = value(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    func testEveryRandomDocumentIsWhatFoundationPrints() throws {
        var random = SeededRandom(state: 0x5DA7_A6E4)
        for round in 0..<2000 {
            let document = value(&random, depth: 0)
            XCTAssertEqual(document.document, try foundation(document), "document \(round)")
        }
    }

    func testKeysSortByTheirBytesAndAbsentFieldsAreLeftOut() throws {
        let document = JSONValue.fields([
            "a9": .integer(1), "a10": .integer(2), "Z": .null, "a": .strings([]), "absent": nil, "é": .object([:]),
        ])
        XCTAssertEqual(document.document, try foundation(document))
        XCTAssertEqual(
            document.document,
            "{\n  \"Z\" : null,\n  \"a\" : [\n\n  ],\n  \"a10\" : 2,\n  \"a9\" : 1,\n  \"é\" : {\n\n  }\n}\n")
    }
}
