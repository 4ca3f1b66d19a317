import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Type-checks generated code against Apple's own SwiftData interface, not the stand-in: Apple's
/// iOS SDKs in `../shared/apple-sdk` with the project's `SwiftDataMacros` plugin built for each
/// SDK's Xcode on Linux, the installed SDK with Xcode's macros on a Mac
/// (`scripts/apple-sdk-flags.sh`). Swift 6 mode, complete concurrency checking, warnings as errors,
/// and `-target` at the history's own iOS floor, so availability is enforced as Xcode enforces it.
///
/// Each case is checked against every SDK an app of its floor is built with: floor 17 against
/// 17.4 and 26.2 (Xcode 26 builds a floor-17 app with the 26 SDK), floor 18 against 18.6 and 26.2,
/// floor 26 against 26.2, and every floor against 27.0 (Xcode 27) both at the floor and at iOS 27,
/// where an app that raises its target sees every API unguarded. The upgrade tests (`import Testing`) are not checked: Swift Testing is not
/// part of the SDKs' frameworks. The examples are checked as the golden cases whose input is their
/// schema; their `main.swift` files are not, on Linux: `#Predicate` needs Foundation's macros,
/// whose Linux build expands to `FoundationEssentials` spellings.
final class AppleSDKTypeCheckTests: XCTestCase {
    /// One compile: a case's files as one module, at one deployment target, against one SDK.
    struct Check: Sendable {
        var name: String
        var sdk: AppleSDK
        var iOSFloor: Int
        var files: [String]
    }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    /// What the check found: each compile and its result, and the SDKs that were not there to
    /// check against (only where `SDG_REQUIRE_APPLE_SDK` is not set).
    struct Checked: Sendable {
        var results: [(check: Check, result: Result<StandInTypeCheckTests.CompileResult, any Error>)]
        var sdks: [AppleSDK.Kind: AppleSDK]
        var missing: [AppleSDK.Kind: String]
    }

    static let checked = SharedResult<Checked> {
        let (sdks, missing) = try AppleSDK.readyAll([.iOS17, .iOS18, .iOS26, .iOS27])
        guard !sdks.isEmpty else { throw XCTSkip("no Apple SDK to check against: \(missing)") }
        var checks: [Check] = []
        for name in GoldenTests.caseNames {
            let folder = GoldenTests.folder(name)
            let committed = try AppleSDKTypeCheckTests.swiftFiles(in: folder.appendingPathComponent("expected"))
                .filter { !AppleSDKTypeCheckTests.isUpgradeTest($0) }
            guard !committed.isEmpty else { continue }
            let hooks = try AppleSDKTypeCheckTests.swiftFiles(in: folder.appendingPathComponent("hooks"))
            let floor = try AppleSDKTypeCheckTests.iOSFloor(
                ofInput: folder.appendingPathComponent("input").resolvingSymlinksInPath().path)
            for (kind, target) in AppleSDK.Kind.checking(iOSFloor: floor) {
                guard let sdk = sdks[kind] else { continue }
                checks.append(Check(name: name, sdk: sdk, iOSFloor: target, files: committed + hooks))
            }
        }
        let results = checks.parallelMapLongestFirst(cost: { sourceBytes($0.files) }) { check in
            (check, Result { try check.sdk.typeCheck(check.files, floor: check.iOSFloor) })
        }
        return Checked(results: results, sdks: sdks, missing: missing)
    }

