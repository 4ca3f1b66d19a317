import Foundation
import XCTest

/// What every plugin user compiles. The Swift driver splits a module into batches of at most 25
/// files per job, so on a two-core machine (`-j2`, common in CI) 51 files make three frontend
/// jobs where 50 make two; each job parses the whole module again, which measured 2 s of a 16 s
/// clean build (BENCHMARKS.md). Merge small files of one concern rather than cross 50.
final class BuildCostTests: XCTestCase {
    func testTheGeneratorCompilesInTwoBatchesOnTwoCores() throws {
        let core = TestPaths.packageRoot.appendingPathComponent("Sources/SwiftDataGenCore")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: core.path)).compactMap { $0 as? String }.filter
        { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 10)
        XCTAssertLessThanOrEqual(files.count, 50, "SwiftDataGenCore has \(files.count) files; see BuildCostTests")
    }

    /// The tool must not import Foundation: loading it and its C modules costs every clean build
    /// through the plugin about 2 s on Linux and more on macOS.
    func testTheToolDoesNotImportFoundation() throws {
        for folder in ["Sources/SwiftDataGenCore", "Sources/swiftdata-gen"] {
            let root = TestPaths.packageRoot.appendingPathComponent(folder)
            for case let file as String in try XCTUnwrap(FileManager.default.enumerator(atPath: root.path))
            // A documentation catalog's Swift is the reader's app code, which SwiftPM does not compile.
            where file.hasSuffix(".swift") && file != "Rendering/BundledTemplates.swift" && !file.contains(".docc/") {
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                let imports = text.split(separator: "\n").filter {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix("import ")
                }
                XCTAssertFalse(imports.contains { $0.contains("Foundation") }, "\(folder)/\(file) imports Foundation")
            }
        }
    }
}
