import Foundation
import XCTest

/// What the code and the notes cite must be in the clone: a page under `docs/` and, where a heading
/// is quoted after it, a heading of that page. Numbered sections and source tags of notes kept
/// elsewhere cannot be read by someone who clones the repository.
final class CitationTests: XCTestCase {
    private static let roots = ["Sources", "Importer/Sources", "Plugins", "Tests", "Importer/Tests", "scripts", "docs"]
    private static let extensions: Set<String> = ["swift", "sh", "py", "md"]

    /// Every text file the check reads, with its path from the package root; fixtures are the
    /// apps' and goldens' text, not ours.
    private func sources() throws -> [(path: String, text: String)] {
        var result: [(String, String)] = []
        for root in Self.roots {
            let url = TestPaths.packageRoot.appendingPathComponent(root)
            guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walk {
                let path = String(file.path.dropFirst(TestPaths.packageRoot.path.count + 1))
                guard Self.extensions.contains(file.pathExtension), !path.contains("/Fixtures/"),
                    !path.contains(".build/"), file.lastPathComponent != "CitationTests.swift"
                else { continue }
                result.append((path, try String(contentsOf: file, encoding: .utf8)))
            }
        }
        return result
    }

    private func headings(of page: String) throws -> Set<String> {
        let text = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/\(page)"), encoding: .utf8)
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }.map {
                String($0.drop { $0 == "#" }.dropFirst())
            })
    }

    func testNothingCitesNotesOutsideTheClone() throws {
        let outside = [
            "evidence §", "[S1", "[S2", "[S3", "[S4", "DESIGN §", "coredata-version-hash.md", "shared/reference",
            "swiftdata-migration-evidence.md",
        ]
        for (path, text) in try sources() {
            for marker in outside where text.contains(marker) {
                XCTFail("\(path) cites \(marker), which is not in the repository; cite a page of docs/ by its heading")
            }
        }
    }

    /// `docs/store-evidence.md, "A stage ended part way"`, in a comment or a message: the page
    /// exists and every heading quoted after it, up to the closing parenthesis, is one of its own.
    func testEveryCitedPageAndHeadingExists() throws {
        let citation = try NSRegularExpression(
            pattern: #"docs/([A-Za-z0-9_-]+\.md)([^)\n]*(?:\n\s*(?:///?|#)[^)\n]*)*)"#)
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        var cited = 0
        for (path, text) in try sources() {
            let whole = NSRange(text.startIndex..., in: text)
            for match in citation.matches(in: text, range: whole) {
                guard let pageRange = Range(match.range(at: 1), in: text),
                    let tail = Range(match.range(at: 2), in: text)
                else { continue }
                let page = String(text[pageRange])
                let known = FileManager.default.fileExists(
                    atPath: TestPaths.packageRoot.appendingPathComponent("docs/\(page)").path)
                XCTAssertTrue(known, "\(path) cites docs/\(page), which does not exist")
                guard known else { continue }
                let headings = try headings(of: page)
                // A heading wrapped onto the next comment line is read as one line.
                let after = text[tail].replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(
                    of: #"\n\s*(///?|#) ?"#, with: " ", options: .regularExpression)
                for heading in quoted.matches(in: after, range: NSRange(after.startIndex..., in: after)) {
                    guard let range = Range(heading.range(at: 1), in: after) else { continue }
                    let name = String(after[range])
                    // Quoted text that is code or a message, not a heading, starts in lower case
                    // or holds a backtick; headings here start with a capital.
                    guard name.first?.isUppercase == true, !name.contains("`") else { continue }
                    XCTAssertTrue(headings.contains(name), "\(path) cites \"\(name)\", not a heading of docs/\(page)")
                    cited += 1
                }
            }
        }
        XCTAssertGreaterThan(cited, 30, "the check found too few cited headings to mean anything")
    }
}
