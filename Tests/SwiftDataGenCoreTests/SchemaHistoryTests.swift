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
}
