import XCTest

@testable import SwiftDataGenCore

/// `expression:` and `from.convert` must be one Swift expression: what closes the closure, ends
/// the statement, comments out the rest of the line or declares something is refused.
final class SwiftExpressionTests: XCTestCase {
    func testExpressionsAreAccepted() {
        for text in [
            "Date.now", "$0", "Decimal(string: $0) ?? 0", "TicketState(rawValue: $0) ?? .open",
            "$0.hasPrefix(\"!\") ? .urgent : nil",
            "[1, 2, 3].map { $0 * 2 }", "{ let x = $0; return x }($0)", "\"a;b // not a comment }\"",
            "\"\\(1 + (2)) ok\"",
            "#\"raw \" still inside\"#", "#\"\\#($0) raw interpolation\"#", "\"\"\"\nmulti\nline\n\"\"\"", "(1 +\n 2)",
            "if $0 > 0 { 1 } else { 2 }", "try? JSONDecoder().decode([String].self, from: $0)", "Data()",
            "URL(string: \"https://a.b/c\")!",
            "1...", "-1", "!$0", ".open", "(1, 2)", "{ a, b in a + b }(1, 2)", "$0 as Int?", "$0 as Array<Int>",
            "Calendar.current.startOfDay(for: .now)", "Set<String>()", "[String: Int]()", "(1...10).map { $0 }",
            "$0.map(String.init)", "nil", "\"a\" + \"b\"", "UUID().uuidString", "Date.now.addingTimeInterval(-86_400)",
            "0x1F", "1e3", "-$0", "$0 ?? .none", "Array(repeating: 0, count: 3)", "(a: 1, b: 2)", "[:]", "[1: \"a\"]",
            "Mode.init(rawValue:)", "$0!.count", "$0?.count ?? 0", "x[0]", "$0 is String", "$0 as? Int ?? 0",
            "\"a, b = 2\"", "\"1 +\"",
        ] {
            XCTAssertNil(SwiftExpression.problem(in: text), text)
        }
    }

    func testWhatCouldBecomeCodeIsRefused() {
        let refused: [(String, String)] = [
            ("$0 }\nstatic func evil() {", "closes a bracket"),
            ("$0 } ; static var x = 1; let f = { $0", "closes a bracket"),
            ("0; print(1)", "';'"),
            ("$0 // and the rest", "comment"),
            ("$0 /* hidden */", "comment"),
            ("let x = 1", "'let'"),
            ("return $0", "'return'"),
            ("1\n2", "spans lines"),
            ("(1", "never closed"),
            ("\"open", "not closed"),
            ("\"\\(1 + 2\"", "not closed"),
            ("#if DEBUG\n1\n#endif", "#if"),
            ("1, c = 2", "','"),
            ("1 2", "follows a complete expression"),
            ("foo bar", "follows a complete expression"),
            ("x = 1", "not an operator that joins"),
            ("(1 2)", "separate values with ','"),
            ("[,]", "stands where a value is expected"),
            ("1foo", "follows a complete expression"),
            (".1", "member name"),
            ("a ?? ", "ends where a value is expected"),
            ("0 +", "ends with '+'"),
            ("1 ==", "ends with '='"),
            ("Int.", "ends with '.'"),
            ("true ? 1 :", "ends with ':'"),
            ("== 1", "starts with '='"),
            ("* 2", "starts with '*'"),
            ("", "empty"),
            ("  ", "empty"),
        ]
        for (text, fragment) in refused {
            let problem = SwiftExpression.problem(in: text)
            XCTAssertTrue(problem?.contains(fragment) == true, "\(text.debugDescription): \(problem ?? "accepted")")
        }
    }

    func testTheValidatorRefusesAtTheYAMLPosition() {
        let yaml =
            "schema: A\nversion: 1.0.0\nmodels:\n  M:\n    properties:\n      d: { type: Date, expression: "
            + "\"Date.now }; var injected = 1; let _ = { 0\" }\n"
        let diagnostics = Generator.validate(
            SchemaSources(
                config: nil,
                versions: [SourceFile(displayPath: "v.yaml", relativePath: "v.yaml", bytes: Array(yaml.utf8))])
        ).diagnostics
        XCTAssertEqual(diagnostics.map(\.code), [.invalidSwiftExpression])
        XCTAssertEqual(diagnostics.first?.location?.line, 6)
        XCTAssertEqual(diagnostics.first?.location?.column, 36)
    }

    /// Every expression the goldens and examples use stays accepted.
    func testEveryGoldenExpressionIsAccepted() throws {
        for name in GoldenTests.caseNames {
            let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
            let diagnostics = Generator.validate(try SchemaLoader.read(directory: input).get()).diagnostics
            XCTAssertFalse(diagnostics.contains { $0.code == .invalidSwiftExpression }, name)
        }
    }
}
