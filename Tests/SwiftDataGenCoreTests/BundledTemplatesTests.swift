import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The templates the tool carries are the ones in Templates/mustache, byte for byte.
final class BundledTemplatesTests: XCTestCase {
    func testBuiltInTemplatesAreTheTemplateFiles() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Templates/mustache")
        var onDisk: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".mustache") {
            onDisk[String(name.dropLast(".mustache".count))] = try String(
                contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        XCTAssertFalse(onDisk.isEmpty)
        XCTAssertEqual(Set(TemplateSet.bundled.sources.keys), Set(onDisk.keys), "run scripts/embed-templates.py")
        for (name, text) in onDisk {
            XCTAssertEqual(
                TemplateSet.bundled.sources[name].map { Array($0.utf8) }, Array(text.utf8),
                "\(name).mustache differs from the built-in copy: run scripts/embed-templates.py")
        }
    }

    func testEveryTemplateTheRendererNeedsIsBuiltIn() {
        for name in TemplateSet.requiredNames {
            XCTAssertNotNil(TemplateSet.bundled.sources[name], name)
        }
    }

    func testAnOverrideFolderReplacesOnlyTheTemplatesItHolds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "// header\n".write(to: folder.appendingPathComponent("header.mustache"), atomically: true, encoding: .utf8)
        try "ignored".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let set = try SchemaLoader.templates(overrideDirectory: folder.path).get()
        XCTAssertEqual(set.sources["header"], "// header\n")
        XCTAssertEqual(set.sources["plan"], TemplateSet.bundled.sources["plan"])
        XCTAssertNil(set.sources["notes"])
        guard
            case .failure(let diagnostic) = SchemaLoader.templates(
                overrideDirectory: folder.appendingPathComponent("absent").path)
        else {
            return XCTFail("a missing templates folder must be an error")
        }
        XCTAssertTrue(diagnostic.message.contains("does not exist"), diagnostic.message)
    }

    /// The bundled templates are rendered strictly: a name their view model lacks is an error,
    /// never a lookup in an enclosing context (which would put a model's value on each of its
    /// fields). Every golden renders that way (GoldenTests); here the rule itself. A user's
    /// templates keep the Mustache spec's lookup.
    func testBundledTemplatesAreRenderedStrictly() throws {
        let template = try MustacheTemplate("{{#items}}{{access}}{{name}};{{/items}}")
        let view: MustacheValue = ["access": .string("public "), "items": .list([["name": .string("a")]])]
        XCTAssertEqual(
            try template.render(view, escaping: .none), "public a;", "the spec looks in the enclosing context")
        XCTAssertThrowsError(try template.render(view, escaping: .none, strict: true)) { error in
            XCTAssertTrue(
                "\(error)".contains("uses 'access', which the view model of its section does not have"), "\(error)")
        }
        let inner: MustacheValue = ["items": .list([["access": .string(""), "name": .string("a")]])]
        XCTAssertEqual(try template.render(inner, escaping: .none, strict: true), "a;")
        XCTAssertThrowsError(try MustacheTemplate("{{missing}}").render([:], strict: true))
        // A truthy scalar section is no view model of its own: names come from the mapping around it.
        XCTAssertEqual(
            try MustacheTemplate("{{#flag}}{{name}}{{/flag}}").render(
                ["flag": .bool(true), "name": .string("n")], strict: true), "n")
        XCTAssertTrue(TemplateSet.bundled.isBundled)
        XCTAssertFalse(TemplateSet.bundled.overridden(by: ["header": "// mine\n"]).isBundled)
        XCTAssertTrue(TemplateSet.bundled.overridden(by: [:]).isBundled)
    }
}
