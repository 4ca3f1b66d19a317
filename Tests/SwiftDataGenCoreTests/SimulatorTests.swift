import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Runs generated upgrade tests in the SwiftData stand-in's migration simulator: every golden's
/// plan migrates a store written at every older version to the latest, with the rows the tests
/// seed, and the stand-in's checksum agrees with the generator's store identity.
final class SimulatorTests: XCTestCase {
    struct Build {
        var binary: URL
        var plans: [String]
        var folder: URL
    }

    /// Every golden compiled once against the stand-in, in Swift 6 mode with warnings as errors,
    /// shared by the type-check test and the simulator: a golden with upgrade tests is linked with
    /// them into a binary that runs them, one without is type-checked. Cores compile one golden each.
    struct GoldenCompile: Sendable {
        var name: String
        var result: StandInTypeCheckTests.CompileResult
        var build: Build?
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
                    return GoldenCompile(name: name, result: result, build: build)
                }
                let files = try StandInTypeCheckTests.sources(of: name)
                guard !files.isEmpty else { return nil }
                return GoldenCompile(name: name, result: try StandInTypeCheckTests.typeCheck(files), build: nil)
            }
        }
        return try outcomes.compactMap { try $0.get() }
    }

    static func everyGolden() throws -> [GoldenCompile] { try goldens.get() }

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
                + "schema)._checksumText) }"
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
        let result = try StandInTypeCheckTests.run(
            "/usr/bin/env",
            ["swiftc"] + StandInTypeCheckTests.wholeModule + StandInTypeCheckTests.strictFlags
                + ["-module-name", "Upgrades"]
                + (try StandInTypeCheckTests.standInFlags())
                + ["-Xlinker", "-rpath", "-Xlinker", standIn, "-o", binary.path] + sources + [mainFile.path])
        return (result, result.status == 0 ? Build(binary: binary, plans: plans, folder: work) : nil)
    }

    func testEveryGoldenUpgradesFromEveryOlderVersionInTheSimulator() throws {
        var builds: [String: Build] = [:]
        for compiled in try Self.everyGolden() where compiled.result.status == 0 {
            builds[compiled.name] = compiled.build
        }
        XCTAssertGreaterThanOrEqual(builds.count, 8, "too few goldens have upgrade tests")
        // Each binary runs its upgrade tests one after another; the binaries run a core each.
        let ordered = builds.sorted { $0.key < $1.key }
        let runs = ordered.parallelMap { _, build in Result { try StandInTypeCheckTests.run(build.binary.path, []) } }
        var ran = 0
        for ((name, build), run) in zip(ordered, runs) {
            let result = try run.get()
            XCTAssertEqual(result.status, 0, "\(name): an upgrade test failed in the simulator:\n\(result.output)")
            let expected = try StandInTypeCheckTests.sources(of: name).filter { $0.contains("UpgradeFrom") }.count
            XCTAssertTrue(
                result.output.contains("Test run with \(expected) test"),
                "\(name): expected \(expected) upgrade tests to run:\n\(result.output)")
            ran += expected
            try checkChecksumsAgree(name, build: build)
            try? FileManager.default.removeItem(at: build.folder)
        }
        XCTAssertGreaterThanOrEqual(ran, 20, "upgrade tests run in the simulator")
    }

    /// An upgrade test must fail when the plan loses a conversion: each conversion call is
    /// deleted from a generated plan in turn, and the upgrade tests, run in the simulator, fail.
    /// One conversion call deleted from a generated plan: the golden, the call, the plan file and
    /// the plan without it.
    struct Mutant: Sendable {
        var name: String
        var call: String
        var file: String
        var contents: String
    }

    /// What became of a mutant: the compiler's result when it did not build, or its upgrade run's.
    enum MutantOutcome: Sendable {
        case didNotBuild(StandInTypeCheckTests.CompileResult)
        case ran(StandInTypeCheckTests.CompileResult)
    }

    /// Every conversion call of three goldens' plans deleted in turn, each mutant built with the
    /// golden's upgrade tests and run.
    static let mutants = SharedResult<[(Mutant, Result<MutantOutcome, any Error>)]> {
        var mutants: [Mutant] = []
        for name in ["upgrade-branches", "upgrade-conversions", "plan-enum-conversion"] {
            guard
                let plan = try StandInTypeCheckTests.sources(of: name).first(where: {
                    $0.hasSuffix("MigrationPlan.swift")
                })
            else { throw AppleSDK.CheckError("\(name) has no plan") }
            let text = try String(contentsOfFile: plan, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let calls = lines.indices.filter { lines[$0].contains(/try \w+\.convert\w+\(context\)/) }
            guard !calls.isEmpty else { throw AppleSDK.CheckError("\(name) has no conversion call") }
            for index in calls {
                var mutated = lines
                mutated[index] = "// conversion removed"
                mutants.append(
                    Mutant(
                        name: name, call: lines[index].trimmingCharacters(in: .whitespaces),
                        file: URL(fileURLWithPath: plan).lastPathComponent, contents: mutated.joined(separator: "\n")))
            }
        }
        let outcomes = mutants.parallelMap { mutant in
            Result { () throws -> MutantOutcome in
                guard
                    let (result, build) = try SimulatorTests.compile(
                        mutant.name, replacing: (mutant.file, mutant.contents))
                else { throw AppleSDK.CheckError("\(mutant.name) has no upgrade tests") }
                guard let build else { return .didNotBuild(result) }
                defer { try? FileManager.default.removeItem(at: build.folder) }
                return .ran(try StandInTypeCheckTests.run(build.binary.path, []))
            }
        }
        return Array(zip(mutants, outcomes))
    }

    /// An upgrade test must fail when the plan loses a conversion: each conversion call is
    /// deleted from a generated plan in turn, and the upgrade tests, run in the simulator, fail.
    func testAPlanMissingAnyOfItsConversionsFailsItsUpgradeTests() throws {
        let outcomes = try Self.mutants.get()
        XCTAssertGreaterThanOrEqual(outcomes.count, 7)
        for (mutant, outcome) in outcomes {
            let result: StandInTypeCheckTests.CompileResult
            switch try outcome.get() {
            case .didNotBuild(let compile):
                XCTFail("\(mutant.name) without '\(mutant.call)' did not compile:\n\(compile.output)")
                continue
            case .ran(let run): result = run
            }
            XCTAssertNotEqual(
                result.status, 0,
                "\(mutant.name): the upgrade tests still pass without '\(mutant.call)':\n\(result.output)")
            // A value check names the property; a store that rejects the defaults left behind
            // (uniqueness, a required value) fails the same test with SwiftData's error.
            XCTAssertTrue(
                result.output.contains("after the upgrade from") || result.output.contains("SwiftData stand-in error"),
                "\(mutant.name) without '\(mutant.call)' failed for another reason:\n\(result.output)")
        }
    }

    /// Plans a device rejects fail in the simulator with SwiftData's error; the Apple patterns
    /// that work keep the data (Fixtures/Simulator/Scenarios.swift).
    func testKnownFailuresFailAndApplePatternsPass() throws {
        let source = try String(
            contentsOf: TestPaths.fixtures.appendingPathComponent("Simulator/Scenarios.swift"), encoding: .utf8)
        let result = try StandInTypeCheckTests.compileAndRun([], main: source)
        XCTAssertEqual(result.status, 0, result.output)
        let lines = Dictionary(
            result.output.split(separator: "\n").compactMap { line -> (String, String)? in
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
            ("two-stage bridge", "ok lamp 12.5,lamp 3.0"),
        ]
        for (scenario, outcome) in expected {
            XCTAssertTrue(
                lines[scenario]?.hasPrefix(outcome) == true,
                "\(scenario): expected '\(outcome)', got '\(lines[scenario] ?? "nothing")'")
        }
    }

    /// The generator's store identity and the stand-in's checksum are two definitions of one
    /// rule; for every schema of every plan they must produce the same text.
    private func checkChecksumsAgree(_ name: String, build: Build) throws {
        let printed = try StandInTypeCheckTests.run(build.binary.path, ["--checksums"])
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
                XCTAssertEqual(
                    standIn[typeName], StoreIdentity(schema, naming: history.config.naming).checksumText,
                    "\(name) \(typeName): the stand-in and the generator disagree on what SwiftData's checksum sees")
            }
        }
    }
}
