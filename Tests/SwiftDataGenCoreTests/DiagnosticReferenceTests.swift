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
}
