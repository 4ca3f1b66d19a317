import Foundation
import SwiftDataGenCore
import SwiftParser
import SwiftSyntax
import XCTest

/// The generator's check that `expression:` is one Swift expression (a tokenizer and a shape
/// check, so that the generator needs no parser) against Swift's own parser: every text it accepts
/// must parse, as an initial value, as exactly that one expression, closures and their bodies
/// (`SwiftExpression+Closure`) included.
final class ExpressionCheckTests: XCTestCase {
    /// Whether Swift reads `text` as one complete initial value and nothing more.
    static func parsesAsOneExpression(_ text: String) -> Bool {
        let source = "var v = " + text + "\n"
        let tree = Parser.parse(source: source)
        guard !tree.hasError, tree.statements.count == 1,
            let declaration = tree.statements.first?.item.as(VariableDeclSyntax.self),
            declaration.bindings.count == 1, let value = declaration.bindings.first?.initializer?.value
        else { return false }
        return value.trimmedDescription == text.trimmingCharacters(in: .whitespaces)
    }

    /// Expressions apps write: Swift reads each as one, and the check accepts each.
    func testWhatAppsWriteIsAccepted() {
        for text in [
            "Date.now", "UUID()", "Decimal(string: $0) ?? 0", "$0.hasPrefix(\"!\") ? .urgent : nil",
            "Calendar.current.startOfDay(for: .now)", "Set<String>()", "[String: Int]()", "$0.map(String.init)",
            "Date.now.addingTimeInterval(-86_400)", "Array(repeating: 0, count: 3)", "$0?.count ?? 0",
            "$0 as? Int ?? 0", "try? JSONDecoder().decode([String].self, from: $0)", "URL(string: \"https://a.b\")!",
            "TimeZone.current.identifier", "EventSourceType.manual.rawValue", "[1: \"a\"]", "(a: 1, b: 2)",
        ] {
            XCTAssertTrue(Self.parsesAsOneExpression(text), "Swift does not read \(text) as one expression")
            XCTAssertNil(SwiftExpression.problem(in: text), text)
        }
    }

    func testEveryTextTheCheckAcceptsIsOneExpressionToSwift() {
        // SDG_EXPRESSION_SEED and SDG_EXPRESSION_ROUNDS run other and longer sweeps (FUZZING.md).
        let environment = ProcessInfo.processInfo.environment
        var state: UInt64 = environment["SDG_EXPRESSION_SEED"].flatMap { UInt64($0) } ?? 0x5_DEEC_E66D
        let rounds = environment["SDG_EXPRESSION_ROUNDS"].flatMap { Int($0) } ?? 40_000
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = [
            "1", "2.5", "$0", "x", "foo", "Int", ".a", "+", "-", "*", "==", "!", "?", ":", ",", ".", "(", ")", "[", "]",
            "{", "}", "\"s\"", " ", " ", "as", "is", "try", "nil", "true", "...", "->", "=", "&&", "in", "_", "#",
            "{ ", " }", "\n", ";", "let ", "return ", " in ", "$0", "{ $0", "()", "if ", "guard ", " else ",
            "else { return 0 }", " { 1 } else { 2 }",
        ]
        var accepted = 0
        var wrong: [String] = []
        var closures = 0
        for round in 0..<rounds {
            var text = (0..<(1 + next(6))).map { _ in pieces[next(pieces.count)] }.joined()
            // Every fourth text is a closure called in place or passed to a call, around a soup.
            if round % 4 == 0 {
                text = next(2) == 0 ? "{ \(text) }()" : "x.map { \(text) }"
            }
            guard SwiftExpression.problem(in: text) == nil else { continue }
            accepted += 1
            if text.contains("{") { closures += 1 }
            if !Self.parsesAsOneExpression(text) { wrong.append(text) }
        }
        XCTAssertGreaterThan(accepted, 1_000, "too few texts accepted to compare")
        XCTAssertGreaterThan(closures, 300, "too few closures accepted to compare")
        XCTAssertEqual(wrong, [], "accepted by the check, not one expression to Swift (\(wrong.count) of \(accepted))")
    }
}
