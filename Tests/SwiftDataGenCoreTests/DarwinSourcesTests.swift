import Foundation
import XCTest

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
    /// Library modules in dependency order, then the executables; a new target must be added here.
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

    func testTheToolsModulesTypeCheckForAnAppleTarget() throws {
        #if os(macOS)
            throw XCTSkip(
                "on a Mac this check is `swift build` itself, which compiles these modules for macOS; run that")
        #else
            let sdk = try AppleSDK.shared()
            let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
            let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0 != "CYaml" }
            XCTAssertEqual(Set(targets), Set(Self.libraries + Self.executables), "a target is not checked here")

            let work = try AppleSDK.scratchFolder("darwin-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            let copies = try Self.copySources(from: sources, to: work.appendingPathComponent("Sources"))
            let include = work.appendingPathComponent("include")
            try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: include.appendingPathComponent("yaml.h"), withDestinationURL: try Self.libyamlHeader())
            let modules = work.appendingPathComponent("modules")
            try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
            let search = [
                "-I", modules.path, "-I", sources.appendingPathComponent("CYaml").path, "-Xcc", "-I\(include.path)",
            ]

            var findings: [String] = []
            var gapsSeen: Set<String> = []
            func record(_ output: String, _ what: String) {
                for line in output.split(separator: "\n")
                where line.contains(": error: ") || line.contains(": warning: ") {
                    guard line.hasPrefix("/") else { continue }
                    if let gap = Self.sdkGaps.first(where: { line.contains($0.message) }) {
                        gapsSeen.insert(gap.why)
                    } else {
                        findings.append("\(what): \(line)")
                    }
                }
            }
            var files = 0
            for target in Self.libraries + Self.executables {
                let swift = try Self.swiftFiles(in: work.appendingPathComponent("Sources/\(target)"))
                files += swift.count
                let module = target.replacingOccurrences(of: "-", with: "_")
                let library = Self.libraries.contains(target) ? ["-parse-as-library"] : []
                let check = try sdk.typeCheck(
                    swift, iOSFloor: 16, strict: false, extraFlags: library + search + ["-module-name", module])
                record(check.output, target)
                if check.status != 0 && !check.output.contains(": error: ") {
                    findings.append("\(target): the compiler failed without an error:\n\(check.output)")
                }
                guard !library.isEmpty else { continue }
                // Bodies are left out of the interface module: emitting them also lowers to SIL, which
                // this compiler cannot do for typed throws against the 5.10 standard library.
                let interface = try sdk.compile(
                    [
                        "-emit-module", "-swift-version", "6", "-Xfrontend",
                        "-experimental-skip-non-inlinable-function-bodies",
                    ]
                        + library
                        + search
                        + [
                            "-module-name", module, "-emit-module-path",
                            modules.appendingPathComponent("\(module).swiftmodule").path,
                        ] + swift, iOSFloor: 16)
                XCTAssertEqual(interface.status, 0, "\(target)'s module for the next targets:\n\(interface.output)")
            }
            print(
                "darwin sources: \(files) files in \(targets.count) targets type-checked against \(sdk.name); "
                    + "\(copies) consume expressions read as plain uses; SDK gaps met: "
                    + (gapsSeen.isEmpty ? "none" : gapsSeen.sorted().joined(separator: "; ")))
            XCTAssertTrue(findings.isEmpty, findings.joined(separator: "\n"))
        #endif
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
