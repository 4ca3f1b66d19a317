import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Type-checks generated code against the SwiftData stand-in in Swift 6 mode, so a golden that
/// would not compile fails here, on Linux.
final class StandInTypeCheckTests: XCTestCase {
    struct CompileResult {
        var status: Int32
        var output: String
    }

    /// Built once per test process; the script skips rebuilding when its sources are unchanged.
    static let standIn = SharedResult<[String]> {
        let folder = TestPaths.packageRoot.appendingPathComponent(".build/standin").path
        let result = try run(
            "/bin/bash", [TestPaths.packageRoot.appendingPathComponent("scripts/build-standin.sh").path, folder])
        if result.status == 3 {
            // Only a toolchain without lib/swift/host/libSwiftSyntaxMacros skips; swift.org toolchains
            // from 5.9 on (the one CI uses included) ship it, so CI never skips here.
            throw XCTSkip(
                "the toolchain has no host SwiftSyntax, so the stand-in macros cannot be built; use a swift.org "
                    + "toolchain (5.9 or later ships lib/swift/host/libSwiftSyntaxMacros): \(result.output)")
        }
        guard result.status == 0, let line = result.output.split(separator: "\n").last else {
            throw AppleSDK.CheckError("building the stand-in failed:\n\(result.output)")
        }
        return line.split(separator: " ").map(String.init)
    }

    static func standInFlags() throws -> [String] { try standIn.get() }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    /// At most one compiler per core at a time: the suite's lanes ask for more, and four compilers
    /// on two cores took about 5% more CPU time for the same work, switching between them.
    private static let compilerSlots = DispatchSemaphore(value: ParallelWork.cores)

    /// Runs a tool of the toolchain on PATH (`swiftc`, `swift-api-digester`) in a compiler slot.
    static func runTool(_ arguments: [String]) throws -> CompileResult {
        compilerSlots.wait()
        defer { compilerSlots.signal() }
        return try run("/usr/bin/env", arguments)
    }

    /// Runs a program to its end; `environment` is added to this process's own.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> CompileResult
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CompileResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Swift 6 mode with complete concurrency checking, and a warning fails like an error:
    /// generated code must compile without either.
    static let strictFlags = ["-swift-version", "6", "-strict-concurrency=complete", "-warnings-as-errors"]

    /// One compiler process for the whole module: for the small modules compiled here, about half
    /// the time of one process per file, with the same diagnostics.
    static let wholeModule = ["-wmo"]

    static func typeCheck(_ files: [String]) throws -> CompileResult {
        let flags = try standInFlags()
        return try runTool(
            ["swiftc", "-typecheck"] + wholeModule + strictFlags + ["-package-name", "GoldenCheck"] + flags + files)
    }

