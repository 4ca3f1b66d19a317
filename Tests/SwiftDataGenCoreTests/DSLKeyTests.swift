import Foundation
import SwiftDataGenDSL
import XCTest

@testable import SwiftDataGenCore

/// `PropertyKey` is the one declaration of a property's keys; the documentation and the editor
/// schema are held to it here, so a key cannot be added, or removed, in one place only.
final class DSLKeyTests: XCTestCase {
    static let declared = Set(PropertyKey.allCases.map(\.rawValue))

    static var recording: Bool { ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" }

    func testTheDecoderAcceptsExactlyTheDeclaredKeys() {
        XCTAssertEqual(Set(DSLDecoder.Keys.property), Self.declared)
        XCTAssertEqual(DSLDecoder.Keys.model, ModelKey.allCases.map(\.rawValue))
        XCTAssertEqual(DSLDecoder.Keys.version, VersionKey.allCases.map(\.rawValue))
        for key in PropertyKey.allCases {
            XCTAssertFalse(key.documentation.isEmpty, "\(key) has no documentation")
        }
    }

    /// The catalog's config, version, model and property key tables (Reference/SchemaFiles.md) are
    /// the ones `DSLKeyDocumentation` makes from the declarations, each between its markers.
    func testTheKeyTablesAreGenerated() throws {
        let url = Documentation.catalogURL.appendingPathComponent("Reference/SchemaFiles.md")
        var readme = try String(contentsOf: url, encoding: .utf8)
        for region in [
            DSLKeyDocumentation.configTable, DSLKeyDocumentation.versionTable,
            DSLKeyDocumentation.modelTable,
            DSLKeyDocumentation.propertyTable,
        ] {
            let start = try XCTUnwrap(
                readme.range(of: region.start), "Reference/SchemaFiles.md lost the marker \(region.start)")
            let end = try XCTUnwrap(readme.range(of: region.end, range: start.upperBound..<readme.endIndex))
            if Self.recording {
                readme.replaceSubrange(start.lowerBound..<end.upperBound, with: region.text)
            } else {
                XCTAssertEqual(
                    String(readme[start.lowerBound..<end.upperBound]), region.text,
                    "Reference/SchemaFiles.md's table is not the declarations': re-record with SDG_RECORD_GOLDENS=1")
            }
        }
        if Self.recording { try readme.write(to: url, atomically: true, encoding: .utf8) }
    }

    /// The JSON Schema's one property mapping is the one made from the declarations.
    func testTheJSONSchemaPropertyKeysAreGenerated() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("JSONSchema/swiftdata-gen-version.schema.json")
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        var found: [Any] = []
        let replaced = Self.replacingPropertyMapping(in: schema, found: &found)
        XCTAssertEqual(found.count, 1, "one definition of a property mapping")
        let mapping = try XCTUnwrap(found.first)
        if Self.recording {
            try DSLKeyDocumentation.text(replaced).write(to: url, atomically: true, encoding: .utf8)
        } else {
            XCTAssertEqual(
                try DSLKeyDocumentation.text(mapping),
                try DSLKeyDocumentation.text(DSLKeyDocumentation.propertyMapping),
                "the JSON Schema's property keys are not PropertyKey's: re-record with SDG_RECORD_GOLDENS=1")
        }
    }

    /// `value` with the property mapping (the object whose properties include `storedName`)
    /// replaced by the generated one; each one found is collected.
    private static func replacingPropertyMapping(in value: Any, found: inout [Any]) -> Any {
        if var object = value as? [String: Any] {
            if let properties = object["properties"] as? [String: Any], properties["storedName"] != nil {
                found.append(object)
                return DSLKeyDocumentation.propertyMapping
            }
            for (key, child) in object { object[key] = replacingPropertyMapping(in: child, found: &found) }
            return object
        }
        if let list = value as? [Any] { return list.map { replacingPropertyMapping(in: $0, found: &found) } }
        return value
    }

    /// Each key, written on a property, changes what is generated or what is said about it, and
    /// the history generates without an error with and without it: a key that is decoded but
    /// carried or rendered nowhere fails here: render it where `SchemaRenderer` builds the
    /// property's view model.
    func testEveryKeyChangesWhatIsGenerated() throws {
        for key in PropertyKey.allCases {
            let sample = Self.sample(of: key)
            let plain = try generate(sample.secondVersion(keyed: false))
            let keyed = try generate(sample.secondVersion(keyed: true))
            XCTAssertFalse(plain.hasErrors, "\(key), not written: \(plain.text)")
            XCTAssertFalse(keyed.hasErrors, "\(key): \(keyed.text)")
            XCTAssertTrue(
                plain.text != keyed.text,
                "\(key) is written, yet nothing generated or said changes: render it (SchemaRenderer)")
        }
    }

