import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The generator's own modules type-checked for an Apple target against the SDK, so the
/// `canImport(Darwin)` paths (file system calls, cores, `rusage`) and libyaml's module compile
/// where users run the tool, not only on Linux. The SDK here is iOS's, whose Darwin layer and
/// Foundation are the Mac's except where a gap below says otherwise; on a Mac, `swift build` builds
/// these modules for macOS and this test is not needed.
///
/// What the iOS 17.4 SDK cannot check, each matched by its message and nothing else allowed:
/// its Swift 5.10 standard library predates what the package's tools version (Xcode 16.3, Swift 6.1)
/// gives it, and iOS has no `Process`. The plugins import `PackagePlugin`, which exists only inside
/// SwiftPM and Xcode, so they are not checked here; nor is the importer, which builds swift-syntax.
final class DarwinSourcesTests: XCTestCase {
    /// Library modules in dependency order, then the executables; a new target must be added here
    /// (`testEveryTargetIsChecked` names it).
    static let libraries = ["SwiftDataGenDSL", "SwiftDataGenCore", "SwiftDataGenDiagrams"]
    static let executables = ["swiftdata-gen", "swiftdata-gen-bench"]

    /// The SDK's gaps, by the compiler's message.
    static let sdkGaps: [(message: String, why: String)] = [
        (
            "thrown expression type 'any Error' cannot be converted to error type",
            "typed throws of Result(catching:) and Result.get() are Swift 6.0's"
        ),
        (
            "reference to static property 'arguments' is not concurrency-safe",
            "Swift 6.0's CommandLine.arguments is safe to read from any isolation; 5.10's is a mutable static"
        ),
        ("cannot find 'Process' in scope", "Foundation's Process is macOS's, not iOS's"),
    ]

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    /// Every Swift target of the package's `Sources/` is in the lists above, so a module split off
    /// the core cannot go unchecked.
    func testEveryTargetIsChecked() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { name in
            (try? DarwinSourcesTests.swiftFiles(in: sources.appendingPathComponent(name)).isEmpty) == false
        }
        XCTAssertEqual(Set(targets), Set(Self.libraries + Self.executables))
    }

    func testTheToolsModulesTypeCheckForAnAppleTarget() throws {
        #if os(macOS)
            throw XCTSkip(
                "on a Mac this check is `swift build` itself, which compiles these modules for macOS; run that")
        #else
            let checked = try Self.checked.get()
            XCTAssertEqual(Set(checked.targets), Set(Self.libraries + Self.executables), "a target is not checked here")
            print(
                "darwin sources: \(checked.files) files in \(checked.targets.count) targets type-checked against "
                    + "\(checked.sdkName); \(checked.consumes) consume expressions read as plain uses; SDK gaps met: "
                    + (checked.gapsSeen.isEmpty ? "none" : checked.gapsSeen.sorted().joined(separator: "; ")))
            XCTAssertTrue(checked.findings.isEmpty, checked.findings.joined(separator: "\n"))
        #endif
    }

    struct Checked: Sendable {
        var targets: [String]
        var sdkName: String
        var files = 0
        var consumes = 0
        /// Errors and warnings that are not an SDK gap, and compiles that failed without one.
        var findings: [String] = []
        var gapsSeen: Set<String> = []
    }

    /// Each target type-checked in dependency order, the libraries' modules emitted for the next.
    static let checked = SharedResult<Checked> {
        let sdk = try AppleSDK.ready()
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0 != "CYaml" }
        var checked = Checked(targets: targets, sdkName: sdk.name)
        let work = try AppleSDK.scratchFolder("darwin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        checked.consumes = try DarwinSourcesTests.copySources(from: sources, to: work.appendingPathComponent("Sources"))
        let include = work.appendingPathComponent("include")
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: include.appendingPathComponent("yaml.h"), withDestinationURL: try DarwinSourcesTests.libyamlHeader())
        let modules = work.appendingPathComponent("modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let search = [
            "-I", modules.path, "-I", sources.appendingPathComponent("CYaml").path, "-Xcc", "-I\(include.path)",
        ]
        func record(_ output: String, _ what: String) {
            for line in output.split(separator: "\n") where line.contains(": error: ") || line.contains(": warning: ") {
                guard line.hasPrefix("/") else { continue }
                if let gap = DarwinSourcesTests.sdkGaps.first(where: { line.contains($0.message) }) {
                    checked.gapsSeen.insert(gap.why)
                } else {
                    checked.findings.append("\(what): \(line)")
                }
            }
        }
        for target in DarwinSourcesTests.libraries + DarwinSourcesTests.executables {
            let swift = try DarwinSourcesTests.swiftFiles(in: work.appendingPathComponent("Sources/\(target)"))
            checked.files += swift.count
            let module = target.replacingOccurrences(of: "-", with: "_")
            let library = DarwinSourcesTests.libraries.contains(target) ? ["-parse-as-library"] : []
            // The type-check and the module the next targets import are made side by side. Bodies
            // are left out of that module: emitting them also lowers to SIL, which this compiler
            // cannot do for typed throws against the 5.10 standard library.
            let emit =
                library.isEmpty
                ? nil
                : [
                    "-emit-module", "-swift-version", "6", "-Xfrontend",
                    "-experimental-skip-non-inlinable-function-bodies",
                ] + library + search + [
                    "-module-name", module, "-emit-module-path",
                    modules.appendingPathComponent("\(module).swiftmodule").path,
                ] + swift
            let compiles = [false, true].parallelMap { emitting in
                Result { () throws -> StandInTypeCheckTests.CompileResult? in
                    if emitting { return try emit.map { try sdk.compile($0, iOSFloor: 16) } }
                    return try sdk.typeCheck(
                        swift, iOSFloor: 16, strict: false, extraFlags: library + search + ["-module-name", module])
                }
            }
            if let check = try compiles[0].get() {
                record(check.output, target)
                if check.status != 0 && !check.output.contains(": error: ") {
                    checked.findings.append("\(target): the compiler failed without an error:\n\(check.output)")
                }
            }
            if let interface = try compiles[1].get(), interface.status != 0 {
                checked.findings.append("\(target)'s module for the next targets:\n\(interface.output)")
            }
        }
        return checked
    }

    /// The sources with `consume x` written `x`, which means the same to the type checker: this
    /// compiler crashes on `consume` against the 5.10 standard library. Returns how many it changed.
    static func copySources(from sources: URL, to copy: URL) throws -> Int {
        try FileManager.default.copyItem(at: sources, to: copy)
        var changed = 0
        let enumerator = FileManager.default.enumerator(at: copy, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            let plain = text.replacing(/\bconsume (?=[a-z_])/) { _ in
                changed += 1
                return ""
            }
            if plain != text { try plain.write(to: file, atomically: true, encoding: .utf8) }
        }
        return changed
    }

    static func libyamlHeader() throws -> URL {
        let candidates = ["/usr/include/yaml.h", "/usr/local/include/yaml.h", "/opt/homebrew/include/yaml.h"]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw AppleSDK.CheckError("libyaml's yaml.h is not installed (apt-get install libyaml-dev)")
        }
        return URL(fileURLWithPath: found)
    }

    static func swiftFiles(in folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var files: [String] = []
        while let file = enumerator?.nextObject() as? URL {
            // A documentation catalog's code is not the target's, as for SwiftPM.
            if file.pathExtension == "docc" { enumerator?.skipDescendants() }
            if file.pathExtension == "swift" { files.append(file.path) }
        }
        return files.sorted()
    }
}
