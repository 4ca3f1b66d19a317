import Foundation
import SwiftDataGenDSL

@testable import SwiftDataGenCore

/// The documentation's config, version, model and property key tables (Reference/SchemaFiles.md) and the JSON Schema's property keys,
/// made from the key declarations in SwiftDataGenDSL: DSLKeyTests holds the committed files to
/// these and rewrites them when recording.
enum DSLKeyDocumentation {
    /// A generated region of a documentation page: its first and last lines and what lies between.
    struct Region {
        var start: String
        var end: String
        var body: [String]

        /// The markers name the declarations the rows come from and the command that rewrites them.
        init(from declarations: String, of keys: String, columns: [String], rows: [String]) {
            start =
                "<!-- Generated from \(declarations) (Sources/SwiftDataGenDSL): "
                + "SDG_RECORD_GOLDENS=1 swift test --filter DSLKeyTests rewrites it. -->"
            end = "<!-- End of the generated \(keys). -->"
            body = ["| " + columns.joined(separator: " | ") + " |", "|" + columns.map { _ in "---|" }.joined()] + rows
        }

        var text: String { ([start] + body + [end]).joined(separator: "\n") }
    }

    /// The config file's keys, `naming`'s as `naming.<key>` rows after its own.
    static var configTable: Region {
        var rows: [String] = []
        for key in ConfigKey.allCases {
            rows.append("| `\(key.rawValue)` | \(cell(key.documentation)) | \(cell(key.defaultValue)) |")
            if key == .naming {
                rows += NamingKey.allCases.map {
                    "| `\(key.rawValue).\($0.rawValue)` | \(cell($0.documentation)) | \(cell($0.defaultValue)) |"
                }
            }
        }
        return Region(
            from: "ConfigKey and NamingKey", of: "config keys", columns: ["key", "value", "default"], rows: rows)
    }

    static var versionTable: Region {
        Region(
            from: "VersionKey", of: "version keys", columns: ["key", "value"],
            rows: VersionKey.allCases.map { "| `\($0.rawValue)` | \(cell($0.documentation)) |" })
    }

    static var modelTable: Region {
        Region(
            from: "ModelKey", of: "model keys", columns: ["key", "value"],
            rows: ModelKey.allCases.map { "| `\($0.rawValue)` | \(cell($0.documentation)) |" })
    }

    /// The property key table, one row per key in declaration order.
    static var propertyTable: Region {
        let rows = PropertyKey.allCases.map { key in
            let (type, value) = key.example
            let example = key == .type ? "{ type: \(type) }" : "{ type: \(type), \(key.rawValue): \(value) }"
            return "| `\(key.rawValue)` | \(cell(key.documentation)) | `\(example)` |"
        }
        return Region(from: "PropertyKey", of: "property keys", columns: ["key", "value", "example"], rows: rows)
    }

    private static func cell(_ markdown: String) -> String {
        markdown.replacingOccurrences(of: "|", with: "\\|")
    }

    /// The JSON Schema of a property written as a mapping.
    static var propertyMapping: [String: Any] {
        var keys: [String: Any] = [:]
        for key in PropertyKey.allCases {
            var schema = valueSchema(key.value)
            schema["description"] = plain(key.documentation)
            keys[key.rawValue] = schema
        }
        return ["type": "object", "additionalProperties": false, "required": ["type"], "properties": keys]
    }

    /// Editors show descriptions as plain text.
    private static func plain(_ markdown: String) -> String {
        markdown.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "`", with: "")
            .replacingOccurrences(of: "<doc:StoreIdentity>", with: "the documentation's Store identity")
    }

    private static var identifier: [String: Any] {
        [
            "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "maxLength": Identifier.maxLength,
        ]
    }

    private static func valueSchema(_ value: PropertyKey.Value) -> [String: Any] {
        switch value {
        case .typeSpelling:
            return [
                "type": "string",
                "pattern": "^\\s*\\[?\\s*([A-Za-z_][A-Za-z0-9_]*\\s*:\\s*)?[A-Za-z_][A-Za-z0-9_]*\\s*\\]?\\??\\s*$",
            ]
        case .literal: return [:]
        case .swiftCode, .text: return ["type": "string"]
        case .nonEmptyText: return ["type": "string", "minLength": 1]
        case .identifier: return identifier
        case .flag, .option: return ["type": "boolean"]
        case .count: return ["type": "integer", "minimum": 0, "maximum": Int(Int32.max)]
        case .choice(let options, _): return ["type": "string", "enum": options]
        case .inverse: return ["oneOf": [identifier, ["const": false]]]
        case .conversion:
            var keys: [String: Any] = [:]
            for key in ConversionKey.allCases {
                var schema: [String: Any]
                switch key {
                case .property, .match: schema = identifier
                case .convert: schema = ["type": "string"]
                }
                schema["description"] = key.documentation
                keys[key.rawValue] = schema
            }
            return [
                "type": "object", "additionalProperties": false, "required": [ConversionKey.property.rawValue],
                "properties": keys,
            ]
        }
    }

    /// JSON as it is compared and written: keys sorted, so that the text is one for one value.
    static func text(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
