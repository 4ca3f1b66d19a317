import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Type-checks generated code against Apple's own SwiftData interface, not the stand-in: the iOS
/// SDK in `../shared/apple-sdk` (or `$SDG_APPLE_SDK`) with the project's `SwiftDataMacros` plugin on
/// Linux, the installed iPhoneOS SDK with Xcode's macros on a Mac (`scripts/apple-sdk-flags.sh`).
/// Swift 6 mode, complete concurrency checking, warnings as errors, and `-target` at the history's
/// iOS floor, so availability is enforced as Xcode enforces it.
///
/// What an SDK cannot check: code for a floor above its own release (the 17.4 SDK has no `#Unique`,
/// `#Index` or model inheritance, which need iOS 18 and 26). Such a history is generated again at
/// the SDK's floor and checked there when the generator accepts it; when it refuses, every error
/// must be one of the newer-release refusals, and the case is named in the test's output. The
/// upgrade tests (`import Testing`) are not checked: Swift Testing is not part of the SDK's
/// frameworks. The examples are checked as the golden cases whose input is their schema; their
/// `main.swift` files are not, on Linux: `#Predicate` needs Foundation's macros, whose Linux build
/// expands to `FoundationEssentials` spellings.
final class AppleSDKTypeCheckTests: XCTestCase {
    /// One compile: a case's files as one module, at one deployment target.
    struct Check: Sendable {
        var name: String
        var iOSFloor: Int
        var files: [String]
        /// Why the files are not the case's own committed output, when they are not.
        var note: String?
    }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    /// What the check found: each compile and its result, and the cases the SDK cannot check.
    struct Checked: Sendable {
        var results: [(check: Check, result: Result<StandInTypeCheckTests.CompileResult, any Error>)]
        /// A case the generator refuses at the SDK's floor, with the codes it refuses with.
        var refused: [(name: String, floor: Int, codes: Set<String>)]
    }

    static let checked = SharedResult<Checked> {
        let sdk = try AppleSDK.ready()
        var checks: [Check] = []
        var refused: [(name: String, floor: Int, codes: Set<String>)] = []
        let scratch = try AppleSDK.scratchFolder("cases")
        for name in GoldenTests.caseNames {
            let folder = GoldenTests.folder(name)
            let committed = try AppleSDKTypeCheckTests.swiftFiles(in: folder.appendingPathComponent("expected"))
                .filter { !AppleSDKTypeCheckTests.isUpgradeTest($0) }
            guard !committed.isEmpty else { continue }
            let hooks = try AppleSDKTypeCheckTests.swiftFiles(in: folder.appendingPathComponent("hooks"))
            let floor = try AppleSDKTypeCheckTests.iOSFloor(of: name)
            if floor <= sdk.major {
                checks.append(Check(name: name, iOSFloor: floor, files: committed + hooks))
                continue
            }
            switch try AppleSDKTypeCheckTests.generatedAtFloor(name, floor: sdk.major, into: scratch) {
            case .files(let files):
                checks.append(
                    Check(
                        name: name, iOSFloor: sdk.major, files: files + hooks,
                        note: "generated again at iOS \(sdk.major); its own floor is iOS \(floor)"))
            case .refused(let codes):
                refused.append((name, floor, codes))
            }
        }
        let results = checks.parallelMapLongestFirst(cost: { sourceBytes($0.files) }) { check in
            (check, Result { try sdk.typeCheck(check.files, iOSFloor: check.iOSFloor) })
        }
        return Checked(results: results, refused: refused)
    }

    func testEveryGeneratedFileTypeChecksAgainstApplesSwiftData() throws {
        let sdk = try AppleSDK.shared()
        let checked = try Self.checked.get()
        var unchecked: [String] = []
        for (name, floor, codes) in checked.refused {
            let unexpected = codes.subtracting(Self.newerReleaseRefusals).subtracting(Self.consequences)
            XCTAssertTrue(
                unexpected.isEmpty && !codes.isDisjoint(with: Self.newerReleaseRefusals),
                "\(name) at iOS \(sdk.major) is refused for a reason that is not a newer release: \(codes)")
            unchecked.append("\(name) (iOS \(floor): \(codes.sorted().joined(separator: ", ")) at iOS \(sdk.major))")
        }
        var files = 0
        for (check, result) in checked.results {
            let outcome = try result.get()
            files += check.files.count
            XCTAssertEqual(
                outcome.status, 0,
                "\(check.name) does not type-check against \(sdk.name) at iOS \(check.iOSFloor)"
                    + (check.note.map { " (\($0))" } ?? "") + ":\n\(outcome.output)")
        }
        let checks = checked.results.map(\.check)
        let regenerated = checks.filter { $0.note != nil }.map(\.name)
        print(
            "apple-sdk: \(checks.count) cases, \(files) files checked against \(sdk.name) (generated again at iOS "
                + "\(sdk.major): \(regenerated.joined(separator: ", "))); not checkable at "
                + "\(sdk.name): \(unchecked.isEmpty ? "none" : unchecked.joined(separator: "; "))")
        XCTAssertGreaterThanOrEqual(checks.count, 25, "cases went missing from the check")
    }