    func testEveryGeneratedFileTypeChecksAgainstApplesSwiftData() throws {
        let checked = try Self.checked.get()
        var files: [AppleSDK.Kind: Int] = [:]
        var cases: [AppleSDK.Kind: Int] = [:]
        for (check, result) in checked.results {
            let outcome = try result.get()
            files[check.sdk.kind, default: 0] += check.files.count
            cases[check.sdk.kind, default: 0] += 1
            XCTAssertEqual(
                outcome.status, 0,
                "\(check.name) does not type-check against \(check.sdk.name) at iOS "
                    + "\(check.iOSFloor):\n\(outcome.output)")
        }
        let checkedCases = Set(checked.results.map(\.check.name))
        let unchecked = GoldenTests.caseNames.filter { name in
            !checkedCases.contains(name)
                && !((try? Self.swiftFiles(in: GoldenTests.folder(name).appendingPathComponent("expected")))?.filter {
                    !Self.isUpgradeTest($0)
                }.isEmpty ?? true)
        }
        if checked.missing.isEmpty { XCTAssertEqual(unchecked, [], "cases checked against no SDK") }
        let summary = checked.sdks.keys.sorted { $0.rawValue < $1.rawValue }.map { kind in
            "\(checked.sdks[kind]?.name ?? "?"): \(cases[kind] ?? 0) cases, \(files[kind] ?? 0) files"
        }
        let absent = checked.missing.keys.sorted { $0.rawValue < $1.rawValue }.map {
            "\($0.rawValue) (\(checked.missing[$0] ?? ""))"
        }
        print(
            "apple-sdk: \(summary.joined(separator: "; ")); not checked for want of an SDK: "
                + (absent.isEmpty ? "nothing" : absent.joined(separator: ", ")))
        XCTAssertGreaterThanOrEqual(checkedCases.count, 25, "cases went missing from the check")
        // A floor's SDK that is absent leaves that floor unchecked, which is a skip, not a pass.
        if !checked.missing.isEmpty {
            throw XCTSkip("not checked against \(absent.joined(separator: ", "))")
        }
    }

    /// The SDK's modules are built without the SIL optimiser through an LLVM option of the
    /// compiler's; one that does not know it refuses it, and the warm-up still succeeds without.
    func testTheWarmUpDropsAnOptionTheCompilerRefuses() throws {
        let sdk = try AppleSDK.ready()
        let unknown = ["-Xllvm", "-sdg-no-such-option"]
        let refused = try sdk.typeCheck(source: "import SwiftData\n", floor: 17, extraFlags: unknown)
        XCTAssertNotEqual(refused.status, 0, "the compiler accepted an LLVM option it cannot have")
        XCTAssertEqual(try sdk.warmUp(extraFlags: unknown).status, 0)
        let fast = try sdk.typeCheck(
            source: "import SwiftData\n", floor: 17, extraFlags: AppleSDK.withoutSILOptimizer)
        XCTAssertEqual(
            fast.status, 0,
            "this compiler refuses \(AppleSDK.withoutSILOptimizer.joined(separator: " ")): the SDK's modules are "
                + "built with the optimiser on a new machine, about 9 CPU-seconds more (BENCHMARKS.md):\n\(fast.output)"
        )
    }

    /// The history's iOS floor as the generator reads it; a config that names no iOS floor is
    /// checked at the iOS release of its other floors.
    static func iOSFloor(ofInput input: String) throws -> Int {
        let sources = try SchemaLoader.read(directory: input).get()
        let platforms =
            Generator.validate(sources).histories.first?.config.platforms ?? GeneratorConfig.defaultPlatforms
        if let iOS = platforms[.iOS] { return iOS.major }
        let macOS = platforms[.macOS]?.major ?? 14
        return macOS >= 26 ? macOS : macOS + 3
    }

    /// Every example's schema folder is a golden case's input, so the examples' output is checked
    /// as that case (GoldenTests and `.ci/run`'s `check` hold the committed `Generated/` folders to it).
    func testEveryExampleIsCheckedAsAGoldenCase() throws {
        let examples = TestPaths.packageRoot.appendingPathComponent("examples")
        let inputs = Set(
            GoldenTests.caseNames.map {
                GoldenTests.folder($0).appendingPathComponent("input").resolvingSymlinksInPath().path
            })
        let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter {
            FileManager.default.fileExists(atPath: examples.appendingPathComponent("\($0)/Package.swift").path)
        }
        XCTAssertGreaterThanOrEqual(names.count, 3)
        for name in names {
            let schema = examples.appendingPathComponent("\(name)/Sources/\(name)/Schema").resolvingSymlinksInPath()
            XCTAssertTrue(inputs.contains(schema.path), "examples/\(name)'s schema is no golden case's input")
        }
    }

    static func swiftFiles(in folder: URL) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    static func isUpgradeTest(_ path: String) -> Bool {
        (try? String(contentsOfFile: path, encoding: .utf8))?.contains("\nimport Testing\n") ?? false
    }
}

