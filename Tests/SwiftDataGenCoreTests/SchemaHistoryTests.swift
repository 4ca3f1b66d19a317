import XCTest

@testable import SwiftDataGenCore

final class SchemaHistoryTests: XCTestCase {
    private func model(_ name: String) -> ModelDecl {
        ModelDecl(
            name: name, renamedFrom: nil, dedupe: nil, superclass: nil, properties: [], uniqueGroups: [],
            indexGroups: [], doc: nil,
            location: SourceLocation(file: "v.yaml", line: 1, column: 1))
    }

    func testModelLookupStaysRightAfterTheModelsChange() {
        var version = SchemaVersion(
            version: SemanticVersion(1, 0, 0), file: "v.yaml",
            location: SourceLocation(file: "v.yaml", line: 1, column: 1),
            enums: [], models: [model("A"), model("B")])
        XCTAssertEqual(version.model(named: "B")?.name, "B")
        version.models.append(model("C"))
        XCTAssertEqual(version.model(named: "C")?.name, "C")
        version.models.removeFirst()
        XCTAssertEqual(version.model(named: "B")?.name, "B")
        XCTAssertNil(version.model(named: "A"))
        version.models[0].name = "D"
        XCTAssertNil(version.model(named: "B"))
        XCTAssertEqual(version.model(named: "D")?.name, "D")
    }

    func testLocationsCompareByFileNameThenPosition() {
        let early = SourceLocation(file: "b.yaml", line: 9, column: 1)
        let late = SourceLocation(file: "a.yaml", line: 20, column: 1)
        XCTAssertLessThan(late, early)
        XCTAssertLessThan(
            SourceLocation(file: "a.yaml", line: 2, column: 5), SourceLocation(file: "a.yaml", line: 2, column: 6))
        XCTAssertEqual(
            SourceLocation(file: "a.yaml", line: 2, column: 5), SourceLocation(file: "a.yaml", line: 2, column: 5))
        XCTAssertEqual(early.file, "b.yaml")
        XCTAssertEqual(early.description, "b.yaml:9:1")
    }

    /// `ScalarType.named` answers as `init(rawValue:)` does: every case, near misses, names longer
    /// than any case, and names that are not ASCII (one canonically equal to ASCII among them).
    func testScalarTypeByNameAgreesWithRawValues() {
        var names = ScalarType.allCases.map(\.rawValue)
        names += ["", "S", "Str", "string", "STRING", "Int1", "Int128", "UInt6", "UInt640", "Decimals", "Decima"]
        names += ["TimeInterval", "CGFloat", "Strings", "Dat", "Datum", "URLs", "UUIDs", "Float80", "Double?"]
        names += ["Int\u{0}", "Str\u{E9}ng", "\u{212A}ey", "Bo\u{301}ol", "Dat\u{0061}", "Int\u{1F600}"]
        for prefix in ["", " ", "_"] {
            names += ScalarType.allCases.map { prefix + $0.rawValue + (prefix.isEmpty ? "X" : "") }
        }
        for name in names {
            XCTAssertEqual(ScalarType.named(name), ScalarType(rawValue: name), "\(name.debugDescription)")
        }
        XCTAssertEqual(ScalarType.named("Decimal"), .decimal)
        XCTAssertNil(ScalarType.named("Int8 "))
    }

    /// A type's spelling parses to its parts, bare names and `Name?` by the short way included.
    func testTypeSpellingsParse() {
        let cases: [(String, TypeSpelling?)] = [
            ("String", TypeSpelling(name: "String")),
            ("String?", TypeSpelling(name: "String", isOptional: true)),
            (" String ", TypeSpelling(name: "String")),
            ("String ?", nil),
            ("[Tag]", TypeSpelling(name: "Tag", isArray: true)),
            ("[ Tag ]?", TypeSpelling(name: "Tag", isArray: true, isOptional: true)),
            ("[String: Int]?", TypeSpelling(name: "Int", isOptional: true, dictionaryKey: "String")),
            ("Int??", nil), ("?", nil), ("", nil), ("9Lives", nil), ("Caf\u{E9}", nil), ("Optional<Int>", nil),
            ("_private?", TypeSpelling(name: "_private", isOptional: true)),
            (
                String(repeating: "a", count: 128) + "?",
                TypeSpelling(name: String(repeating: "a", count: 128), isOptional: true)
            ),
            (String(repeating: "a", count: 129), nil),
        ]
        for (raw, expected) in cases {
            XCTAssertEqual(TypeSpelling(parsing: raw), expected, raw.debugDescription)
        }
    }
}
