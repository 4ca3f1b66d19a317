import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Runs generated upgrade tests in the SwiftData stand-in's migration simulator: every golden's
/// plan migrates a store written at every older version to the latest, with the rows the tests
/// seed, and the stand-in's checksum agrees with the generator's store identity.
final class SimulatorTests: XCTestCase {
    struct Build {
        var binary: URL
        var folder: URL
    }

    /// Every golden compiled once against the stand-in, in Swift 6 mode with warnings as errors,
    /// shared by the type-check test and the simulator: a golden with upgrade tests is linked with
    /// them into a binary that runs them, one without is type-checked. Cores compile one golden each.
    struct GoldenCompile: Sendable {
        var name: String
        var result: StandInTypeCheckTests.CompileResult
        /// The built binary's run of the upgrade tests, and its `--checksums` run; nil for a
        /// golden without upgrade tests or one that did not build.
        var upgrade: StandInTypeCheckTests.CompileResult?
        var checksums: StandInTypeCheckTests.CompileResult?
    }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    static let goldens = SharedResult<[GoldenCompile]> {
        _ = try StandInTypeCheckTests.standInFlags()
        let names = GoldenTests.caseNames
        let outcomes = names.parallelMapLongestFirst(cost: {
            (try? sourceBytes(StandInTypeCheckTests.sources(of: $0))) ?? 0
        }) { name in
            Result { () throws -> GoldenCompile? in
                if let (result, build) = try SimulatorTests.compile(name) {
                    guard let build else { return GoldenCompile(name: name, result: result) }
                    defer { try? FileManager.default.removeItem(at: build.folder) }
                    return GoldenCompile(
                        name: name, result: result,
                        upgrade: try StandInTypeCheckTests.run(
                            build.binary.path, [], environment: upgradeEnvironment(name)),
                        checksums: try StandInTypeCheckTests.run(build.binary.path, ["--checksums"]))
                }
                let files = try StandInTypeCheckTests.sources(of: name)
                guard !files.isEmpty else { return nil }
                return GoldenCompile(name: name, result: try StandInTypeCheckTests.typeCheck(files))
            }
        }
        return try outcomes.compactMap { try $0.get() }
    }

    static func everyGolden() throws -> [GoldenCompile] { try goldens.get() }

    /// Every upgrade is ended at each point and run again; with `SDG_KEEP_SIMULATOR_STORES` set to a
    /// folder, the stores it reads and writes are kept there, a folder per golden (`/` as `+`), for
    /// scripts/check-simulator-stores.sh.
    static func upgradeEnvironment(_ golden: String) -> [String: String] {
        var environment = ["SDG_STANDIN_END_EVERYWHERE": "1"]
        if let folder = ProcessInfo.processInfo.environment["SDG_KEEP_SIMULATOR_STORES"], !folder.isEmpty {
            environment["SDG_STANDIN_KEEP_STORES"] =
                URL(fileURLWithPath: folder).appendingPathComponent(golden.replacingOccurrences(of: "/", with: "+"))
                .path
        }
        return environment
    }