    /// The SDK's modules are built without the SIL optimiser through an LLVM option of the
    /// compiler's; one that does not know it refuses it, and the warm-up still succeeds without.
    func testTheWarmUpDropsAnOptionTheCompilerRefuses() throws {
        let sdk = try AppleSDK.ready()
        let unknown = ["-Xllvm", "-sdg-no-such-option"]
        let refused = try sdk.typeCheck(source: "import SwiftData\n", iOSFloor: 17, extraFlags: unknown)
        XCTAssertNotEqual(refused.status, 0, "the compiler accepted an LLVM option it cannot have")
        XCTAssertEqual(try sdk.warmUp(extraFlags: unknown).status, 0)
        let fast = try sdk.typeCheck(
            source: "import SwiftData\n", iOSFloor: 17, extraFlags: AppleSDK.withoutSILOptimizer)
        XCTAssertEqual(
            fast.status, 0,
            "this compiler refuses \(AppleSDK.withoutSILOptimizer.joined(separator: " ")): the SDK's modules are "
                + "built with the optimiser on a new machine, about 9 CPU-seconds more (BENCHMARKS.md):\n\(fast.output)"
        )
    }

    /// The refusals a history gets only because its floor was lowered to the SDK's.
    static let newerReleaseRefusals: Set<String> = [
        DiagnosticCode.uniqueNeedsNewerPlatform.rawValue, DiagnosticCode.indexNeedsNewerPlatform.rawValue,
        DiagnosticCode.inheritanceNeedsNewerPlatform.rawValue,
    ]

    /// What may follow from a newer-release refusal: two versions that differ only in an index
    /// are the same version once the index is refused.
    static let consequences: Set<String> = [DiagnosticCode.identicalVersions.rawValue]

    enum Regenerated {
        case files([String])
        case refused(Set<String>)
    }

    /// The case's history with its config's floors lowered to the SDK's release, generated into
    /// a folder of its own.
    static func generatedAtFloor(_ name: String, floor: Int, into scratch: URL) throws -> Regenerated {
        let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
        var sources = try SchemaLoader.read(directory: input).get()
        guard let config = sources.config else { return .refused([]) }
        let text = String(decoding: config.bytes, as: UTF8.self)
        let lowered = text.replacing(/platforms:[^\n]*/) { _ in "platforms: \(platforms(at: floor))" }
        sources.config?.bytes = Array(lowered.utf8)
        let output = Generator.generate(sources, templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        guard !output.diagnostics.hasErrors else {
            return .refused(Set(output.diagnostics.filter { $0.severity == .error }.map(\.code.rawValue)))
        }
        let folder = scratch.appendingPathComponent(name.replacingOccurrences(of: "/", with: "-"))
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return .files(
            try output.files.filter { $0.name.hasSuffix(".swift") }.map { file in
                let path = folder.appendingPathComponent(file.name)
                try file.contents.write(to: path, atomically: true, encoding: .utf8)
                return path.path
            })
    }

    /// The floors of every platform in SwiftData's first release that matches iOS `floor`.
    static func platforms(at floor: Int) -> String {
        floor >= 18 ? "{ iOS: \(floor), macOS: \(floor - 3) }" : "{ iOS: 17, macOS: 14 }"
    }

    /// The history's iOS floor as the generator reads it; a config that names no iOS floor is
    /// checked at the iOS release of its other floors.
    static func iOSFloor(of name: String) throws -> Int {
        let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
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
/// compiled against Apple's interface (with the project's `SwiftDataMacros` on Linux) and against
/// the stand-in. A check that cannot fail proves nothing, so each refusal names its error.
final class AppleSDKRefusalTests: XCTestCase {
    struct Sample: Sendable {
        var name: String
        var source: String
        var iOSFloor = 17
        /// What Apple's compiler says; nil where the source must compile.
        var appleError: String?
        /// What the stand-in says; nil where it must compile, `.unchecked` where Linux cannot tell.
        var standIn: StandInVerdict

        enum StandInVerdict: Sendable, Equatable {
            case compiles
            case refuses(String)
            /// Availability is an Apple platform's: on Linux the stand-in's `@available` is not enforced.
            case unchecked
        }
    }

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
        let sdk = try AppleSDK.ready()
        let standInFlags = try StandInTypeCheckTests.standInFlags()
        return samples.parallelMap { sample in
            (
                sample,
                Result { try sdk.typeCheck(source: sample.source, iOSFloor: sample.iOSFloor) },
                Result { try standInCheck(sample.source, flags: standInFlags) }
            )
        }
    }

    func testAppleAndTheStandInRefuseWhatXcodeRefuses() throws {
        for (sample, apple, standIn) in try Self.verdicts.get() {
            let real = try apple.get()
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
    }

    static func standInCheck(_ source: String, flags: [String]) throws -> StandInTypeCheckTests.CompileResult {
        let file = try AppleSDK.scratchFolder("stand-in").appendingPathComponent("\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try StandInTypeCheckTests.typeCheck([file.path])
    }
}
