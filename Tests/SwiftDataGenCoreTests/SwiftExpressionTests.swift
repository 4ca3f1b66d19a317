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
            ("1foo", "a number runs into a name"),
            ("$[] == \"gold\" ? 1 : 0", "'$' is not a name"),
            ("$ + 1", "'$' is not a name"),
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

extension SwiftExpressionTests {
    /// A closure's body is checked statement by statement: expressions, `return`, and `let`/`var`
    /// with a value; statements a value never needs are refused, and so is a statement that is
    /// not one expression.
    func testClosureBodiesAreCheckedStatementByStatement() {
        for accepted in [
            "$0.map { String($0) }", "{ let d = Date(); return d }()", "{ x in x + 1 }(2)", "{ return }()",
            "$0.filter { $0 > 1 }.count", "{ a, b in a + b }(1, 2)",
            "{ let x: Int = 1\n return x }()", "{ x\n .y }()", "{ 1 +\n 2 }()", "{ \"a;b\" }()",
            "$0.sorted { $0 < $1 }",
            "$0.map { (a: Int) -> Int in a * 2 }", "{ if a { } }()",
            "{ guard let s = $0 else { return 0 }\n return Int(s) ?? 0 }(x)",
            "{ if let a = b, a > 1 {\n return a\n} else if c {\n return 2\n}\nelse { return 3 } }()",
            "if a { 1 } else { 2 }",
        ] {
            XCTAssertNil(SwiftExpression.problem(in: accepted), accepted)
        }
        for (refused, words) in [
            ("$0.map { 1 2 }", "follows a complete expression"), ("{ for a in b {} }()", "'for' starts a statement"),
            ("{ let = 3 }()", "'let' needs a name"), ("{ guard a else { 1 } }()", "must end in 'return'"),
            ("{ if a b { } }()", "in a closure"),
            ("{ if x.contains { $0 } { } }()", "needs parentheses"), ("if a { 1 2 } else { 3 }", "branch"),
            ("switch a { default: 1 }", "switch"),
            ("{ let x 3 }()", "needs '= value'"), ("{ x = }()", "in a closure"), ("{ return 1 + }()", "in a closure"),
            ("{ [weak self] in 1 }()", "capture list"), ("{ let a=\n.b }()", "consistent"),
            ("try?...x", "space after"), ("\"s\" is ( in 1)", "needs a type"),
        ] {
            let problem = SwiftExpression.problem(in: refused)
            XCTAssertTrue(problem?.contains(words) == true, "\(refused): \(problem ?? "accepted")")
        }
    }
}