    /// The generated Swift of a golden case, plus the hand-written hooks in its `hooks/` folder.
    static func sources(of name: String, withHooks: Bool = true) throws -> [String] {
        var paths: [String] = []
        for sub in withHooks ? ["expected", "hooks"] : ["expected"] {
            let folder = GoldenTests.folder(name).appendingPathComponent(sub)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            paths += files.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        return paths
    }

    /// Each golden's files with its hooks and upgrade tests, compiled once for this test and the
    /// simulator's (SimulatorTests.everyGolden).
    func testEveryGoldenTypeChecks() throws {
        var checked = 0
        for compiled in try SimulatorTests.everyGolden() {
            XCTAssertEqual(
                compiled.result.status, 0, "\(compiled.name) does not type-check:\n\(compiled.result.output)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 9)
    }

    /// The plan-hooks golden without its hooks, and with the scaffold the CLI writes instead, side
    /// by side (made by the suite's prefetch when the whole suite runs).
    static let hookChecks = SharedResult<(withoutHooks: CompileResult, withScaffold: CompileResult)> {
        let scaffold = GoldenTests.goldenRoot.appendingPathComponent(
            "plan-hooks/expected/TasksMigrationHooks.swift.scaffold")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-hooks-\(UUID().uuidString).swift")
        try FileManager.default.copyItem(at: scaffold, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let generated = try sources(of: "plan-hooks", withHooks: false)
        let results = [generated, generated + [copy.path]].parallelMap { files in Result { try typeCheck(files) } }
        return (try results[0].get(), try results[1].get())
    }

    /// A hook the team has not written is a compile error naming the function; so is the
    /// scaffold the CLI creates, until its #error lines are replaced.
    func testMissingHooksFailToCompileWithTheirNames() throws {
        let (withoutHooks, withScaffold) = try Self.hookChecks.get()
        XCTAssertNotEqual(withoutHooks.status, 0)
        XCTAssertTrue(
            withoutHooks.output.contains("type 'TasksMigrationHooks' has no member 'willMigrateToV2'"),
            withoutHooks.output)
        XCTAssertNotEqual(withScaffold.status, 0)
        XCTAssertTrue(withScaffold.output.contains("error: Write willMigrateToV2:"), withScaffold.output)
    }

    /// Builds `sources` plus a `main.swift` against the stand-in library and returns what it prints.
    static func compileAndRun(_ sources: [String], main: String) throws -> CompileResult {
        try compileAndRun(sources, main: main, runs: [[]])[0]
    }

    /// Builds `sources` and `main` into one binary and runs it once per argument list: one result
    /// per run, or the compiler's alone when the build failed.
    static func compileAndRun(_ sources: [String], main: String, runs: [[String]]) throws -> [CompileResult] {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let mainFile = work.appendingPathComponent("main.swift")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)
        let binary = work.appendingPathComponent("run").path
        let standIn = TestPaths.packageRoot.appendingPathComponent(".build/standin").path
        let build = try runTool(
            ["swiftc"] + wholeModule + strictFlags + (try standInFlags())
                + ["-Xlinker", "-rpath", "-Xlinker", standIn, "-o", binary]
                + sources + [mainFile.path])
        guard build.status == 0 else { return [build] }
        return try runs.map { try run(binary, $0) }
    }

    /// Generated models run against the stand-in's in-memory context: insert, fetch with a
    /// predicate and sort, count, delete.
    static let modelsRun = SharedResult<CompileResult> {
        try compileAndRun(
            try sources(of: "trips"),
            main: """
                import Foundation
                import SwiftData
                let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self))
                for (id, name, day) in [("b", "Bergen", 3.0), ("a", "Aarhus", 1.0), ("c", "Cork", 2.0)] {
                    let trip = Trip(remoteID: id, name: name, startDate: Date(timeIntervalSince1970: day))
                    trip.status = id == "b" ? .done : .active
                    context.insert(trip)
                }
                let activeRaw = TripStatus.active.rawValue
                let active = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.statusRawValue == activeRaw }, sortBy: [SortDescriptor(\\.startDate)]))
                print(active.map(\\.name).joined(separator: ","))
                if let first = active.first { context.delete(first) }
                try context.save()
                print(try context.fetchCount(FetchDescriptor<Trip>()))
                """)
    }

    func testGeneratedModelsRunAgainstTheStandInContext() throws {
        let result = try Self.modelsRun.get()
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, "Aarhus,Cork\n2\n")
    }

    /// Mutates a golden and expects the compiler to reject it: the check has teeth.
    private func expectRejection(
        _ find: String, _ replace: String, in file: String, of golden: String = "trips", error expected: String
    ) throws {
        let source = try String(
            contentsOf: GoldenTests.goldenRoot.appendingPathComponent("\(golden)/expected/\(file)"), encoding: .utf8)
        XCTAssertTrue(source.contains(find), "the golden no longer contains \(find)")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sdg-negative-\(UUID().uuidString).swift")
        try source.replacingOccurrences(of: find, with: replace).write(to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try Self.typeCheck([broken.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains(expected), "expected '\(expected)' in:\n\(result.output)")
    }

    func testWrongInverseKeyPathIsRejected() throws {
        try expectRejection(
            "inverse: \\Stop.trip", "inverse: \\Stop.voyage", in: "TripsSchemaV3.swift", error: "has no member 'voyage'"
        )
    }

    func testIndexOnMissingPropertyIsRejected() throws {
        try expectRejection(
            "#Index<Trip>([\\.startDate]", "#Index<Trip>([\\.endDate]", in: "TripsSchemaV3.swift", error: "error:")
    }

    func testStoredVersionIdentifierIsRejectedInSwift6() throws {
        try expectRejection(
            "static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }",
            "static let versionIdentifier = Schema.Version(3, 0, 0)", in: "TripsSchemaV3.swift",
            error: "not concurrency-safe")
    }

    /// What the resolver refuses in associated values fails in Swift itself: values on an enum
    /// with a raw type, and an enum that holds itself without `indirect`.
    func testAssociatedValuesTheResolverRefusesDoNotCompile() throws {
        let declaration = "enum Schedule: Codable, Hashable, Sendable {"
        try expectRejection(
            declaration, "enum Schedule: String, Codable, Hashable, Sendable {", in: "HabitsSchemaV1.swift",
            of: "enum-with-associated-values", error: "raw type")
        try expectRejection(
            "case on(Date)", "case on(Schedule)", in: "HabitsSchemaV1.swift", of: "enum-with-associated-values",
            error: "indirect")
    }
}