/// The SDK check refuses what Xcode refuses, and the stand-in refuses it too: each source below is
/// compiled against one of Apple's SDKs (with the project's `SwiftDataMacros` for that SDK's Xcode
/// on Linux) and against the stand-in. A check that cannot fail proves nothing, so each refusal
/// names its error.
final class AppleSDKRefusalTests: XCTestCase {
    struct Sample: Sendable {
        var name: String
        var source: String
        var sdk = AppleSDK.Kind.iOS17
        var iOSFloor = 17
        /// What Apple's compiler says; nil where the source must compile.
        var appleError: String?
        /// What the stand-in says; nil where it must compile, `.unchecked` where Linux cannot tell.
        var standIn: StandInVerdict

        enum StandInVerdict: Sendable, Equatable {
            case compiles
            case refuses(String)
            /// Availability is an Apple platform's: on Linux the stand-in's `@available` is not
            /// enforced; nor is what an older SDK lacks, since the stand-in is the newest.
            case unchecked
        }
    }

    /// A struct stored as its encoding (iOS 27), as the generator writes `codable: true`.
    static let codable = """
        import Foundation
        import SwiftData

        struct Spot: Codable, Hashable {
            var x: Double
            var y: Double
        }

        @Model final class Place {
            @Attribute(.codable) var spot: Spot
            @Attribute(.codable) var route: [Spot]?
            init(spot: Spot) {
                self.spot = spot
            }
        }

        """

    /// `#Unique` and `#Index` (iOS 18), each in both of its forms where it has two.
    static let constrained = """
        import Foundation
        import SwiftData

        @Model final class Person {
            #Unique<Person>([\\.code], [\\.givenName, \\.familyName])
            #Index<Person>([\\.familyName], [\\.givenName, \\.familyName])
            #Index<Person>(.binary([\\.code]))
            var code: String
            var givenName: String
            var familyName: String
            init(code: String, givenName: String, familyName: String) {
                self.code = code
                self.givenName = givenName
                self.familyName = familyName
            }
        }

        """

    /// A model subclass (iOS 26).
    static let subclassed = """
        import Foundation
        import SwiftData

        @Model class Animal {
            var name: String
            init(name: String) { self.name = name }
        }

        @Model final class Dog: Animal {
            var breed: String
            init(breed: String, name: String) {
                self.breed = breed
                super.init(name: name)
            }
        }

        """

    static let model = """
        import Foundation
        import SwiftData

        struct Measure: Codable, Hashable { var value: Double }
        enum Mood: String, Codable { case calm, busy }
        final class Paint {}

        @Model final class Item {
            var name: String
            var measure: Measure?
            var mood: Mood = Mood.calm
            var tags: [String] = []
            @Attribute(.transformable(by: "PaintTransformer")) var paint: Paint?
            @Relationship(deleteRule: .cascade, inverse: \\Part.owner) var parts: [Part] = []
            init(name: String) { self.name = name }
        }

        @Model final class Part {
            var owner: Item?
            init() {}
        }

        """

