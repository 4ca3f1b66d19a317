import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The tool's own modules type-checked for the Mac it runs on, `arm64-apple-macosx13.0` against
/// Apple's macOS SDK (`scripts/apple-sdk-flags.sh macos15`): the `canImport(Darwin)` paths (file
/// system calls, cores, `rusage`, `Process`), libyaml's, SQLite's and zlib's modules, and the
/// importer's sources compile where users build them, not only on Linux. Swift 6 mode, warnings
/// reported as findings; no gap is excused. On a Mac, `swift build` is this check.
///
/// The importer's swift-syntax is read from the toolchain's own SwiftSyntax and SwiftParser
/// interfaces (the toolchain's release of swift-syntax, 603, as the importer pins), made for the Mac
/// by their target and `Glibc` import; swift-syntax's own sources are not checked here. Nor are the
/// plugins, which import `PackagePlugin`, a module that exists only inside SwiftPM and Xcode.
final class DarwinSourcesTests: XCTestCase {
    /// A Swift target: its module name, its sources, and whether other targets import it.
    struct Target: Sendable {
        var name: String
        var folder: URL
        var isLibrary: Bool
        var module: String { name.replacingOccurrences(of: "-", with: "_") }
    }

    static let packageSources = TestPaths.packageRoot.appendingPathComponent("Sources")
    static let importerSources = TestPaths.packageRoot.appendingPathComponent("Importer/Sources")

    /// Every Swift target of both packages, in dependency order; a new target must be added here
    /// (`testEveryTargetIsChecked` names it).
    static let targets: [Target] = [
        Target(name: "SwiftDataGenDSL", folder: packageSources, isLibrary: true),
        Target(name: "SwiftDataGenCore", folder: packageSources, isLibrary: true),
        Target(name: "SwiftDataGenDiagrams", folder: packageSources, isLibrary: true),
        Target(name: "swiftdata-gen", folder: packageSources, isLibrary: false),
        Target(name: "swiftdata-gen-bench", folder: packageSources, isLibrary: false),
        Target(name: "SwiftDataGenImport", folder: importerSources, isLibrary: true),
        Target(name: "swiftdata-gen-import", folder: importerSources, isLibrary: false),
    ]