    /// A value of the wrong kind, for each kind a key may take; nil where the type decides
    /// (a literal is read once the property's type is known, and refused there).
    static func wrongValue(for value: PropertyKey.Value) -> String? {
        switch value {
        case .typeSpelling: return "\"[[Int]]\""
        case .literal: return nil
        case .swiftCode, .text: return "[a, b]"
        case .nonEmptyText: return "\"\""
        case .identifier: return "\"1st\""
        case .flag, .option: return "yes"
        case .count: return "-1"
        case .choice: return "sometimes"
        case .conversion: return "3"
        case .inverse: return "true"
        }
    }

    /// Every key refuses a value of the wrong kind with an error at the value, naming what it
    /// expected, and nothing is generated.
    func testEveryKeyRefusesAValueOfTheWrongKind() throws {
        for key in PropertyKey.allCases {
            guard let wrong = Self.wrongValue(for: key.value) else { continue }
            let type = key == .type ? wrong : key.example.type
            let property = key == .type ? "p: { type: \(type) }" : "p: { type: \(type), \(key.rawValue): \(wrong) }"
            let (sources, templates) = try inputs(SecondVersion(newProperties: [property]))
            let output = Generator.generate(sources, templates: templates)
            XCTAssertTrue(output.files.isEmpty, "\(key): \(wrong) generated files")
            let errors = output.diagnostics.filter(\.isError)
            XCTAssertEqual(errors.count, 1, "\(key): \(errors.map(\.rendered))")
            let error = try XCTUnwrap(errors.first, "\(key): \(wrong) is accepted")
            let lines = String(decoding: sources.versions[1].bytes, as: UTF8.self).split(separator: "\n")
            let line = try XCTUnwrap(lines.firstIndex { $0.hasSuffix(property) })
            let valueStart = try XCTUnwrap(lines[line].range(of: key == .type ? "type: " : "\(key.rawValue): "))
            let column = lines[line].distance(from: lines[line].startIndex, to: valueStart.upperBound) + 1
            XCTAssertEqual(error.location?.line, line + 1, "\(key): \(error.rendered)")
            XCTAssertEqual(error.location?.column, column, "\(key): \(error.rendered)")
            let named: String
            switch key.value {
            case .identifier(let called), .choice(_, let called): named = called
            default: named = key.rawValue
            }
            XCTAssertTrue(error.message.contains(named), "\(key): the error does not say what it is: \(error.rendered)")
        }
    }

    /// Each model key, written on a model, changes what is generated or what is said about it: a
    /// model key that is decoded but read nowhere fails here. The switch names a new key.
    func testEveryModelKeyChangesWhatIsGeneratedOrSaid() throws {
        for key in ModelKey.allCases {
            let written: String
            switch key {
            case .properties: written = ""  // every sample has them
            case .unique: written = "unique: [p]"
            case .indexes: written = "indexes: [[p, w]]"
            case .dedupe: written = "dedupe: { keep: first, orderBy: w }"
            case .renamedFrom: written = "renamedFrom: Box"
            case .superclass: written = "superclass: Box"
            case .doc: written = "doc: \"Why it is kept.\""
            }
            func output(_ line: String?) throws -> String {
                let model = "  New:\n    properties: { p: Int?, w: Int }\n" + (line.map { "    \($0)\n" } ?? "")
                return try Self.everythingSaid(
                    inputs(
                        first: "models:\n  Box:\n    properties:\n      w: Int?\n",
                        second: "models:\n  Box:\n    properties:\n      w: Int?\n" + model))
            }
            let plain = try output(nil)
            XCTAssertFalse(plain.contains("error:"), plain)
            if key == .properties {
                XCTAssertTrue(plain.contains("var p: Int?"), "properties are not read")
            } else {
                XCTAssertNotEqual(
                    plain, try output(written), "\(key) is written, yet nothing generated or said changes")
            }
        }
    }