    static let samples: [Sample] = [
        Sample(name: "a model of storable types", source: model, standIn: .compiles),
        Sample(
            name: "a property whose type is not Codable",
            source: model.replacingOccurrences(of: "var measure: Measure?", with: "var measure: Paint?"),
            appleError: "requires that 'Paint' conform to", standIn: .refuses("requires that 'Paint' conform to")),
        Sample(
            name: "an inverse that names no property",
            source: model.replacingOccurrences(of: "\\Part.owner", with: "\\Part.holder"),
            appleError: "has no member 'holder'", standIn: .refuses("has no member 'holder'")),
        Sample(
            name: "@Model below iOS 17", source: model, iOSFloor: 16,
            appleError: "'Model()' is only available in iOS 17 or newer", standIn: .unchecked),
        Sample(
            name: "a stored isDeleted of the type PersistentModel requires",
            source: model.replacingOccurrences(of: "var tags: [String] = []", with: "var isDeleted: Bool = false"),
            standIn: .compiles),
        // Compiles: the protocol's `isDeleted` stays beside it. The generator refuses it by Core
        // Data's rule on NSManagedObject's member names (documented), not by the compiler.
        Sample(
            name: "a stored isDeleted of another type",
            source: model.replacingOccurrences(of: "var tags: [String] = []", with: "var isDeleted: Bool? = nil"),
            standIn: .unchecked),
        Sample(
            name: "#Unique in the iOS 17 SDK",
            source: model.replacingOccurrences(
                of: "var owner: Item?", with: "#Unique<Part>([\\.owner])\n    var owner: Item?"),
            appleError: "no macro named 'Unique'", standIn: .unchecked),
        Sample(
            name: "a stored versionIdentifier",
            source: model + """
                enum V1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self, Part.self] }
                }
                """,
            appleError: "not concurrency-safe", standIn: .refuses("not concurrency-safe")),
        Sample(
            name: "a shared ModelConfiguration",
            source: model
                + "enum Store { static let configuration = ModelConfiguration(isStoredInMemoryOnly: true) }\n",
            appleError: "not concurrency-safe", standIn: .refuses("not concurrency-safe")),
        Sample(
            name: "Foundation's types with only SwiftData imported",
            source: "import SwiftData\n\nfunc today() -> Date { Date.now }\n",
            appleError: "cannot find type 'Date' in scope", standIn: .refuses("cannot find type 'Date' in scope")),
        Sample(
            name: "stored stages",
            source: model + """
                enum Plan {
                    static let stages: [MigrationStage] = []
                }
                """,
            appleError: "not concurrency-safe", standIn: .refuses("not concurrency-safe")),
        Sample(
            name: "#Unique and #Index at iOS 18", source: constrained, sdk: .iOS18, iOSFloor: 18, standIn: .compiles),
        Sample(
            name: "#Unique and #Index at iOS 18 with the iOS 26 SDK", source: constrained, sdk: .iOS26, iOSFloor: 18,
            standIn: .compiles),
        Sample(
            name: "#Unique below iOS 18",
            source: constrained.replacingOccurrences(of: "#Index<Person>", with: "// #Index<Person>"), sdk: .iOS18,
            appleError: "'Unique' is only available in iOS 18 or newer", standIn: .unchecked),
        Sample(
            name: "#Index below iOS 18",
            source: constrained.replacingOccurrences(of: "#Unique<Person>", with: "// #Unique<Person>"), sdk: .iOS26,
            appleError: "'Index' is only available in iOS 18 or newer", standIn: .unchecked),
        Sample(
            name: "#Unique naming no property",
            source: constrained.replacingOccurrences(of: "[\\.code], [\\.given", with: "[\\.badge], [\\.given"),
            sdk: .iOS18, iOSFloor: 18,
            appleError: "to expected argument type '[PartialKeyPath<Person>]'",
            standIn: .refuses("to expected argument type '[PartialKeyPath<Person>]'")),
        Sample(
            name: "a model sent across actors",
            source: constrained
                + "func keep(_ value: some Sendable) {}\nfunc send(_ person: Person) { keep(person) }\n",
            sdk: .iOS18, iOSFloor: 18,
            appleError: "conformance of 'Person' to 'Sendable' is unavailable", standIn: .refuses("'Sendable'")),
        Sample(name: "a model subclass at iOS 26", source: subclassed, sdk: .iOS26, iOSFloor: 26, standIn: .compiles),
        Sample(
            name: "a model subclass below iOS 26", source: subclassed, sdk: .iOS26, iOSFloor: 18,
            appleError: "is only available in iOS 26.0 or newer", standIn: .unchecked),
        Sample(
            name: "a model subclass in the iOS 18 SDK", source: subclassed, sdk: .iOS18, iOSFloor: 18,
            appleError: "cannot override", standIn: .unchecked),
        Sample(
            name: "a relationship that is its own inverse (SDG203)",
            source: "import SwiftData\n\n@Model final class Node {\n    @Relationship(inverse: \\Node.parent)\n"
                + "    var parent: Node?\n    init() {}\n}\n",
            sdk: .iOS18, iOSFloor: 18, appleError: "circular reference", standIn: .refuses("circular reference")),
        Sample(
            name: "an initial value that ends with an operator (SDG310)",
            source: "import SwiftData\n\n@Model final class A {\n    var n: Int = 0 +\n    init() {}\n}\n",
            sdk: .iOS18, iOSFloor: 18, appleError: "initializer expression requires explicit access",
            standIn: .refuses("initializer expression requires explicit access")),
        Sample(
            name: "'try' right of an operator in an initial value (SDG310)",
            source:
                "import SwiftData\n\n@Model final class A {\n    var n: Int = 1 + try Int(\"2\")!\n    init() {}\n}\n",
            sdk: .iOS18, iOSFloor: 18, appleError: "'try' cannot appear to the right of a non-assignment operator",
            standIn: .refuses("'try' cannot appear to the right of a non-assignment operator")),
        Sample(
            name: "an 'if' used as an operand in an initial value (SDG310)",
            source: "import SwiftData\n\n@Model final class A {\n    var n: Int = if true { 1 } else { 2 } + 1\n"
                + "    init() {}\n}\n",
            sdk: .iOS18, iOSFloor: 18,
            appleError: "'if' may only be used as expression in return, throw, or as the source of an assignment",
            standIn: .refuses("'if' may only be used as expression in return, throw, or as the source of an assignment")
        ),
        Sample(
            name: "an internal id in a public model (SDG112)",
            source: "import Foundation\nimport SwiftData\n\n@Model public final class A {\n    var id: UUID = UUID()\n"
                + "    public init() {}\n}\n",
            sdk: .iOS18, iOSFloor: 18, appleError: "must be declared public because it matches a requirement",
            standIn: .refuses("must be declared public because it matches a requirement")),
        Sample(name: "@Attribute(.codable) at iOS 27", source: codable, sdk: .iOS27, iOSFloor: 27, standIn: .compiles),
        Sample(
            name: "@Attribute(.codable) below iOS 27 (SDG312)", source: codable, sdk: .iOS27, iOSFloor: 26,
            appleError: "'codable' is only available in iOS 27 or newer", standIn: .unchecked),
        Sample(
            name: "@Attribute(.codable) in the iOS 26 SDK", source: codable, sdk: .iOS26, iOSFloor: 26,
            appleError: "has no member 'codable'", standIn: .unchecked),
    ]

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    /// Every sample against Apple's SwiftData and against the stand-in, side by side (made by the
    /// suite's prefetch when the whole suite runs).
    static let verdicts = SharedResult<
        [(
            sample: Sample, apple: Result<StandInTypeCheckTests.CompileResult, any Error>,
            standIn: Result<StandInTypeCheckTests.CompileResult, any Error>
        )]
    > {
        let (sdks, absent) = try AppleSDK.readyAll(Array(Set(samples.map(\.sdk))))
        let standInFlags = try StandInTypeCheckTests.standInFlags()
        return samples.parallelMap { sample in
            (
                sample,
                Result {
                    guard let sdk = sdks[sample.sdk] else {
                        throw XCTSkip(absent[sample.sdk] ?? "\(sample.sdk.rawValue) is not here")
                    }
                    return try sdk.typeCheck(source: sample.source, floor: sample.iOSFloor)
                },
                Result { try standInCheck(sample.source, flags: standInFlags) }
            )
        }
    }

