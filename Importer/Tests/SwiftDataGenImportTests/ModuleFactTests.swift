import Foundation
import XCTest

@testable import SwiftDataGenImport

/// Facts of the module read as Swift has them: a declaration's access is bounded by its enclosing
/// types'.
final class ModuleFactTests: XCTestCase {
    private func config(_ source: String) throws -> String {
        let translated = HistoryTranslator.translate(try extracted(source, file: "Shelf.swift"))
        return translated.files.first { $0.name == "swiftdata-gen.yaml" }?.text ?? ""
    }

    private func schema(_ enumAccess: String, _ classAccess: String) -> String {
        "import SwiftData\n\n\(enumAccess)enum ShelfSchemaV1: VersionedSchema {\n"
            + "    \(enumAccess)static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }\n"
            + "    \(enumAccess)static var models: [any PersistentModel.Type] { [Shelf.self] }\n"
            + "    @Model \(classAccess)final class Shelf {\n        var name: String = \"\"\n        init() {}\n    }\n}\n"
    }

    /// The generated alias for the current version never takes a name the files read declare.
    func testTheCurrentAliasAvoidsANameTheAppDeclares() throws {
        let source = schema("", "") + "\nenum ShelfSchema {\n    static let title = \"Shelves\"\n}\n"
        let written = try config(source)
        XCTAssertTrue(written.contains("currentSchema: CurrentShelfSchema"), written)
        XCTAssertFalse(try config(schema("", "")).contains("currentSchema"), "no declaration in the way")
    }

    func testAPublicModelInAnInternalEnumIsInternal() throws {
        XCTAssertFalse(try config(schema("", "public ")).contains("access:"), "public inside internal is internal")
        XCTAssertTrue(try config(schema("public ", "public ")).contains("access: public"))
        XCTAssertFalse(try config(schema("public ", "")).contains("access:"), "an unwritten access is internal")
    }
}