    /// Each config key, and each key of `naming:`, changes what is generated or said: a key the
    /// decoder accepts but reads nowhere fails here. The switches name a new key.
    func testEveryConfigKeyChangesWhatIsGeneratedOrSaid() throws {
        func output(_ config: String) throws -> String {
            // Uniqueness, which CloudKit refuses, so that `cloudKit: true` has something to say.
            let version =
                "schema: App\nversion: 1.0.0\nmodels:\n  Box:\n    properties: { w: Int?, kind: Kind? }\n    unique: [w]\n"
                + "enums:\n  Kind: { rawType: String, cases: [a] }\n"
            return try Self.everythingSaid(Self.sources(config: config, versions: [version]))
        }
        let plain = try output("platforms: { iOS: 17 }\n")
        XCTAssertFalse(plain.contains("error:"), plain)
        var samples: [(String, String)] = []
        for key in ConfigKey.allCases {
            switch key {
            case .platforms: samples.append((key.rawValue, "platforms: { iOS: 26 }"))
            case .cloudKit: samples.append((key.rawValue, "cloudKit: true"))
            case .access: samples.append((key.rawValue, "access: public"))
            case .naming:
                for naming in NamingKey.allCases {
                    let value: String
                    switch naming {
                    case .schemaSuffix: value = "Models"
                    case .versionPrefix: value = "Version"
                    case .migrationPlanSuffix: value = "Plan"
                    case .rawValueSuffix: value = "Raw"
                    case .currentSchema: value = "CurrentModels"
                    case .migrationPlan: value = "AppPlan"
                    }
                    samples.append(("naming.\(naming.rawValue)", "naming: { \(naming.rawValue): \(value) }"))
                }
            }
        }
        for (name, line) in samples {
            XCTAssertNotEqual(
                plain, try output("platforms: { iOS: 17 }\n" + line + "\n"),
                "\(name) is written, yet nothing generated or said changes")
        }
    }

    /// Each version key changes what is generated or said: a key the decoder accepts but reads
    /// nowhere fails here. The switch names a new key; the required ones are in every sample.
    func testEveryVersionKeyChangesWhatIsGeneratedOrSaid() throws {
        func output(_ written: String?) throws -> String {
            let first = "schema: App\nversion: 1.0.0\nmodels:\n  Box:\n    properties: { w: Int?, x: Int? }\n"
            let second =
                "schema: App\nversion: 2.0.0\nmodels:\n  Box:\n    properties: { w: Int? }\n"
                + (written.map { $0 + "\n" } ?? "")
            return try Self.everythingSaid(Self.sources(config: nil, versions: [first, second]))
        }
        let plain = try output(nil)
        XCTAssertFalse(plain.contains("error:"), plain)
        for key in VersionKey.allCases {
            let written: String
            switch key {
            case .schema, .version, .models:
                XCTAssertTrue(plain.contains("AppSchemaV2") && plain.contains("class Box"), "\(key) is not read")
                continue
            case .typeName: written = "typeName: AppTwo"
            case .enums: written = "enums:\n  Mood: { rawType: String, cases: [calm] }"
            case .structs: written = "structs:\n  Size: { width: Double }"
            case .acknowledgedRemovals: written = "acknowledgedRemovals: [Box.x]"
            case .customMigration: written = "customMigration: true"
            case .carriedFrom: written = "carriedFrom: \"Plan.swift:42\""
            }
            XCTAssertNotEqual(plain, try output(written), "\(key) is written, yet nothing generated or said changes")
        }
    }

    /// Each key reaches a store as far as its declaration says, no further: written, a
    /// `.checksum` key changes the version's checksum, a `.lock` key only what the lock freezes, a
    /// `.migration` key only the plan, and a `.code` key none of the three.
    func testEveryKeyReachesTheStoreAsDeclared() throws {
        for key in PropertyKey.allCases {
            let sample = Self.sample(of: key)
            let plain = try XCTUnwrap(history(sample.secondVersion(keyed: false)), "\(key)")
            let keyed = try XCTUnwrap(history(sample.secondVersion(keyed: true)), "\(key)")
            let (checksum, shape, plan) = (
                plain.checksum != keyed.checksum, plain.shape != keyed.shape, plain.plan != keyed.plan
            )
            switch key.storeEffect {
            case .checksum: XCTAssertTrue(checksum, "\(key) is declared to reach the checksum, yet it does not")
            case .lock:
                XCTAssertFalse(checksum, "\(key) is declared outside the checksum, yet it changes it")
                XCTAssertTrue(shape, "\(key) is declared to reach the lock, yet the stored shape is the same")
            case .migration:
                XCTAssertFalse(shape, "\(key) is declared to change no store, yet the stored shape changes")
                XCTAssertTrue(plan, "\(key) is declared to move data, yet the plan is the same")
            case .code:
                XCTAssertFalse(shape || plan, "\(key) is declared to change code only, yet it reaches the store")
            }
        }
    }