    func testAppleAndTheStandInRefuseWhatXcodeRefuses() throws {
        var skipped: [String] = []
        var reasons: [String] = []
        for (sample, apple, standIn) in try Self.verdicts.get() {
            let real: StandInTypeCheckTests.CompileResult
            do { real = try apple.get() } catch let skip as XCTSkip {
                skipped.append(sample.name)
                if !reasons.contains(skip.reason) { reasons.append(skip.reason) }
                continue
            }
            if let expected = sample.appleError {
                XCTAssertNotEqual(real.status, 0, "\(sample.name) compiles against Apple's SwiftData")
                XCTAssertTrue(
                    real.output.contains(expected), "\(sample.name): expected '\(expected)' in:\n\(real.output)")
            } else {
                XCTAssertEqual(
                    real.status, 0, "\(sample.name) does not compile against Apple's SwiftData:\n\(real.output)")
            }
            let ours = try standIn.get()
            switch sample.standIn {
            case .compiles:
                XCTAssertEqual(ours.status, 0, "\(sample.name) does not compile against the stand-in:\n\(ours.output)")
            case .refuses(let expected):
                XCTAssertNotEqual(
                    ours.status, 0, "the stand-in accepts \(sample.name), which Apple's SwiftData refuses")
                XCTAssertTrue(
                    ours.output.contains(expected), "\(sample.name): expected '\(expected)' in:\n\(ours.output)")
            case .unchecked:
                break
            }
        }
        if !skipped.isEmpty {
            throw XCTSkip(
                "not compiled for want of their SDK: \(skipped.joined(separator: "; ")); why: "
                    + reasons.joined(separator: "; "))
        }
    }

    static func standInCheck(_ source: String, flags: [String]) throws -> StandInTypeCheckTests.CompileResult {
        let file = try AppleSDK.scratchFolder("stand-in").appendingPathComponent("\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try StandInTypeCheckTests.typeCheck([file.path])
    }
}