    /// The compiler's result and, when it succeeded, the build; nil for a golden without a plan
    /// and upgrade tests.
    static func compile(_ name: String, replacing replaced: (file: String, contents: String)? = nil) throws -> (
        StandInTypeCheckTests.CompileResult, Build?
    )? {
        var sources = try StandInTypeCheckTests.sources(of: name)
        let plans = sources.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }.filter {
            $0.hasSuffix("MigrationPlan")
        }
        guard !plans.isEmpty, sources.contains(where: { $0.contains("UpgradeFrom") }) else { return nil }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-sim-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        if let replaced, let index = sources.firstIndex(where: { $0.hasSuffix("/" + replaced.file) }) {
            let copy = work.appendingPathComponent(replaced.file)
            try replaced.contents.write(to: copy, atomically: true, encoding: .utf8)
            sources[index] = copy.path
        }
        let checksums = plans.map { plan in
            "for schema in \(plan).schemas { print(\"schema \\(schema)\"); print(Schema(versionedSchema: "
                + "schema)._identityText) }"
        }.joined(separator: "\n    ")
        let main = """
            import Foundation
            import SwiftData
            import Testing

            if CommandLine.arguments.contains("--checksums") {
                \(checksums)
                exit(0)
            }
            await Testing.__swiftPMEntryPoint() as Never

            """
        let mainFile = work.appendingPathComponent("main.swift")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)
        let binary = work.appendingPathComponent("run")
        let standIn = TestPaths.packageRoot.appendingPathComponent(".build/standin").path
        let result = try StandInTypeCheckTests.runTool(
            ["swiftc"] + StandInTypeCheckTests.wholeModule + StandInTypeCheckTests.strictFlags
                + ["-module-name", "Upgrades"]
                + (try StandInTypeCheckTests.standInFlags())
                + ["-Xlinker", "-rpath", "-Xlinker", standIn, "-o", binary.path] + sources + [mainFile.path])
        return (result, result.status == 0 ? Build(binary: binary, folder: work) : nil)
    }

    /// Each golden's binary runs its upgrade tests one after another, beside the others' compiles.
    func testEveryGoldenUpgradesFromEveryOlderVersionInTheSimulator() throws {
        var ran = 0
        var binaries = 0
        var points = 0
        for compiled in try Self.everyGolden().sorted(by: { $0.name < $1.name }) {
            guard let result = compiled.upgrade, let checksums = compiled.checksums else { continue }
            binaries += 1
            XCTAssertEqual(
                result.status, 0, "\(compiled.name): an upgrade test failed in the simulator:\n\(result.output)")
            let expected = try StandInTypeCheckTests.sources(of: compiled.name).filter { $0.contains("UpgradeFrom") }
                .count
            XCTAssertTrue(
                result.output.contains("Test run with \(expected) test"),
                "\(compiled.name): expected \(expected) upgrade tests to run:\n\(result.output)")
            ran += expected
            // Every upgrade is also ended at each point it passes and run again (_StandInEndings).
            let endings = result.output.split(separator: "\n").filter { $0.hasPrefix("stand-in: ended the migration") }
            XCTAssertEqual(
                endings.count, expected,
                "\(compiled.name): each upgrade test's migration must be ended at every point and rerun:\n\(result.output)"
            )
            points += endings.compactMap { line in
                line.split(separator: " ").firstIndex(of: "points,").flatMap { Int(line.split(separator: " ")[$0 - 1]) }
            }.reduce(0, +)
            try checkChecksumsAgree(compiled.name, printed: checksums)
        }
        XCTAssertGreaterThanOrEqual(binaries, 8, "too few goldens have upgrade tests")
        XCTAssertGreaterThanOrEqual(ran, 20, "upgrade tests run in the simulator")
        // Every stage has two points at least: inside its schema step and after it.
        XCTAssertGreaterThanOrEqual(points, 2 * ran, "points where the upgrades were ended and run again")
    }

    /// One call that moves data (a conversion, a copy of a renamed model, a relink) taken out of a
    /// generated plan: the golden and the call.
    struct Mutant: Sendable {
        var name: String
        var call: String
    }

    /// What became of a mutant: the compiler's result when its golden did not build, or its
    /// upgrade run's.
    enum MutantOutcome: Sendable {
        case didNotBuild(StandInTypeCheckTests.CompileResult)
        case ran(StandInTypeCheckTests.CompileResult)
    }

    /// The environment variable that names the call a mutant run leaves out.
    static let removedCall = "SDG_REMOVED_CONVERSION"

    /// Every conversion call of three goldens' plans left out in turn, each golden built once with
    /// its upgrade tests and run once per call: the plan is compiled with each call behind a check
    /// of `removedCall`, so a run that names the call migrates exactly as the plan without it would.
    static let mutants = SharedResult<[(Mutant, Result<MutantOutcome, any Error>)]> {
        struct Golden: Sendable {
            var name: String
            var file: String
            var contents: String
            var calls: [String]
        }
        var goldens: [Golden] = []
        for name in ["upgrade-branches", "upgrade-conversions", "plan-enum-conversion", "plan-model-rename"] {
            guard
                let plan = try StandInTypeCheckTests.sources(of: name).first(where: {
                    $0.hasSuffix("MigrationPlan.swift")
                })
            else { throw AppleSDK.CheckError("\(name) has no plan") }
            let text = try String(contentsOfFile: plan, encoding: .utf8)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let calls = lines.indices.filter { lines[$0].contains(/try \w+\.(convert|copy|relink)\w+\(context\)/) }
            guard !calls.isEmpty else { throw AppleSDK.CheckError("\(name) has no conversion call") }
            var removable: [String] = []
            for (number, index) in calls.enumerated() {
                let call = lines[index].trimmingCharacters(in: .whitespaces)
                removable.append(call)
                lines[index] = "if !conversionIsRemoved(\(number)) { \(call) }"
            }
            lines.append(
                "private func conversionIsRemoved(_ number: Int) -> Bool { "
                    + "ProcessInfo.processInfo.environment[\"\(removedCall)\"] == String(number) }")
            goldens.append(
                Golden(
                    name: name, file: URL(fileURLWithPath: plan).lastPathComponent,
                    contents: lines.joined(separator: "\n"), calls: removable))
        }
        let builds = goldens.parallelMap { golden in
            Result { () throws -> (StandInTypeCheckTests.CompileResult, Build?) in
                guard let compiled = try SimulatorTests.compile(golden.name, replacing: (golden.file, golden.contents))
                else { throw AppleSDK.CheckError("\(golden.name) has no upgrade tests") }
                return compiled
            }
        }
        var runs: [(Mutant, @Sendable () throws -> MutantOutcome)] = []
        for (golden, build) in zip(goldens, builds) {
            for (number, call) in golden.calls.enumerated() {
                runs.append(
                    (
                        Mutant(name: golden.name, call: call),
                        {
                            let (result, binary) = try build.get()
                            guard let binary else { return .didNotBuild(result) }
                            return .ran(
                                try StandInTypeCheckTests.run(
                                    binary.binary.path, [], environment: [removedCall: String(number)]))
                        }
                    ))
            }
        }
        let outcomes = runs.parallelMap { _, run in Result { try run() } }
        for case .success((_, let build?)) in builds { try? FileManager.default.removeItem(at: build.folder) }
        return zip(runs.map(\.0), outcomes).map { ($0, $1) }
    }

    /// An upgrade test must fail when the plan loses a conversion, a copy or a relink: each such
    /// call is left out of a generated plan in turn, and the upgrade tests, run in the simulator, fail.
    func testAPlanMissingAnyOfItsConversionsFailsItsUpgradeTests() throws {
        let outcomes = try Self.mutants.get()
        XCTAssertGreaterThanOrEqual(outcomes.count, 7)
        var keptChecksReported = 0
        for (mutant, outcome) in outcomes {
            let result: StandInTypeCheckTests.CompileResult
            switch try outcome.get() {
            case .didNotBuild(let compile):
                XCTFail("\(mutant.name) with '\(mutant.call)' behind a switch did not compile:\n\(compile.output)")
                continue
            case .ran(let run): result = run
            }
            XCTAssertNotEqual(
                result.status, 0,
                "\(mutant.name): the upgrade tests still pass without '\(mutant.call)':\n\(result.output)")
            // A value check names the property, a count check the model; a store that rejects the
            // defaults left behind (uniqueness, a required value) fails the same test with SwiftData's error.
            XCTAssertTrue(
                result.output.contains("after the upgrade from") || result.output.contains("SwiftData stand-in error")
                    || result.output.contains("Expectation failed: try context.fetchCount("),
                "\(mutant.name) without '\(mutant.call)' failed for another reason:\n\(result.output)")
            keptChecksReported += try checkFailuresPointAtTheirChecks(mutant.name, result.output)
        }
        XCTAssertGreaterThan(keptChecksReported, 0, "no failure was reported at an expectKept line")
    }

    /// Each issue an upgrade test records is reported at the line of the check that failed (an
    /// error thrown out of the test at the test), not inside the function the checks call.
    /// Returns how many were reported at an `expectKept` line.
    private func checkFailuresPointAtTheirChecks(_ name: String, _ output: String) throws -> Int {
        var kept = 0
        var files: [String: [Substring]] = [:]
        for path in try StandInTypeCheckTests.sources(of: name) where path.contains("UpgradeFrom") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            files[URL(fileURLWithPath: path).lastPathComponent] = text.split(
                separator: "\n", omittingEmptySubsequences: false)
        }
        for match in output.matches(of: /recorded an issue at (\w+\.swift):(\d+):/) {
            guard let lines = files[String(match.1)], let number = Int(match.2), number >= 1, number <= lines.count
            else { continue }
            let line = lines[number - 1].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("expectKept(") { kept += 1 }
            XCTAssertTrue(
                line.hasPrefix("expectKept(") || line.hasPrefix("@Test ") || line.contains("#require(")
                    || (line.hasPrefix("#expect(") && !line.contains("sourceLocation: caller")),
                "\(name): an issue is reported at \(match.1):\(number), not at a check: \(line)")
        }
        return kept
    }

    /// Plans a device rejects fail in the simulator with SwiftData's error; the Apple patterns
    /// that work keep the data (Fixtures/Simulator/Scenarios.swift). Each scenario runs in a process
    /// of its own, as model names bind process-wide.
    static let scenarioNames = [
        "duplicate checksum", "shared identifier", "type change", "unique over duplicates", "required added",
        "new types in willMigrate", "unknown model version", "dedupe in willMigrate", "rename by originalName",
        "rename as a drop and an add", "two-stage bridge", "older version first",
    ]
    static let scenarios = SharedResult<[StandInTypeCheckTests.CompileResult]> {
        let source = try String(
            contentsOf: TestPaths.fixtures.appendingPathComponent("Simulator/Scenarios.swift"), encoding: .utf8)
        return try StandInTypeCheckTests.compileAndRun([], main: source, runs: scenarioNames.map { [$0] })
    }

    func testKnownFailuresFailAndApplePatternsPass() throws {
        let results = try Self.scenarios.get()
        for result in results { XCTAssertEqual(result.status, 0, result.output) }
        let lines = Dictionary(
            results.map(\.output).joined().split(separator: "\n").compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), String(line[line.index(colon, offsetBy: 2)...]))
            }, uniquingKeysWith: { first, _ in first })
        let expected: [(String, String)] = [
            ("duplicate checksum", "error 0 Duplicate version checksums across stages detected"),
            ("shared identifier", "error 134110 Item.title and Item.name share the renaming identifier 'title'"),
            ("type change", "error 134110 Item.price: cannot infer a mapping"),
            ("unique over duplicates", "error 133021"),
            (
                "required added",
                "error 134110 Validation error missing attribute values on mandatory destination attribute: Item.stock"
            ),
            ("new types in willMigrate", "error 0 What kind of backing data is this?"),
            ("unknown model version", "error 134504"),
            ("dedupe in willMigrate", "ok lamp 12.5"),
            ("rename by originalName", "ok lamp,lamp"),
            // What the rename hint (SDG620, SDG625) asks about: without originalName every title is gone.
            ("rename as a drop and an add", "ok [],[]"),
            ("two-stage bridge", "ok lamp 12.5,lamp 3.0"),
            ("older version first", "error 0 the model name Item is bound to run.V1.Item"),
        ]
        for (scenario, outcome) in expected {
            XCTAssertTrue(
                lines[scenario]?.hasPrefix(outcome) == true,
                "\(scenario): expected '\(outcome)', got '\(lines[scenario] ?? "nothing")'")
        }
    }

    /// The generator's store identity and the stand-in's are two readings of what SwiftData builds
    /// (from the YAML, and from the compiled classes); for every schema of every plan they must
    /// give the same entity hashes and checksum.
    private func checkChecksumsAgree(_ name: String, printed: StandInTypeCheckTests.CompileResult) throws {
        XCTAssertEqual(printed.status, 0, printed.output)
        var standIn: [String: String] = [:]
        var current: String?
        for line in printed.output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("schema ") {
                current = String(line.dropFirst(7))
                standIn[current!] = nil
            } else if let current, !line.isEmpty {
                standIn[current] = (standIn[current].map { $0 + "\n" } ?? "") + line
            }
        }
        let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
        let (histories, _) = Generator.validate(try SchemaLoader.read(directory: input).get())
        for history in histories {
            let plan = MigrationPlanner.plan(history).plan
            let names = GeneratedNames(history: history)
            for reference in plan.schemas {
                guard let schema = plan.schema(reference) else { continue }
                let typeName: String
                switch reference {
                case .version(let number): typeName = names.versionedSchema(number)
                case .bridge(let number): typeName = names.bridge(into: number)
                }
                let identity = StoreIdentity(schema, naming: history.config.naming)
                let text =
                    (identity.entities.flatMap { entity in
                        ["entity \(entity.name) \(identity.entityHashes[entity.name] ?? "")"]
                            + entity.properties.sorted { VersionHashRecipe.precedes($0.name, $1.name) }.map {
                                "  \($0.name) \($0.versionHashHex)"
                            }
                    } + ["checksum \(identity.versionChecksum)"]).joined(separator: "\n")
                XCTAssertEqual(
                    standIn[typeName], text,
                    "\(name) \(typeName): the stand-in and the generator disagree on what SwiftData's checksum sees")
            }
        }
    }
}