    /// A key that reaches the store is diffed: written on a property that both versions have,
    /// the step between them names a change, so neither the plan nor a reviewer misses it.
    func testEveryKeyThatReachesTheStoreIsDiffed() throws {
        for key in PropertyKey.allCases {
            guard let (before, after) = Self.change(of: key) else { continue }
            let box = "models:\n  Item:\n    properties:\n      t: Int?\n  Box:\n    properties:\n      w: Int?\n      "
            let (sources, _) = try inputs(first: box + before + "\n", second: box + after + "\n")
            let (histories, diagnostics) = Generator.validate(sources)
            XCTAssertFalse(diagnostics.hasErrors, "\(key): \(diagnostics.map(\.rendered))")
            let history = try XCTUnwrap(histories.first)
            let step = try XCTUnwrap(MigrationPlanner.plan(history).plan.steps.first)
            XCTAssertFalse(step.changes.isEmpty, "\(key) changed between versions, yet the diff names no change")
        }
    }

    /// One property `p` of `Box` before and after the key changes; nil for keys that say how data
    /// moves or change the code only. A key of a new kind is written as its declared example.
    static func change(of key: PropertyKey) -> (before: String, after: String)? {
        guard [.checksum, .lock].contains(key.storeEffect) else { return nil }
        let (type, value) = key.example
        switch key {
        case .type:
            return ("p: Int?", "p: { type: String?, from: { property: p, convert: \"$0.map { String($0) }\" } }")
        case .renamedFrom: return ("p: Int?", "q: { type: Int?, renamedFrom: p }")
        case .inverse:
            return ("p: Box?\n      q: \"[Box]\"", "p: { type: Box?, inverse: q }\n      q: \"[Box]\"")
        case .codable:
            return ("p: Spot?", "p: { type: Spot?, codable: true, from: { property: p, convert: \"$0\" } }")
        case .enumStorage:
            return (
                "p: { type: Kind?, enumStorage: rawValue }",
                "p: { type: Kind?, enumStorage: value, from: { property: p } }"
            )
        default: return ("p: \(type)", "p: { type: \(type), \(key.rawValue): \(value) }")
        }
    }

    /// A key written on one property, and the same property without it: a property `p` of model
    /// `New` in the second version, or a line of `Item` where the key speaks of the first version.
    struct Sample {
        var onItem = false
        var without: String
        var with: String

        func secondVersion(keyed: Bool) -> SecondVersion {
            let line = keyed ? with : without
            return onItem ? SecondVersion(itemLines: [line]) : SecondVersion(newProperties: [line])
        }
    }

    /// Any key not named here is written as its declared example, so a new key needs no case.
    static func sample(of key: PropertyKey) -> Sample {
        let (type, value) = key.example
        switch key {
        case .type: return Sample(without: "p: { type: Int? }", with: "p: { type: \(type) }")
        case .renamedFrom:
            return Sample(
                onItem: true, without: "heading: { type: String, default: \"\" }",
                with: "heading: { type: String, default: \"\", renamedFrom: title }")
        case .from:
            return Sample(
                onItem: true, without: "count: { type: Int, default: 0 }",
                with: "count: { type: Int, default: 0, from: { property: size } }")
        case .inverse:
            // Annotated on the to-one end only: a pair SwiftData is not shown to pair by itself, so
            // only the written inverse pairs it (a plain pair is paired either way).
            return Sample(
                without: "p: { type: \(type), deleteRule: cascade }",
                with: "p: { type: \(type), deleteRule: cascade, inverse: \(value) }")
        default:
            return Sample(without: "p: { type: \(type) }", with: "p: { type: \(type), \(key.rawValue): \(value) }")
        }
    }

