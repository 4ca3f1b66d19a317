import Foundation
import XCTest

/// What CONTRIBUTING promises of the code's shape: no source file over 500 lines (a file is split
/// by concept before it grows past that), and at most 15 lines over 120 columns in code and strings
/// alike across the sources (the formatter does not wrap string literals).
final class SourceShapeTests: XCTestCase {
    private static let roots = ["Sources", "Importer/Sources", "Plugins"]

    private func swiftSources() throws -> [(path: String, lines: [Substring])] {
        var result: [(String, [Substring])] = []
        for root in Self.roots {
            let url = TestPaths.packageRoot.appendingPathComponent(root)
            guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walk where file.pathExtension == "swift" {
                let path = String(file.path.dropFirst(TestPaths.packageRoot.path.count + 1))
                let text = try String(contentsOf: file, encoding: .utf8)
                result.append((path, text.split(separator: "\n", omittingEmptySubsequences: false)))
            }
        }
        XCTAssertGreaterThan(result.count, 100, "the sources were not found")
        return result
    }

    func testNoSourceFileIsOver500Lines() throws {
        for source in try swiftSources() {
            // The text ends with a newline, which leaves one empty piece after the last line.
            let lines = source.lines.last == "" ? source.lines.count - 1 : source.lines.count
            XCTAssertLessThanOrEqual(lines, 500, "\(source.path): split it by concept")
        }
    }

    func testAtMost15LinesAreOver120Columns() throws {
        let long = try swiftSources().flatMap { source in
            source.lines.enumerated().filter { $0.element.count > 120 }.map { "\(source.path):\($0.offset + 1)" }
        }
        XCTAssertLessThanOrEqual(long.count, 15, "lines over 120 columns: \(long.joined(separator: ", "))")
    }
}
