import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Runs the official Mustache spec (core modules) against our engine.
final class MustacheSpecTests: XCTestCase {
    private func runSpec(_ module: String) throws {
        let url = TestPaths.fixtures.appendingPathComponent("mustache-spec/\(module).json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let tests = try XCTUnwrap(json?["tests"] as? [[String: Any]])
        XCTAssertFalse(tests.isEmpty)
        for test in tests {
            let name = test["name"] as? String ?? "?"
            let template = try XCTUnwrap(test["template"] as? String)
            let expected = try XCTUnwrap(test["expected"] as? String)
            let partials = (test["partials"] as? [String: String]) ?? [:]
            let data = MustacheValue(json: test["data"] ?? NSNull())
            do {
                let output = try MustacheTemplate(template).render(data, partials: partials)
                XCTAssertEqual(output, expected, "\(module): \(name)")
            } catch {
                XCTFail("\(module): \(name) threw \(error)")
            }
        }
    }

    func testComments() throws { try runSpec("comments") }
    func testDelimiters() throws { try runSpec("delimiters") }
    func testInterpolation() throws { try runSpec("interpolation") }
    func testInverted() throws { try runSpec("inverted") }
    func testPartials() throws { try runSpec("partials") }
    func testSections() throws { try runSpec("sections") }

    func testUnclosedSectionIsAnError() {
        XCTAssertThrowsError(try MustacheTemplate("{{#a}}x")) { error in
            XCTAssertEqual((error as? MustacheTemplate.ParseError)?.message, "section 'a' is never closed")
        }
    }

    func testMismatchedCloseIsAnError() {
        XCTAssertThrowsError(try MustacheTemplate("{{#a}}\n{{/b}}")) { error in
            XCTAssertEqual((error as? MustacheTemplate.ParseError)?.line, 2)
        }
    }

    func testNoEscapingModeLeavesCodeAlone() throws {
        let output = try MustacheTemplate("{{code}}").render(["code": "a < b && c"], escaping: .none)
        XCTAssertEqual(output, "a < b && c")
    }
}