    /// Every key at once, each on a property of its own, type-checks in Swift 6 mode against the
    /// SwiftData stand-in with warnings as errors: a key rendered into code that does not compile,
    /// or compiles with a warning (a deprecation the init then uses), fails here.
    func testEveryKeyCompilesWithoutAWarning() throws {
        var version = SecondVersion()
        for key in PropertyKey.allCases {
            let sample = Self.sample(of: key)
            if sample.onItem {
                version.itemLines.append(sample.with)
            } else {
                version.newProperties.append(key.rawValue + "Sample" + sample.with.drop { $0 != ":" })
            }
        }
        let (sources, templates) = try inputs(version)
        let output = Generator.generate(sources, templates: templates)
        XCTAssertFalse(output.diagnostics.hasErrors, "\(output.diagnostics.map(\.rendered))")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for file in output.files where file.name.hasSuffix(".swift") {
            let url = folder.appendingPathComponent(file.name)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        XCTAssertFalse(paths.isEmpty)
        let result = try StandInTypeCheckTests.typeCheck(paths)
        XCTAssertEqual(result.status, 0, "the keys' output does not type-check cleanly:\n\(result.output)")
    }

    /// The second version's checksum and stored shape, and the plan's steps, as text.
    private func history(_ secondVersion: SecondVersion) throws -> (checksum: String, shape: String, plan: String)? {
        let (sources, templates) = try inputs(secondVersion)
        let output = Generator.generate(sources, templates: templates)
        guard let history = output.histories.first, let last = history.versions.last else { return nil }
        let shape = StoredShape(last, naming: history.config.naming).lines.map(\.text).joined(separator: "\n")
        let plan = MigrationPlanner.plan(history).0.steps.map { "\($0)" }.joined(separator: "\n")
        return (StoreIdentity(last, naming: history.config.naming).versionChecksum, shape, plan)
    }

    /// Generates a two-version history whose second version is `secondVersion` and returns every
    /// file and diagnostic as one text.
    private func generate(_ secondVersion: SecondVersion) throws -> (text: String, hasErrors: Bool) {
        let (sources, templates) = try inputs(secondVersion)
        let output = Generator.generate(sources, templates: templates)
        return (Self.everythingSaid(output), output.diagnostics.hasErrors)
    }

    /// A schema folder in memory: the config (`c.yaml`) and the version files (`1.yaml`, `2.yaml`, …)
    /// as written, with the bundled templates.
    static func sources(config: String?, versions: [String]) throws -> (SchemaSources, TemplateSet) {
        func file(_ name: String, _ text: String) -> SourceFile {
            SourceFile(displayPath: name, relativePath: name, bytes: Array(text.utf8))
        }
        let files = versions.enumerated().map { file("\($0.offset + 1).yaml", $0.element) }
        return (
            SchemaSources(config: config.map { file("c.yaml", $0) }, versions: files),
            try SchemaLoader.templates(overrideDirectory: nil).get()
        )
    }

    /// Every file generated from `inputs`, and every diagnostic, as one text.
    static func everythingSaid(_ inputs: (SchemaSources, TemplateSet)) -> String {
        everythingSaid(Generator.generate(inputs.0, templates: inputs.1))
    }

    static func everythingSaid(_ output: Generator.Output) -> String {
        output.files.map { "// \($0.name)\n\($0.contents)" }.joined()
            + output.diagnostics.map(\.rendered).joined(separator: "\n")
    }

    /// Two versions of schema `App` whose bodies (enums Kind and the rest) follow the header.
    private func inputs(first: String, second: String) throws -> (SchemaSources, TemplateSet) {
        let header =
            "schema: App\nenums:\n  Kind: { rawType: String, cases: [a, b] }\nstructs:\n  Spot: { x: Double, y: Double }\n"
        return try Self.sources(
            config: "platforms: { iOS: 27, macOS: 27 }\n",
            versions: [header + "version: 1.0.0\n" + first, header + "version: 2.0.0\n" + second])
    }

    /// The second version's model `New` (its properties, or `p: Int?`) and the lines of `Item`
    /// beside `size` and `news` (or `title: String`, as in the first version).
    struct SecondVersion {
        var newProperties: [String] = []
        var itemLines: [String] = []
    }

    private func inputs(_ secondVersion: SecondVersion) throws -> (SchemaSources, TemplateSet) {
        let first = """
            schema: App
            version: 1.0.0
            models:
              Item:
                properties:
                  title: String
                  size: Int

            """
        let item = secondVersion.itemLines.isEmpty ? ["title: String"] : secondVersion.itemLines
        let new = secondVersion.newProperties.isEmpty ? ["p: Int?"] : secondVersion.newProperties
        let second = """
            schema: App
            version: 2.0.0
            enums:
              Kind: { rawType: String, cases: [a, b] }
            structs:
              Spot: { x: Double, y: Double }
            models:
              Item:
                properties:
                  size: Int
                  news: "[New]"

            """
            + item.map { "      \($0)\n" }.joined() + "  New:\n    properties:\n" + new.map { "      \($0)\n" }.joined()
        // The newest floor, so that every key is available (`codable` is iOS 27's).
        return try Self.sources(config: "platforms: { iOS: 27, macOS: 27 }\n", versions: [first, second])
    }
}
