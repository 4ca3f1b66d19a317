import Foundation
import XCTest

/// What every plugin user compiles. The core was once held to 50 files (the driver's batches of
/// 25 on two cores); measured again with the order of builds alternated, a 51st file cost about
/// 0.5 s of a 20 s clean build, inside the 3 s between identical builds (BENCHMARKS.md), so a new
/// concern gets a file of its own.
final class BuildCostTests: XCTestCase {
    /// The modules the tool's executable is built from, which every clean plugin build compiles.
    static let toolModules = ["SwiftDataGenDSL", "SwiftDataGenCore", "SwiftDataGenDiagrams", "swiftdata-gen"]

    /// The tool must not import Foundation: loading it and its C modules costs every clean build
    /// through the plugin about 2 s on Linux and more on macOS.
    func testTheToolDoesNotImportFoundation() throws {
        for folder in Self.toolModules.map({ "Sources/\($0)" }) {
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