    /// The deployment floor the package declares for macOS.
    static let macOSFloor = 13

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    /// Every Swift target of the package's and the importer's `Sources/` is in the list above, so
    /// a module split off cannot go unchecked.
    func testEveryTargetIsChecked() throws {
        var found: Set<String> = []
        for root in [Self.packageSources, Self.importerSources] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.path)
            where (try? DarwinSourcesTests.swiftFiles(in: root.appendingPathComponent(name)).isEmpty) == false {
                found.insert(name)
            }
        }
        XCTAssertEqual(found, Set(Self.targets.map(\.name)))
    }

    func testTheToolsModulesTypeCheckForTheMac() throws {
        #if os(macOS)
            throw XCTSkip(
                "on a Mac this check is `swift build` itself, which compiles these modules for macOS; run that")
        #else
            let checked = try Self.checked.get()
            XCTAssertEqual(checked.targets, Self.targets.map(\.name), "a target is not checked here")
            print(
                "darwin sources: \(checked.files) files in \(checked.targets.count) targets type-checked for "
                    + "arm64-apple-macosx\(Self.macOSFloor).0 against \(checked.sdkName)")
            XCTAssertTrue(checked.findings.isEmpty, checked.findings.joined(separator: "\n"))
        #endif
    }

    struct Checked: Sendable {
        var targets: [String] = []
        var sdkName: String
        var files = 0
        /// Errors and warnings, and compiles that failed without one.
        var findings: [String] = []
    }

    /// Each target type-checked in dependency order, the libraries' modules emitted for the next.
    static let checked = SharedResult<Checked> {
        let sdk = try AppleSDK.ready(.macOS15)
        var checked = Checked(sdkName: sdk.name)
        let work = try AppleSDK.scratchFolder("darwin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let include = work.appendingPathComponent("include")
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: include.appendingPathComponent("yaml.h"), withDestinationURL: try DarwinSourcesTests.libyamlHeader())
        let modules = work.appendingPathComponent("modules")
        try DarwinSourcesTests.writeSwiftSyntaxInterfaces(into: modules)
        let search = [
            "-I", modules.path, "-I", packageSources.appendingPathComponent("CYaml").path,
            "-I", importerSources.appendingPathComponent("CSQLite").path,
            "-I", importerSources.appendingPathComponent("CZlib").path, "-Xcc", "-I\(include.path)",
        ]
        for target in DarwinSourcesTests.targets {
            let swift = try DarwinSourcesTests.swiftFiles(in: target.folder.appendingPathComponent(target.name))
            checked.files += swift.count
            checked.targets.append(target.name)
            let library = target.isLibrary ? ["-parse-as-library"] : []
            // The type-check and the module the next targets import are made side by side; bodies
            // are left out of that module, which only declarations need.
            let emit =
                target.isLibrary
                ? [
                    "-emit-module", "-swift-version", "6", "-Xfrontend",
                    "-experimental-skip-non-inlinable-function-bodies",
                ] + library + search + [
                    "-module-name", target.module, "-emit-module-path",
                    modules.appendingPathComponent("\(target.module).swiftmodule").path,
                ] + swift
                : nil
            let compiles = [false, true].parallelMap { emitting in
                Result { () throws -> StandInTypeCheckTests.CompileResult? in
                    if emitting { return try emit.map { try sdk.compile($0, floor: macOSFloor) } }
                    return try sdk.typeCheck(
                        swift, floor: macOSFloor, strict: false,
                        extraFlags: library + search + ["-module-name", target.module])
                }
            }
            if let check = try compiles[0].get() {
                for line in check.output.split(separator: "\n")
                where line.hasPrefix("/") && (line.contains(": error: ") || line.contains(": warning: ")) {
                    checked.findings.append("\(target.name): \(line)")
                }
                if check.status != 0 && !check.output.contains(": error: ") {
                    checked.findings.append("\(target.name): the compiler failed without an error:\n\(check.output)")
                }
            }
            if let interface = try compiles[1].get(), interface.status != 0 {
                checked.findings.append("\(target.name)'s module for the next targets:\n\(interface.output)")
            }
        }
        return checked
    }

    /// The toolchain's SwiftSyntax and SwiftParser interfaces, made for the Mac: its `-target`, no
    /// `-disable-objc-interop` (Apple's platforms have it), and `Darwin` where it imports `Glibc`.
    static func writeSwiftSyntaxInterfaces(into modules: URL) throws {
        let swiftc = try StandInTypeCheckTests.run("/bin/sh", ["-c", "readlink -f \"$(command -v swiftc)\""])
        let binary = URL(fileURLWithPath: swiftc.output.trimmingCharacters(in: .whitespacesAndNewlines))
        let host = binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "lib/swift/host")
        for module in ["SwiftSyntax", "SwiftParser"] {
            let folder = host.appendingPathComponent("\(module).swiftmodule")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard let name = names.first(where: { $0.hasSuffix(".swiftinterface") && !$0.contains(".private.") }) else {
                throw AppleSDK.CheckError("the toolchain has no \(module) interface in \(folder.path)")
            }
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let forTheMac = text.replacing(/-target [^ \n]+/) { _ in "-target arm64-apple-macosx\(macOSFloor).0" }
                .replacingOccurrences(of: " -disable-objc-interop", with: "")
                .replacingOccurrences(of: "\nimport Glibc\n", with: "\nimport Darwin\n")
            let destination = modules.appendingPathComponent("\(module).swiftmodule")
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            try forTheMac.write(
                to: destination.appendingPathComponent("arm64-apple-macos.swiftinterface"), atomically: true,
                encoding: .utf8)
        }
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
