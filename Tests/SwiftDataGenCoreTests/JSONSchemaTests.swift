import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The JSON Schemas editors use must name exactly the keys the decoder accepts.
final class JSONSchemaTests: XCTestCase {
    private func load(_ name: String) throws -> [String: Any] {
        let url = TestPaths.packageRoot.appendingPathComponent("JSONSchema/\(name)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Follows object keys; an integer step picks from an array.
    private func value(_ object: Any?, _ path: [Any]) -> Any? {
        path.reduce(object) { current, step in
            if let key = step as? String { return (current as? [String: Any])?[key] }
            if let index = step as? Int, let list = current as? [Any], list.indices.contains(index) {
                return list[index]
            }
            return nil
        }
    }

    private func keys(_ object: Any?, _ path: Any...) throws -> [String] {
        try XCTUnwrap(value(object, path + ["properties"]) as? [String: Any], "no properties at \(path)").keys.sorted()
    }

    func testVersionSchemaMatchesDecoder() throws {
        let schema = try load("swiftdata-gen-version.schema.json")
        XCTAssertEqual(try keys(schema), DSLDecoder.Keys.version.sorted())
        XCTAssertEqual(
            try keys(schema, "properties", "enums", "additionalProperties"), DSLDecoder.Keys.enumeration.sorted())
        let model: [Any] = ["properties", "models", "additionalProperties"]
        XCTAssertEqual(try keys(value(schema, model)), DSLDecoder.Keys.model.sorted())
        let property = value(schema, model + ["properties", "properties", "additionalProperties", "anyOf", 1])
        XCTAssertEqual(try keys(property), DSLDecoder.Keys.property.sorted())
        XCTAssertEqual(try keys(property, "properties", "from"), DSLDecoder.Keys.conversion.sorted())
        XCTAssertEqual(
            (schema["required"] as? [String])?.sorted(), ["models", "schema", "version"],
            "a version file needs models (SDG101 otherwise)")
        let rules = value(property, ["properties", "deleteRule", "enum"]) as? [String]
        XCTAssertEqual(rules?.sorted(), DeleteRule.allCases.map(\.rawValue).sorted())
    }

    func testConfigSchemaMatchesDecoder() throws {
        let schema = try load("swiftdata-gen-config.schema.json")
        XCTAssertEqual(try keys(schema), DSLDecoder.Keys.config.sorted())
        XCTAssertEqual(
            schema["type"] as? [String], ["object", "null"],
            "an empty config, which the documentation allows, validates")
        XCTAssertEqual(try keys(schema, "properties", "naming"), DSLDecoder.Keys.naming.sorted())
        XCTAssertEqual(try keys(schema, "properties", "platforms"), Platform.allCases.map(\.rawValue).sorted())
        let access = value(schema, ["properties", "access", "enum"]) as? [String]
        XCTAssertEqual(access?.sorted(), AccessLevel.allCases.map(\.rawValue).sorted())
    }
}
