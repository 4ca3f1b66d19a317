import Foundation
import XCTest

@testable import SwiftDataGenCore

/// One of Apple's SDKs as the tests find it (`scripts/apple-sdk-flags.sh`): the flags that make
/// swiftc read Apple's SwiftData interface with that SDK's macros, and the SDK's release. Without
/// an SDK the tests that need it skip, unless `SDG_REQUIRE_APPLE_SDK=1` (which `.ci/run` sets when
/// `../shared/apple-sdk` is there).
struct AppleSDK: Sendable {
    /// The SDKs the checks read, by the name the script takes. On a Mac each is the installed SDK
    /// of its platform, whatever its release; `name` says which.
    enum Kind: String, CaseIterable, Sendable {
        case iOS17 = "ios17"
        case iOS18 = "ios18"
        case iOS26 = "ios26"
        /// SwiftData 27.0 over the 26.2 subset's other modules (docs/apple-sdk-findings.md, "How it
        /// is checked").
        case iOS27 = "ios27"
        case macOS15 = "macos15"

        /// The iOS SDKs that must accept code for an iOS floor, each with the iOS target it is
        /// checked at: the floor's own release, 26.2 (Xcode 26), and 27.0 (Xcode 27, what teams
        /// build with now) both at the floor and at iOS 27, as an app raised to 27 sees it.
        static func checking(iOSFloor floor: Int) -> [(kind: Kind, target: Int)] {
            let own: [Kind] =
                floor >= 27 ? [] : floor >= 26 ? [.iOS26] : floor >= 18 ? [.iOS18, .iOS26] : [.iOS17, .iOS26]
            return own.map { ($0, floor) } + [(.iOS27, floor)] + (floor < 27 ? [(.iOS27, 27)] : [])
        }

        /// `-target` for a deployment floor (iOS's for the iOS SDKs, macOS's for the Mac's).
        func target(floor: Int) -> String {
            self == .macOS15 ? "arm64-apple-macosx\(floor).0" : "arm64-apple-ios\(floor).0"
        }

        /// The release the SDK must be at least: a Mac's installed SDK stands for every iOS kind.
        var release: Int {
            switch self {
            case .iOS17: 17
            case .iOS18: 18
            case .iOS26: 26
            case .iOS27: 27
            case .macOS15: 15
            }
        }

        /// The lowest floor SwiftData can be imported at, where the warm-up builds the modules.
        var warmUpFloor: Int { self == .macOS15 ? 13 : 17 }
    }

    var kind: Kind
    var flags: [String]
    /// `iOS 17.4`, for messages.
    var name: String
    var major: Int

    private static let found = Dictionary(
        uniqueKeysWithValues: Kind.allCases.map { kind in (kind, SharedResult { try locate(kind) }) })

    private static let warmed = Dictionary(
        uniqueKeysWithValues: Kind.allCases.map { kind in
            (
                kind,
                SharedResult<AppleSDK> {
                    let sdk = try shared(kind)
                    let result = try sdk.warmUp(extraFlags: withoutSILOptimizer)
                    guard result.status == 0 else {
                        throw CheckError("importing SwiftData from \(sdk.name) failed:\n\(result.output)")
                    }
                    return sdk
                }
            )
        })

    static var folder: URL { TestPaths.packageRoot.appendingPathComponent(".build/apple-sdk") }

    static func shared(_ kind: Kind = .iOS17) throws -> AppleSDK {
        guard let result = found[kind] else { throw CheckError("no lookup for \(kind)") }
        return try result.get()
    }

    /// The SDK once one compile against it has built its module cache, so that the compiles a core
    /// each that follow do not each build it (about 35 CPU-seconds an SDK on a new machine).
    static func ready(_ kind: Kind = .iOS17) throws -> AppleSDK {
        guard let result = warmed[kind] else { throw CheckError("no warm-up for \(kind)") }
        return try result.get()
    }

    /// The SDKs that are here, made ready side by side (each has a module cache of its own, so
    /// their first compiles do not race), and for each one that is not, why: absent, or left to
    /// `scripts/check-apple-sdks.sh`.
    static func readyAll(_ kinds: [Kind]) throws -> (sdks: [Kind: AppleSDK], absent: [Kind: String]) {
        let ready = kinds.parallelMap { kind in (kind, Result { try AppleSDK.ready(kind) }) }
        var sdks: [Kind: AppleSDK] = [:]
        var absent: [Kind: String] = [:]
        for (kind, result) in ready {
            do { sdks[kind] = try result.get() } catch let skip as XCTSkip { absent[kind] = skip.reason }
        }
        return (sdks, absent)
    }

