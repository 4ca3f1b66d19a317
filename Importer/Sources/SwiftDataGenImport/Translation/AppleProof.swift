import Foundation
import SwiftDataGenCore

/// An import proved by Apple's own SwiftData where it exists (`AppleOracle`): the app's schema
/// files and the generated versions are each compiled with a probe, and for every version the
/// entity hashes Apple computes from the app's classes must be those it computes from the
/// generated ones. Elsewhere, or where the app's files do not compile on their own, the import is
/// proved by reading only, and the summary says which, with the compiler's first error.
public enum AppleProof {
    public enum Outcome: Sendable, Equatable {
        case proved(versions: Int)
        case differs([String])
        case readingOnly(why: String)

        /// What the import's summary says of its proof.
        public var summary: String {
            switch self {
            case .proved(let versions):
                return "proved by Apple's SwiftData: its model of the app's classes and of the generated ones has the "
                    + "same entity version hashes in each of the \(versions) version(s)"
            case .differs(let lines):
                return "Apple's SwiftData hashes the app's classes otherwise than the generated ones: "
                    + lines.joined(separator: "; ")
            case .readingOnly(let why):
                return "proved by the importer's reading only (\(why))"
            }
        }
    }

    /// A compiler and a way to run what it builds (`xcrun swiftc` on a Mac); each returns its exit
    /// status and what it printed.
    public struct Toolchain: Sendable {
        public var compile: @Sendable (_ files: [String], _ binary: String) throws -> (status: Int32, output: String)
        public var run: @Sendable (_ binary: String, _ arguments: [String]) throws -> (status: Int32, output: String)

        public init(
            compile:
                @escaping @Sendable (_ files: [String], _ binary: String) throws -> (status: Int32, output: String),
            run: @escaping @Sendable (_ binary: String, _ arguments: [String]) throws -> (status: Int32, output: String)
        ) {
            self.compile = compile
            self.run = run
        }
    }

    /// One side of the comparison: Swift files and the expression of their schemas, oldest first.
    public struct Side: Sendable {
        public var files: [String]
        public var schemas: [String]

        public init(files: [String], schemas: [String]) {
            self.files = files
            self.schemas = schemas
        }
    }

    /// Builds both sides with the probe in `scratch` and compares every version's reading.
    public static func prove(app: Side, generated: Side, toolchain: Toolchain, scratch: URL) -> Outcome {
        guard app.schemas.count == generated.schemas.count, !app.schemas.isEmpty else {
            return .readingOnly(why: "the app's versions and the generated ones are not one for one")
        }
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let appReadings: [AppleOracle.Reading]
            switch try readings(of: app, named: "app", toolchain: toolchain, scratch: scratch) {
            case .success(let found): appReadings = found
            case .failure(let why): return .readingOnly(why: why.text)
            }
            let generatedReadings: [AppleOracle.Reading]
            switch try readings(of: generated, named: "generated", toolchain: toolchain, scratch: scratch) {
            case .success(let found): generatedReadings = found
            case .failure(let why): return .differs(["the generated versions: \(why.text)"])
            }
            var lines: [String] = []
            for (index, (theirs, ours)) in zip(appReadings, generatedReadings).enumerated() {
                // The checksums differ by design where the generator adds a hash modifier; the
                // entities say where the stores differ.
                lines += AppleOracle.differences(
                    theirs, ours, named: "version \(index + 1) (\(app.schemas[index]))", checksums: false)
            }
            return lines.isEmpty ? .proved(versions: app.schemas.count) : .differs(lines)
        } catch {
            return .readingOnly(why: "the probe could not run: \(error)")
        }
    }

    /// Why a side gave no readings, in a few words.
    struct Refusal: Error {
        var text: String
    }

    private static func readings(of side: Side, named name: String, toolchain: Toolchain, scratch: URL) throws
        -> Result<[AppleOracle.Reading], Refusal>
    {
        let probe = scratch.appendingPathComponent("\(name)-probe.swift")
        try AppleOracle.probe(schemas: "[" + side.schemas.map { "\($0).self" }.joined(separator: ", ") + "]").write(
            to: probe, atomically: true, encoding: .utf8)
        let binary = scratch.appendingPathComponent("\(name)-probe").path
        let built = try toolchain.compile(side.files + [probe.path], binary)
        guard built.status == 0 else {
            let first = built.output.split(separator: "\n").first { $0.contains("error:") }.map(String.init)
            return .failure(
                Refusal(text: "the \(name) schema files do not compile on their own: \(first ?? built.output)"))
        }
        var found: [AppleOracle.Reading] = []
        for index in side.schemas.indices {
            let ran = try toolchain.run(binary, ["\(index)"])
            if ran.status == AppleOracle.noOracleStatus {
                return .failure(Refusal(text: "this SDK has no SwiftData Core Data overlay"))
            }
            guard ran.status == 0, let reading = AppleOracle.Reading(probeOutput: ran.output) else {
                return .failure(Refusal(text: "the \(name) probe failed on \(side.schemas[index]): \(ran.output)"))
            }
            found.append(reading)
        }
        return .success(found)
    }

    /// `xcrun swiftc` and the built binary, where Xcode is: a Mac. Nil elsewhere.
    public static var xcode: Toolchain? {
        #if os(macOS)
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xcrun") else { return nil }
            return Toolchain(
                compile: { files, binary in
                    try execute(
                        "/usr/bin/xcrun",
                        ["swiftc", "-swift-version", "6", "-parse-as-library", "-o", binary] + files)
                },
                run: { binary, arguments in try execute(binary, arguments) })
        #else
            return nil
        #endif
    }

    /// Runs a program to its end, with what it printed on both streams.
    static func execute(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
