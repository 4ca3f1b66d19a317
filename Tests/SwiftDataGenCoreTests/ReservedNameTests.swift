import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Every name the validator accepts compiles where the generator puts it. The candidates are not
/// a list of known troublemakers but every Swift keyword (declaration, statement, expression and
/// contextual) and every member that `PersistentModel`, `Hashable`, `Identifiable`,
/// `RawRepresentable`, `CaseIterable` and `VersionedSchema` bring; each position gets all of them
/// at once, and the generated output must type-check against the stand-in.
final class ReservedNameTests: XCTestCase {
    static let keywords = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "associativity", "async", "convenience", "didSet",
        "dynamic", "final", "get", "indirect", "infix", "lazy", "left", "mutating", "none", "nonmutating", "optional", "override",
        "postfix", "precedence", "prefix", "Protocol", "required", "right", "set", "some", "Type", "unowned", "weak", "willSet", "any",
        "each", "consume", "copy", "discard", "sending", "isolated", "macro", "actor", "distributed", "then", "unsafe",
    ]

    static let members = [
        "hashValue", "hash", "id", "ID", "persistentModelID", "modelContext", "hasChanges", "isDeleted", "description",
        "debugDescription", "models", "versionIdentifier", "schemas", "stages", "rawValue", "RawValue", "allCases", "AllCases",
        "schemaMetadata", "persistentBackingData", "init", "deinit", "self", "Type", "Protocol", "context", "container",
        "Element", "Index", "Iterator", "Wrapped",
    ]

    static var candidates: [String] { Array(Set(keywords + members)).sorted() }

    private func accepted(_ yaml: (String) -> String, names: [String]) -> [String] {
        names.filter { name in
            let file = SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml(name).utf8))
            return !Generator.validate(SchemaSources(config: nil, versions: [file])).diagnostics.hasErrors
        }
    }

    private func typeCheck(_ yaml: String, position: String) throws {
        let file = SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml.utf8))
        let config = SourceFile(displayPath: "c.yaml", relativePath: "c.yaml", bytes: Array("platforms: { iOS: 18, macOS: 15 }\n".utf8))
        let output = Generator.generate(SchemaSources(config: config, versions: [file]), templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        XCTAssertFalse(output.diagnostics.hasErrors, output.diagnostics.map(\.rendered).joined(separator: "\n"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for generated in output.files {
            let path = folder.appendingPathComponent(generated.name).path
            try generated.contents.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let result = try StandInTypeCheckTests.typeCheck(paths)
        XCTAssertEqual(result.status, 0, "names accepted as \(position) do not compile:\n\(result.output)")
    }

    func testEveryAcceptedModelNameCompiles() throws {
        let names = accepted({ "schema: N\nversion: 1.0.0\nmodels:\n  \($0):\n    properties:\n      v: String\n" }, names: Self.candidates)
        XCTAssertFalse(names.isEmpty)
        let models = names.map { "  \($0):\n    properties:\n      v: String\n" }.joined()
        try typeCheck("schema: N\nversion: 1.0.0\nmodels:\n" + models, position: "model names")
    }

    func testEveryAcceptedEnumNameCompiles() throws {
        let names = accepted({ "schema: N\nversion: 1.0.0\nenums:\n  \($0): { rawType: String, cases: [a] }\nmodels:\n  M:\n    properties:\n      v: { type: \($0), default: a }\n" }, names: Self.candidates)
        XCTAssertFalse(names.isEmpty)
        let enums = names.map { "  \($0): { rawType: String, cases: [a] }\n" }.joined()
        let properties = names.enumerated().map { "      p\($0.offset): { type: \($0.element), default: a }\n" }.joined()
        try typeCheck("schema: N\nversion: 1.0.0\nenums:\n" + enums + "models:\n  M:\n    properties:\n" + properties, position: "enum names")
    }

    func testEveryAcceptedPropertyNameCompiles() throws {
        let names = accepted({ "schema: N\nversion: 1.0.0\nmodels:\n  M:\n    properties:\n      \($0): String\n" }, names: Self.candidates)
        XCTAssertFalse(names.isEmpty)
        // Each name as a plain attribute (also unique and indexed), an enum stored through its raw
        // value, and a relationship with an inverse.
        var yaml = "schema: N\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: [a, b] }\nmodels:\n"
        yaml += "  M:\n    unique: [[\(names[0])]]\n    indexes: [[\(names[0])]]\n    properties:\n" + names.map { "      \($0): String\n" }.joined()
        yaml += names.map { "      back\($0): \"[R]\"\n" }.joined()
        yaml += "  P:\n    properties:\n" + names.map { "      \($0): { type: E, default: b }\n" }.joined()
        yaml += "  R:\n    properties:\n" + names.map { "      \($0): { type: M?, inverse: back\($0) }\n" }.joined()
        try typeCheck(yaml, position: "property names")
    }

    func testEveryAcceptedEnumCaseCompiles() throws {
        let names = accepted({ "schema: N\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: [\($0)] }\nmodels:\n  M:\n    properties:\n      v: { type: E, default: \($0) }\n" }, names: Self.candidates)
        XCTAssertFalse(names.isEmpty)
        let cases = names.joined(separator: ", ")
        let intCases = names.enumerated().map { "\($0.element): \($0.offset)" }.joined(separator: ", ")
        try typeCheck(
            "schema: N\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: [\(cases)] }\n  F: { rawType: Int, cases: { \(intCases) } }\nmodels:\n  M:\n    properties:\n      v: { type: E, default: \(names[0]) }\n      w: { type: F?, default: \(names.last ?? "") }\n",
            position: "enum cases")
    }
}
