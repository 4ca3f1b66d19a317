import Foundation
import XCTest

/// Apple's iOS SDK as the tests find it (`scripts/apple-sdk-flags.sh`): the flags that make swiftc
/// read Apple's SwiftData interface, and the SDK's release. Without an SDK the tests that need it
/// skip, unless `SDG_REQUIRE_APPLE_SDK=1` (which `.ci/run` sets when `../shared/apple-sdk` is there).
struct AppleSDK: Sendable {
    var flags: [String]
    /// `iOS 17.4`, for messages.
    var name: String
    var major: Int

    private static let found = SharedResult { try locate() }

    static var folder: URL { TestPaths.packageRoot.appendingPathComponent(".build/apple-sdk") }

    static func shared() throws -> AppleSDK { try found.get() }

    /// The SDK once one compile against it has built the module cache, so that the compiles a core
    /// each that follow do not each build it (about 50 CPU-seconds on a new machine).
    static func ready() throws -> AppleSDK { try warmed.get() }

    private static let warmed = SharedResult<AppleSDK> {
        let sdk = try shared()
        let result = try sdk.warmUp(extraFlags: withoutSILOptimizer)
        guard result.status == 0 else { throw CheckError("importing SwiftData from the SDK failed:\n\(result.output)") }
        return sdk
    }

    /// The SDK's modules are built from interfaces whose flags say `-O`, and the SIL optimiser is
    /// most of that build (the standard library: 21 of 31 CPU-seconds); a type-check never reads
    /// the optimised bodies. LLVM's options reach the in-process interface builds, the frontend's
    /// do not; the cache keys ignore both, so later compiles reuse these modules. A compiler
    /// without the option refuses it, and the warm-up runs again without.
    static let withoutSILOptimizer = ["-Xllvm", "-sil-opt-pass-count=0"]

    /// Type-checks an import of SwiftData with `extraFlags`, and once more without them when that fails.
    func warmUp(extraFlags: [String]) throws -> StandInTypeCheckTests.CompileResult {
        let result = try typeCheck(source: "import SwiftData\n", iOSFloor: 17, extraFlags: extraFlags)
        guard result.status != 0, !extraFlags.isEmpty else { return result }
        return try typeCheck(source: "import SwiftData\n", iOSFloor: 17)
    }

    /// The SDK, or nil where none is found and none is required: for a test that checks against
    /// the stand-in too and adds Apple's check where it can.
    static func ifPresent() throws -> AppleSDK? {
        do { return try ready() } catch is XCTSkip { return nil }
    }

    private static func locate() throws -> AppleSDK {
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/apple-sdk-flags.sh").path
        let result = try StandInTypeCheckTests.run("/bin/bash", [script, folder.path])
        if result.status == 3 {
            let reason = "no Apple SDK to check against: \(result.output)"
            if ProcessInfo.processInfo.environment["SDG_REQUIRE_APPLE_SDK"] == "1" {
                throw CheckError(reason)
            }
            throw XCTSkip(reason + " (put one in ../shared/apple-sdk or set SDG_APPLE_SDK)")
        }
        guard result.status == 0, let line = result.output.split(separator: "\n").last else {
            throw CheckError("scripts/apple-sdk-flags.sh failed:\n\(result.output)")
        }
        let flags = line.split(separator: " ").map(String.init)
        guard let index = flags.firstIndex(of: "-sdk"), index + 1 < flags.count else {
            throw CheckError("scripts/apple-sdk-flags.sh printed no -sdk: \(line)")
        }
        let settings = URL(fileURLWithPath: flags[index + 1]).appendingPathComponent("SDKSettings.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: settings)) as? [String: Any]
        guard let version = json?["Version"] as? String, let major = Int(version.prefix { $0 != "." }) else {
            throw CheckError("\(settings.path) names no Version")
        }
        return AppleSDK(flags: flags + ["-module-cache-path", moduleCache.path], name: "iOS \(version)", major: major)
    }

    /// The SDK's modules as built from its interfaces (about 50 CPU-seconds), kept per user like the
    /// toolchain's own module cache, so a new checkout on the same machine reuses them. The compiler
    /// checks each entry against the interface it was built from, and the key names the SDK's path.
    /// Where the user's cache folder cannot be made, the checkout's `.build` holds them.
    static let moduleCache: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["SDG_MODULE_CACHE"], !chosen.isEmpty { return URL(fileURLWithPath: chosen) }
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.cache" }
        let checkout = folder.appendingPathComponent("ModuleCache")
        guard let base else { return checkout }
        let shared = URL(fileURLWithPath: base).appendingPathComponent("swiftdata-gen/apple-sdk-modules")
        let made = (try? FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)) != nil
        return made && FileManager.default.isWritableFile(atPath: shared.path) ? shared : checkout
    }()

    /// Runs swiftc for `arm64-apple-ios<floor>.0` against the SDK.
    func compile(_ arguments: [String], iOSFloor: Int) throws -> StandInTypeCheckTests.CompileResult {
        try StandInTypeCheckTests.runTool(
            ["swiftc", "-target", "arm64-apple-ios\(iOSFloor).0"] + flags + arguments)
    }

    /// Type-checks `files` as one module in Swift 6 mode; `strict` adds complete concurrency
    /// checking and warnings as errors, which generated code is held to.
    func typeCheck(_ files: [String], iOSFloor: Int, strict: Bool = true, extraFlags: [String] = []) throws
        -> StandInTypeCheckTests.CompileResult
    {
        let mode = strict ? StandInTypeCheckTests.strictFlags : ["-swift-version", "6"]
        return try compile(
            ["-typecheck"] + StandInTypeCheckTests.wholeModule + mode + extraFlags + files, iOSFloor: iOSFloor)
    }

    /// Type-checks one source text written to a file of its own.
    func typeCheck(source: String, iOSFloor: Int, extraFlags: [String] = []) throws
        -> StandInTypeCheckTests.CompileResult
    {
        let file = try Self.scratchFolder("snippets").appendingPathComponent("\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try typeCheck([file.path], iOSFloor: iOSFloor, extraFlags: extraFlags)
    }

    static func scratchFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-apple-sdk-\(getpid())/\(name)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct CheckError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
