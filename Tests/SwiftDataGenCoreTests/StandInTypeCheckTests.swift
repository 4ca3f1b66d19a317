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
    nonisolated(unsafe) static var cachedFlags: [String]?

    static func standInFlags() throws -> [String] {
        if let cachedFlags { return cachedFlags }
        let folder = TestPaths.packageRoot.appendingPathComponent(".build/standin").path
        let result = try run("/bin/bash", [TestPaths.packageRoot.appendingPathComponent("scripts/build-standin.sh").path, folder])
        if result.status == 3 {
            throw XCTSkip("the toolchain has no host SwiftSyntax, so the stand-in macros cannot be built: \(result.output)")
        }
        guard result.status == 0, let line = result.output.split(separator: "\n").last else {
            XCTFail("building the stand-in failed:\n\(result.output)")
            return []
        }
        let flags = line.split(separator: " ").map(String.init)
        cachedFlags = flags
        return flags
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> CompileResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CompileResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    static func typeCheck(_ files: [String]) throws -> CompileResult {
        let flags = try standInFlags()
        return try run("/usr/bin/env", ["swiftc", "-typecheck", "-swift-version", "6", "-strict-concurrency=complete", "-package-name", "GoldenCheck"] + flags + files)
    }

    func testEveryGoldenTypeChecks() throws {
        var checked = 0
        for name in GoldenTests.caseNames {
            let folder = GoldenTests.goldenRoot.appendingPathComponent("\(name)/expected")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            guard !files.isEmpty else { continue }
            let result = try Self.typeCheck(files.map { folder.appendingPathComponent($0).path })
            XCTAssertEqual(result.status, 0, "\(name) does not type-check:\n\(result.output)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 5)
    }

    /// Links generated models with the stand-in and runs them: its in-memory context inserts,
    /// fetches with a predicate and sort, counts and deletes.
    func testGeneratedModelsRunAgainstTheStandInContext() throws {
        let folder = GoldenTests.goldenRoot.appendingPathComponent("trips/expected")
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let main = work.appendingPathComponent("main.swift")
        try """
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
            """.write(to: main, atomically: true, encoding: .utf8)
        let binary = work.appendingPathComponent("run").path
        let flags = try Self.standInFlags()
        let standIn = TestPaths.packageRoot.appendingPathComponent(".build/standin").path
        let build = try Self.run("/usr/bin/env", ["swiftc", "-swift-version", "6"] + flags + ["-Xlinker", "-rpath", "-Xlinker", standIn, "-o", binary] + sources + [main.path])
        XCTAssertEqual(build.status, 0, build.output)
        let result = try Self.run(binary, [])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, "Aarhus,Cork\n2\n")
    }

    /// Mutates a golden and expects the compiler to reject it: the check has teeth.
    private func expectRejection(_ find: String, _ replace: String, in file: String, error expected: String) throws {
        let source = try String(contentsOf: GoldenTests.goldenRoot.appendingPathComponent("trips/expected/\(file)"), encoding: .utf8)
        XCTAssertTrue(source.contains(find), "the golden no longer contains \(find)")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-negative-\(UUID().uuidString).swift")
        try source.replacingOccurrences(of: find, with: replace).write(to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try Self.typeCheck([broken.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains(expected), "expected '\(expected)' in:\n\(result.output)")
    }

    func testWrongInverseKeyPathIsRejected() throws {
        try expectRejection("inverse: \\Stop.trip", "inverse: \\Stop.voyage", in: "TripsSchemaV3.swift", error: "has no member 'voyage'")
    }

    func testIndexOnMissingPropertyIsRejected() throws {
        try expectRejection("#Index<Trip>([\\.startDate]", "#Index<Trip>([\\.endDate]", in: "TripsSchemaV3.swift", error: "error:")
    }

    func testStoredVersionIdentifierIsRejectedInSwift6() throws {
        try expectRejection(
            "static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }",
            "static let versionIdentifier = Schema.Version(3, 0, 0)", in: "TripsSchemaV3.swift",
            error: "not concurrency-safe")
    }
}
