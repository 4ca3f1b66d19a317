import Foundation
import XCTest

@testable import SwiftDataGenCore

/// `PropertyKey` is the one declaration of a property's keys; the documentation and the editor
/// schema are held to it here, so a key cannot be added, or removed, in one place only.
final class DSLKeyTests: XCTestCase {
    static let declared = Set(PropertyKey.allCases.map(\.rawValue))

    func testTheDecoderAcceptsExactlyTheDeclaredKeys() {
        XCTAssertEqual(Set(DSLDecoder.Keys.property), Self.declared)
        for key in PropertyKey.allCases {
            XCTAssertFalse(key.summary.isEmpty, "\(key) has no summary")
        }
    }

    /// README's "Property keys" table names every declared key and no other.
    func testTheREADMEKeyTableListsEveryKey() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "### Property keys"))
        let section = readme[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n#")?.lowerBound ?? section.endIndex
        var documented: Set<String> = []
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.dropFirst(2).prefix { $0 != "|" }
            documented.formUnion(firstCell.matches(of: /`([A-Za-z]+)`/).map { String($0.1) })
        }
        XCTAssertEqual(documented, Self.declared, "README's property key table and PropertyKey differ")
    }

    /// The JSON Schema's property mapping allows every declared key and no other.
    func testTheJSONSchemaAllowsEveryKey() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("JSONSchema/swiftdata-gen-version.schema.json")
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        func propertyMappings(_ value: Any) -> [[String: Any]] {
            if let object = value as? [String: Any] {
                var found = object.values.flatMap(propertyMappings)
                if let properties = object["properties"] as? [String: Any], properties["storedName"] != nil {
                    found.append(object)
                }
                return found
            }
            return (value as? [Any])?.flatMap(propertyMappings) ?? []
        }
        let mappings = propertyMappings(schema)
        XCTAssertEqual(mappings.count, 1, "one definition of a property mapping")
        let mapping = try XCTUnwrap(mappings.first)
        XCTAssertEqual(Set((mapping["properties"] as? [String: Any])?.keys.map { $0 } ?? []), Self.declared)
        XCTAssertEqual(mapping["additionalProperties"] as? Bool, false, "an unknown key is an error in editors too")
    }
}
