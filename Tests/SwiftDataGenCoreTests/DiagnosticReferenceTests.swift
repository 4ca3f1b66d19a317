import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The catalog's diagnostics page is generated from the code list; a code added without it fails here.
final class DiagnosticReferenceTests: XCTestCase {
    func testTheReferencePageListsEveryCode() throws {
        let url = TestPaths.packageRoot.appendingPathComponent(Documentation.catalog + "/Reference/Diagnostics.md")
        let page = DiagnosticCode.referencePage
        if ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" {
            try page.write(to: url, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(
            try String(contentsOf: url, encoding: .utf8), page, "Reference/Diagnostics.md is stale; re-record it")
        for code in DiagnosticCode.allCases {
            XCTAssertTrue(page.contains("## \(code.rawValue)\n"), code.rawValue)
        }
        XCTAssertEqual(
            Set(DiagnosticCode.allCases.map(\.rawValue)).count, DiagnosticCode.allCases.count, "codes are unique")
    }

    /// Each code is reported with the severity its facts say, in every place the sources report
    /// it (`.error(.code` or `.warning(.code`, in the generator and the importer).
    func testEachCodeIsReportedWithItsSeverity() throws {
        var found: [String: Set<String>] = [:]
        for folder in ["Sources", "Importer/Sources"] {
            let root = TestPaths.packageRoot.appendingPathComponent(folder)
            for case let file as String in try XCTUnwrap(FileManager.default.enumerator(atPath: root.path))
            where file.hasSuffix(".swift") && !file.contains(".docc/") {
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: /\.(warning|error)\(\s*\.([a-zA-Z]+)/) {
                    found[String(match.2), default: []].insert(String(match.1))
                }
            }
        }
        XCTAssertGreaterThan(found.count, 60, "the scan found the places codes are reported")
        for code in DiagnosticCode.allCases {
            let name = "\(code)"
            let said = found[name] ?? []
            switch code.severity {
            case .error: XCTAssertTrue(said.isSubset(of: ["error"]), "\(code.rawValue) \(name) is also a warning")
            case .warning:
                XCTAssertTrue(said.isSubset(of: ["warning"]), "\(code.rawValue) \(name) is also an error")
            case .either:
                XCTAssertEqual(said, ["error", "warning"], "\(code.rawValue) \(name) is not reported both ways")
            }
        }
    }

    /// The schema-files page's table of codes by area is made from the codes and their facts.
    func testTheCodeTableIsGenerated() throws {
        let url = Documentation.catalogURL.appendingPathComponent("Reference/SchemaFiles.md")
        var page = try String(contentsOf: url, encoding: .utf8)
        let start =
            "<!-- Generated from DiagnosticCode: SDG_RECORD_GOLDENS=1 swift test --filter DiagnosticReferenceTests rewrites it. -->"
        let end = "<!-- End of the generated table of codes. -->"
        var rows = ["| codes | area | what each says |", "|---|---|---|"]
        for area in DiagnosticCode.Area.allCases {
            let codes = DiagnosticCode.allCases.filter { $0.area == area }.sorted { $0.rawValue < $1.rawValue }
            guard let first = codes.first, let last = codes.last else { continue }
            let said = codes.map { code in
                "\(code.rawValue)\(code.severity == .error ? "" : " (\(code.severity.rawValue))"): \(code.summary)"
            }
            rows.append(
                "| \(first.rawValue)–\(last.rawValue) | \(area.rawValue) | "
                    + said.joined(separator: "; ").replacingOccurrences(of: "|", with: "\\|") + " |")
        }
        let region = ([start] + rows + [end]).joined(separator: "\n")
        let lower = try XCTUnwrap(page.range(of: start), "Reference/SchemaFiles.md lost the marker \(start)")
        let upper = try XCTUnwrap(page.range(of: end, range: lower.upperBound..<page.endIndex))
        if ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" {
            page.replaceSubrange(lower.lowerBound..<upper.upperBound, with: region)
            try page.write(to: url, atomically: true, encoding: .utf8)
        } else {
            XCTAssertEqual(
                String(page[lower.lowerBound..<upper.upperBound]), region,
                "Reference/SchemaFiles.md's table of codes is stale; re-record it")
        }
    }
}