    /// The 18, 26 and macOS SDKs cost a new machine about 35 CPU-seconds each to read, more than
    /// `swift test`'s three minutes leave: their checks run with `SDG_NEWER_SDKS=1`, which
    /// `scripts/check-apple-sdks.sh` sets and `.ci/run` runs. Without it they skip, saying so.
    static var checksNewerSDKs: Bool { ProcessInfo.processInfo.environment["SDG_NEWER_SDKS"] == "1" }

    /// The SDK's modules are built from interfaces whose flags say `-O`, and the SIL optimiser is
    /// most of that build (the standard library: 21 of 31 CPU-seconds); a type-check never reads
    /// the optimised bodies. LLVM's options reach the in-process interface builds, the frontend's
    /// do not; the cache keys ignore both, so later compiles reuse these modules. A compiler
    /// without the option refuses it, and the warm-up runs again without.
    static let withoutSILOptimizer = ["-Xllvm", "-sil-opt-pass-count=0"]

    /// Type-checks an import of SwiftData with `extraFlags`, and once more without them when that fails.
    func warmUp(extraFlags: [String]) throws -> StandInTypeCheckTests.CompileResult {
        let source = "import Foundation\nimport SwiftData\n"
        let result = try typeCheck(source: source, floor: kind.warmUpFloor, extraFlags: extraFlags)
        guard result.status != 0, !extraFlags.isEmpty else { return result }
        return try typeCheck(source: source, floor: kind.warmUpFloor)
    }

    /// The SDK, or why it is not here (absent and not required, or left to its script): for a
    /// test that checks against the stand-in too and adds Apple's check where it can, and says
    /// which check it left out and why.
    static func ifPresent(_ kind: Kind = .iOS17) throws -> Result<AppleSDK, XCTSkip> {
        do { return .success(try ready(kind)) } catch let skip as XCTSkip { return .failure(skip) }
    }

    private static func locate(_ kind: Kind) throws -> AppleSDK {
        guard kind == .iOS17 || checksNewerSDKs else {
            throw XCTSkip(
                "\(kind.rawValue) is checked by scripts/check-apple-sdks.sh (SDG_NEWER_SDKS=1), which .ci/run runs; "
                    + "run that script to check it here")
        }
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/apple-sdk-flags.sh").path
        let result = try StandInTypeCheckTests.run("/bin/bash", [script, folder.path, kind.rawValue])
        if result.status == 3 {
            let reason = "no Apple SDK to check against: \(result.output)"
            if ProcessInfo.processInfo.environment["SDG_REQUIRE_APPLE_SDK"] == "1" {
                throw CheckError(reason)
            }
            throw XCTSkip(
                reason + " (put the SDKs in ../shared/apple-sdk, or set SDG_APPLE_SDKS to a folder of them; "
                    + "SDG_APPLE_SDK names an iOS 17 SDK itself)")
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
        let platform = kind == .macOS15 ? "macOS" : "iOS"
        guard major >= kind.release else {
            let reason = "the \(platform) SDK found is \(version), older than \(kind.release), which \(kind) needs"
            if ProcessInfo.processInfo.environment["SDG_REQUIRE_APPLE_SDK"] == "1" { throw CheckError(reason) }
            throw XCTSkip(reason)
        }
        let cache = moduleCache.appendingPathComponent(kind.rawValue).path
        return AppleSDK(
            kind: kind, flags: flags + ["-module-cache-path", cache], name: "\(platform) \(version)", major: major)
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

    /// Runs swiftc for the SDK's platform at a deployment floor (`arm64-apple-ios<floor>.0`).
    func compile(_ arguments: [String], floor: Int) throws -> StandInTypeCheckTests.CompileResult {
        try StandInTypeCheckTests.runTool(["swiftc", "-target", kind.target(floor: floor)] + flags + arguments)
    }

    /// Type-checks `files` as one module of a package (generated code may be `package`) in Swift 6
    /// mode; `strict` adds complete concurrency checking and warnings as errors, which generated
    /// code is held to.
    func typeCheck(_ files: [String], floor: Int, strict: Bool = true, extraFlags: [String] = []) throws
        -> StandInTypeCheckTests.CompileResult
    {
        let mode = strict ? StandInTypeCheckTests.strictFlags : ["-swift-version", "6"]
        return try compile(
            ["-typecheck", "-package-name", "GoldenCheck"] + StandInTypeCheckTests.wholeModule + mode + extraFlags
                + files, floor: floor)
    }

    /// Type-checks one source text written to a file of its own.
    func typeCheck(source: String, floor: Int, extraFlags: [String] = []) throws
        -> StandInTypeCheckTests.CompileResult
    {
        let file = try Self.scratchFolder("snippets").appendingPathComponent("\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try typeCheck([file.path], floor: floor, extraFlags: extraFlags)
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

extension XCTSkip {
    /// The skip's message, for a test that reports it instead of skipping.
    var reason: String { message ?? "skipped" }
}
