import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Every name the validator accepts compiles where the generator puts it. The candidates are not
/// a list of known troublemakers but every Swift keyword (declaration, statement, expression and
/// contextual) and every member that `PersistentModel`, `Hashable`, `Identifiable`,
/// `RawRepresentable`, `CaseIterable` and `VersionedSchema` bring; each position gets all of them
/// at once, and the generated output must type-check against the stand-in and, where an SDK is
/// found, against Apple's SwiftData at the iOS 18 floor (its iOS 18 SDK).
final class ReservedNameTests: XCTestCase {
    static let keywords = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init",
        "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private", "precedencegroup",
        "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "associativity", "async", "convenience",
        "didSet",
        "dynamic", "final", "get", "indirect", "infix", "lazy", "left", "mutating", "none", "nonmutating", "optional",
        "override",
        "postfix", "precedence", "prefix", "Protocol", "required", "right", "set", "some", "Type", "unowned", "weak",
        "willSet", "any",
        "each", "consume", "copy", "discard", "sending", "isolated", "macro", "actor", "distributed", "then", "unsafe",
    ]

    static let members = [
        "hashValue", "hash", "id", "ID", "persistentModelID", "modelContext", "hasChanges", "isDeleted", "description",
        "debugDescription", "models", "versionIdentifier", "schemas", "stages", "rawValue", "RawValue", "allCases",
        "AllCases",
        "schemaMetadata", "persistentBackingData", "init", "deinit", "self", "Type", "Protocol", "context", "container",
        "Element", "Index", "Iterator", "Wrapped", "getValue", "setValue", "getTransformableValue",
        "setTransformableValue", "createBackingData",
    ]

    /// Names real apps give their properties and cases (the corpus has each of these): accepted
    /// as a property, a stored name and an enum case.
    static let namesAppsUse = [
        "id", "uuid", "identifier", "type", "kind", "data", "date", "value", "count", "order", "index", "key",
        "name",
        "url", "state", "status", "error", "result", "tag", "tags", "title", "text", "content", "body", "summary",
        "notes",
        "color", "icon", "position", "sortOrder", "timestamp", "createdAt", "updatedAt", "version", "source", "email",
        "parent", "children", "items", "owner", "user", "category", "amount", "price", "isCompleted", "isFavorite",
        "models", "each", "didSet", "versionIdentifier", "backingData", "observationRegistrar", "schemas", "stages",
    ]

    static var candidates: [String] { Array(Set(keywords + members + namesAppsUse)).sorted() }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    static func accepted(_ yaml: (String) -> String, names: [String]) -> [String] {
        names.filter { name in
            let file = SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml(name).utf8))
            return !Generator.validate(SchemaSources(config: nil, versions: [file])).diagnostics.hasErrors
        }
    }

    /// One position's accepted names, all at once, generated at the iOS 18 floor for the stand-in
    /// and for Apple's iOS 18 SDK.
    struct AcceptedNames: Sendable {
        var position: String
        var names: [String]
        var yaml: String
    }

    /// What the compilers said of one position's names; `apple` is nil where no SDK is found.
    struct Verdicts: Sendable {
        var standIn: StandInTypeCheckTests.CompileResult
        var apple: StandInTypeCheckTests.CompileResult?
    }

    static let modelNames: AcceptedNames = {
        let names = accepted(
            { "schema: N\nversion: 1.0.0\nmodels:\n  \($0):\n    properties:\n      v: String\n" },
            names: candidates)
        let models = names.map { "  \($0):\n    properties:\n      v: String\n" }.joined()
        return AcceptedNames(
            position: "model names", names: names, yaml: "schema: N\nversion: 1.0.0\nmodels:\n" + models)
    }()

    static let enumNames: AcceptedNames = {
        let names = accepted(
            {
                "schema: N\nversion: 1.0.0\nenums:\n  \($0): { rawType: String, cases: [a] }\nmodels:\n  M:\n    "
                    + "properties:\n      v: { type: \($0), default: a }\n"
            }, names: candidates)
        let enums = names.map { "  \($0): { rawType: String, cases: [a] }\n" }.joined()
        let properties = names.enumerated().map { "      p\($0.offset): { type: \($0.element), default: a }\n" }
            .joined()
        return AcceptedNames(
            position: "enum names", names: names,
            yaml: "schema: N\nversion: 1.0.0\nenums:\n" + enums + "models:\n  M:\n    properties:\n" + properties)
    }()

    /// Each name as a plain attribute (also unique and indexed), an enum stored through its raw
    /// value, and a relationship with an inverse.
    static let propertyNames: AcceptedNames = {
        let names = accepted(
            { "schema: N\nversion: 1.0.0\nmodels:\n  M:\n    properties:\n      \($0): String\n" },
            names: candidates)
        let first = names.first ?? "v"
        var yaml = "schema: N\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: [a, b] }\nmodels:\n"
        yaml +=
            "  M:\n    unique: [[\(first)]]\n    indexes: [[\(first)]]\n    properties:\n"
            + names.map { "      \($0): String\n" }.joined()
        yaml += names.map { "      back\($0): \"[R]\"\n" }.joined()
        yaml += "  P:\n    properties:\n" + names.map { "      \($0): { type: E, default: b }\n" }.joined()
        yaml += "  R:\n    properties:\n" + names.map { "      \($0): { type: M?, inverse: back\($0) }\n" }.joined()
        return AcceptedNames(position: "property names", names: names, yaml: yaml)
    }()

    static let enumCases: AcceptedNames = {
        let names = accepted(
            {
                "schema: N\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: [\($0)] }\nmodels:\n  M:\n    "
                    + "properties:\n      v: { type: E, default: \($0) }\n"
            }, names: candidates)
        let cases = names.joined(separator: ", ")
        let intCases = names.enumerated().map { "\($0.element): \($0.offset)" }.joined(separator: ", ")
        return AcceptedNames(
            position: "enum cases", names: names,
            yaml:
                "schema: N\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: [\(cases)] }\n  F: { rawType: Int, "
                + "cases: { \(intCases) } }\nmodels:\n  M:\n    properties:\n      v: { type: E, default: "
                + "\(names.first ?? "") }\n      w: { type: F?, default: \(names.last ?? "") }\n")
    }()

    /// Every position's compiles against the stand-in and the SDK, the positions side by side, made
    /// once for the four tests below (by the suite's prefetch when the whole suite runs).
    static let acceptedVerdicts = SharedResult<[String: Verdicts]> {
        let sdk = try? AppleSDK.ifPresent(.iOS18).get()
        let checks = [modelNames, enumNames, propertyNames, enumCases]
        let verdicts = checks.parallelMap { check in
            Result {
                let files = try generated(check.yaml, iOSFloor: 18)
                return Verdicts(
                    standIn: try StandInTypeCheckTests.typeCheck(files),
                    apple: try sdk.map { try $0.typeCheck(files, floor: 18) })
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(checks.map(\.position), try verdicts.map { try $0.get() }))
    }

    private func checkAccepted(_ check: AcceptedNames) throws {
        XCTAssertFalse(check.names.isEmpty, "no \(check.position) accepted")
        let verdicts = try XCTUnwrap(try Self.acceptedVerdicts.get()[check.position])
        XCTAssertEqual(
            verdicts.standIn.status, 0,
            "names accepted as \(check.position) do not compile:\n\(verdicts.standIn.output)")
        guard let real = verdicts.apple else {
            return print(
                "reserved names: \(check.position) not compiled against Apple's SwiftData: \(Self.appleAbsence)")
        }
        XCTAssertEqual(
            real.status, 0,
            "names accepted as \(check.position) do not compile against Apple's SwiftData:\n\(real.output)")
    }

    /// Why the names were not compiled against Apple's iOS 18 SDK, for the line that says so.
    static var appleAbsence: String {
        switch try? AppleSDK.ifPresent(.iOS18) {
        case .failure(let skip): skip.reason
        case .success, nil: "the SDK could not be read"
        }
    }

    /// The files generated from one version file at an iOS floor, written to a folder of their own.
    static func generated(_ yaml: String, iOSFloor: Int) throws -> [String] {
        let folder = try AppleSDK.scratchFolder("names-\(UUID().uuidString)")
        return try generatedFiles(yaml, iOSFloor: iOSFloor).map { generated in
            let path = folder.appendingPathComponent(generated.name).path
            try generated.contents.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// The generated files of one version file at an iOS floor; a diagnostic is an error here, on
    /// whichever thread makes them.
    static func generatedFiles(_ yaml: String, iOSFloor: Int) throws -> [(name: String, contents: String)] {
        let file = SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml.utf8))
        let config = SourceFile(
            displayPath: "c.yaml", relativePath: "c.yaml",
            bytes: Array("platforms: { iOS: \(iOSFloor), macOS: \(iOSFloor - 3) }\n".utf8))
        let output = Generator.generate(
            SchemaSources(config: config, versions: [file]),
            templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        guard !output.diagnostics.hasErrors else {
            throw AppleSDK.CheckError(output.diagnostics.map(\.rendered).joined(separator: "\n"))
        }
        return output.files.map { ($0.name, $0.contents) }
    }

    func testEveryAcceptedModelNameCompiles() throws { try checkAccepted(Self.modelNames) }

    func testEveryAcceptedEnumNameCompiles() throws { try checkAccepted(Self.enumNames) }

    func testEveryAcceptedPropertyNameCompiles() throws { try checkAccepted(Self.propertyNames) }

    func testEveryAcceptedEnumCaseCompiles() throws { try checkAccepted(Self.enumCases) }

    func testNamesAppsUseAreAccepted() {
        for name in Self.namesAppsUse {
            XCTAssertNil(NamePosition.property.refusal(of: name), "property \(name)")
            XCTAssertNil(NamePosition.storedName.refusal(of: name), "stored name \(name)")
            XCTAssertNil(NamePosition.enumCase.refusal(of: name), "case \(name)")
        }
        let properties = Self.namesAppsUse.map { "      \($0): String\n" }.joined()
        XCTAssertEqual(
            Self.accepted(
                { _ in "schema: N\nversion: 1.0.0\nmodels:\n  M:\n    properties:\n" + properties }, names: ["all"]),
            ["all"])
    }

    /// A name refused where Core Data stores it may still be the Swift name of a property stored
    /// under another (`description` in front of `details`), and the refusal names the stored name.
    func testStoredNamesAreRefusedByTheirStoredName() {
        let yaml = { (property: String) in "schema: N\nversion: 1.0.0\nmodels:\n  M:\n    properties:\n\(property)" }
        func errors(_ property: String) -> [String] {
            let file = SourceFile(
                displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml(property).utf8))
            return Generator.validate(SchemaSources(config: nil, versions: [file])).diagnostics.filter {
                $0.severity == .error
            }.map(\.message)
        }
        XCTAssertEqual(errors("      description: { type: String, storedName: details }\n"), [])
        XCTAssertEqual(errors("      details: { type: String, storedName: objectID }\n").count, 1)
        XCTAssertTrue(errors("      description: String\n").first?.contains("storedName") ?? false)
        XCTAssertTrue(
            errors("      entity: M?\n").first?.contains("NSManagedObject") ?? false,
            "a relationship is stored under its name")
        XCTAssertEqual(
            errors("      description: { type: String, transient: true, default: \"\" }\n"), [],
            "a transient property is not stored")
    }

    /// Every refusal says how it is known. Names refused because they fail to compile are
    /// compiled in their position, one at a time, and must fail; the rest cite their rule.
    func testEveryRefusedNameFailsWhereItIsRefused() throws {
        for position in NamePosition.allCases {
            for name in Self.refused(at: position) {
                guard let refusal = position.refusal(of: name) else {
                    return XCTFail("\(name) is listed but not refused at \(position)")
                }
                if case .documented(let source) = refusal.evidence {
                    XCTAssertTrue(
                        source.contains("https://") || source.contains(".md"), "\(name) at \(position) cites no source")
                }
            }
        }
        let compiles = try Self.refusalCompiles.get()
        XCTAssertEqual(compiles.baseline.status, 0, compiles.baseline.output)
        XCTAssertEqual(compiles.caseBaseline.status, 0, compiles.caseBaseline.output)
        XCTAssertGreaterThan(compiles.probes.count, 50)
        for probe in compiles.probes {
            XCTAssertNotEqual(probe.status, 0, "\(probe.what) is refused as failing to compile, but it compiles")
            XCTAssertNotEqual(probe.status, -1, "\(probe.what) could not be compiled")
        }
        let appleProbes = Self.probes(evidence: .typeCheckedAgainstAppleSDK)
        XCTAssertFalse(appleProbes.isEmpty)
        guard let apple = compiles.apple else {
            return print("reserved names: \(appleProbes.count) refusals not checked: \(Self.appleAbsence)")
        }
        // Names refused because they fail against Apple's SwiftData: each compiled in its position
        // at the iOS 18 floor against the SDK must fail, and the probe with placeholder names must not.
        XCTAssertEqual(apple.baseline.status, 0, apple.baseline.output)
        XCTAssertEqual(apple.probes.count, appleProbes.count)
        for probe in apple.probes {
            XCTAssertNotEqual(
                probe.status, 0, "\(probe.what) is refused as failing against Apple's SwiftData, but it compiles there")
            XCTAssertNotEqual(probe.status, -1, "\(probe.what) could not be compiled")
        }
    }

    /// One refused name compiled in its position: `status` -1 when it could not be compiled at all.
    struct Probe: Sendable {
        var what: String
        var status: Int32
    }

    /// The probes' compiles, against one compiler: the output with its placeholder names first.
    struct ProbeCompiles: Sendable {
        var baseline: StandInTypeCheckTests.CompileResult
        var probes: [Probe]
    }

    struct RefusalCompiles: Sendable {
        var baseline: StandInTypeCheckTests.CompileResult
        /// The probe with only its enum case's placeholder, and no app file.
        var caseBaseline: StandInTypeCheckTests.CompileResult
        var probes: [Probe]
        /// Against Apple's SwiftData; nil where no SDK is found.
        var apple: ProbeCompiles?
    }

    static func probes(evidence: NameRefusal.Evidence) -> [(position: NamePosition, name: String)] {
        NamePosition.allCases.flatMap { position in
            refused(at: position).filter { position.refusal(of: $0)?.evidence == evidence }.map { (position, $0) }
        }
    }

    /// Each refused name compiled in its position one at a time, against the stand-in and the SDK,
    /// every compile a core each (made by the suite's prefetch when the whole suite runs).
    static let refusalCompiles = SharedResult<RefusalCompiles> {
        let sdk = try? AppleSDK.ifPresent(.iOS18).get()
        let probe = try generatedFiles(probeYAML, iOSFloor: 18)
        typealias Job = @Sendable () throws -> StandInTypeCheckTests.CompileResult
        let typeUses = appUsage(
            of: Array(NamePosition.typesTheOutputNames.union(NamePosition.typesEverySwiftUIAppNames)))
        var jobs: [Job] = [
            { try compileProbe(probe, replacing: "Zq", with: "Zq", app: typeUses) },
            { try compileProbe(probe, replacing: "zq", with: "zq", app: "") },
        ]
        let standInProbes = probes(evidence: .typeChecked)
        jobs += standInProbes.map { item in
            let app = item.position == .type ? appUsage(of: [item.name]) : ""
            return { try compileProbe(probe, replacing: placeholder(at: item.position), with: item.name, app: app) }
        }
        let appleProbes = probes(evidence: .typeCheckedAgainstAppleSDK)
        if let sdk {
            let compile: @Sendable ([String]) throws -> StandInTypeCheckTests.CompileResult = {
                try sdk.typeCheck($0, floor: 18)
            }
            jobs.append { try compileProbe(probe, replacing: "Zq", with: "Zq", app: "", compile: compile) }
            jobs += appleProbes.map { item in
                {
                    try compileProbe(
                        probe, replacing: placeholder(at: item.position), with: item.name, app: "",
                        compile: compile)
                }
            }
        }
        let results = jobs.parallelMap { job in Result { try job() } }
        func verdicts(_ items: [(position: NamePosition, name: String)], from offset: Int) -> [Probe] {
            items.enumerated().map { index, item in
                Probe(what: "\(item.position) \(item.name)", status: (try? results[offset + index].get().status) ?? -1)
            }
        }
        let appleOffset = 2 + standInProbes.count
        return RefusalCompiles(
            baseline: try results[0].get(), caseBaseline: try results[1].get(),
            probes: verdicts(standInProbes, from: 2),
            apple: sdk == nil
                ? nil
                : ProbeCompiles(
                    baseline: try results[appleOffset].get(), probes: verdicts(appleProbes, from: appleOffset + 1)))
    }

    static func refused(at position: NamePosition) -> [String] {
        switch position {
        case .type:
            NamePosition.typesTheOutputNames.union(NamePosition.membersAroundTypes).union(
                NamePosition.membersEveryModelHas
            ).union(NamePosition.typesEverySwiftUIAppNames).sorted()
        case .property:
            NamePosition.persistentModelMembers.union(NamePosition.modulesTheMacroNames).union(
                NamePosition.typesEveryModelHas
            ).sorted()
        case .storedName: NamePosition.managedObjectMembers.sorted()
        case .enumCase: NamePosition.rawRepresentableMembers.filter { !Identifier.keywords.contains($0) }.sorted()
        case .structField: NamePosition.namesCodableSynthesizes.sorted()
        }
    }

    /// A version with placeholder names where each position's name goes: model `Zq` (related to
    /// another model both ways), its property `qz`, enum case `zq` and struct field `zqf`.
    static let probeYAML = """
        schema: N
        version: 1.0.0
        enums:
          E: { rawType: String, cases: [zq, b] }
        structs:
          S: { zqf: Int }
        models:
          Zq:
            properties:
              v: String
              n: Int
              s: S?
              qz: String
              e: { type: E, default: zq }
              other: { type: Other?, inverse: zqs }
          Other:
            properties:
              zqs: "[Zq]"
              one: Zq?

        """

    static func placeholder(at position: NamePosition) -> String {
        switch position {
        case .type: "Zq"
        case .property, .storedName: "qz"
        case .enumCase: "zq"
        case .structField: "zqf"
        }
    }

    /// An app file that uses each type as apps do; it compiles only while the name still means
    /// the standard type, not a model's alias.
    static func appUsage(of names: [String]) -> String {
        let uses: [String: String] = [
            "Schema": "let _ = Schema.Version(1, 0, 0)",
            "Model": "@Model final class AppModel { var v = 0; init() {} }",
            "ModelContext": "func appSave(_ c: ModelContext) throws { try c.save() }",
            "ModelContainer":
                "func appOpen() throws -> ModelContainer { try ModelContainer(for: Schema(versionedSchema: "
                + "NSchema.self)) }",
            "ModelConfiguration": "let _ = ModelConfiguration(isStoredInMemoryOnly: true)",
            "PersistentModel": "func appModel(_ m: any PersistentModel) {}",
            "VersionedSchema": "func appSchema(_ s: any VersionedSchema.Type) {}",
            "SchemaMigrationPlan": "func appPlan(_ p: any SchemaMigrationPlan.Type) {}",
            "MigrationStage": "func appStage(_ s: MigrationStage) {}",
            "FetchDescriptor":
                "func appFetch<T: PersistentModel>(_: T.Type) -> FetchDescriptor<T> { FetchDescriptor<T>() }",
            "Predicate": "func appPredicate(_ p: Predicate<Int>) {}",
            "SortDescriptor": "func appSort<T>(_ d: SortDescriptor<T>) {}",
            "PersistentIdentifier": "let _: PersistentIdentifier.Type = SwiftData.PersistentIdentifier.self",
            "String": "let _: String = \"text\"", "Int": "let _: Int = 1", "Int8": "let _: Int8 = 1",
            "Int16": "let _: Int16 = 1",
            "Int32": "let _: Int32 = 1", "Int64": "let _: Int64 = 1", "UInt": "let _: UInt = 1",
            "UInt8": "let _: UInt8 = 1",
            "UInt16": "let _: UInt16 = 1", "UInt32": "let _: UInt32 = 1", "UInt64": "let _: UInt64 = 1",
            "Double": "let _: Double = 1.5",
            "Float": "let _: Float = 1.5", "Bool": "let _: Bool = true", "Decimal": "let _: Decimal = 1",
            "Date": "let _ = Date.now",
            "Data": "let _ = Data()", "UUID": "let _ = UUID()", "URL": "let _ = URL(string: \"https://example.com\")",
            "Array": "let _: Array<Int> = []", "Optional": "let _: Optional<Int> = nil",
            "Dictionary": "let _: Dictionary<String, Int> = [:]",
            "Set": "let _: Set<Int> = []", "Character": "let _: Character = \"c\"",
            "Error": "struct AppError: Error {}",
            "Codable": "struct AppValue: Codable {}", "Sendable": "struct AppSendable: Sendable {}",
            "Hashable": "struct AppKey: Hashable {}",
            "Equatable": "struct AppSame: Equatable {}", "Identifiable": "struct AppItem: Identifiable { var id: Int }",
            "CaseIterable": "enum AppCase: CaseIterable { case a }",
            "Observable": "struct AppObserved: Observation.Observable {}; struct AppWatched: Observable {}",
            "Foundation": "let _ = Foundation.Date.self", "SwiftData": "let _ = SwiftData.Schema.self",
            "Swift": "let _ = Swift.Int.self",
            "App": "struct AppEntry: App { var body: some Scene { WindowGroup { AppScreen() } } }",
            "Scene": "func appScene() -> some Scene { WindowGroup { AppScreen() } }",
            "View": "struct AppScreen: View { var body: some View { AppScreen() } }",
            "WindowGroup": "let _ = WindowGroup { AppScreen() }",
        ]
        // A statement goes in a function of its own: a library file has no top-level code.
        let lines = names.sorted().compactMap { name in
            uses[name].map { $0.hasPrefix("let ") ? "func use\(name)() { \($0) }" : $0 }
        }
        // SwiftUI is the stand-in's module of that name (Tests/StandIn/SwiftUI): what hides a
        // type is Swift's lookup, not the type's contents.
        return "import Foundation\nimport Observation\nimport SwiftData\nimport SwiftUI\n\n"
            + lines.joined(separator: "\n")
            + "\n"
    }

    static func compileProbe(
        _ files: [(name: String, contents: String)], replacing placeholder: String, with name: String, app: String,
        compile: ([String]) throws -> StandInTypeCheckTests.CompileResult = StandInTypeCheckTests.typeCheck
    ) throws
        -> StandInTypeCheckTests.CompileResult
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-refused-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let word = try Regex("\\b\(placeholder)\\b")
        var paths: [String] = []
        for (index, file) in (files + [("AppUses.swift", app)]).enumerated() {
            let path = folder.appendingPathComponent("\(index)-\(file.name)").path
            try file.contents.replacing(word, with: name).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        return try compile(paths)
    }
}
