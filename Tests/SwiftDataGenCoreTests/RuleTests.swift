import XCTest

@testable import SwiftDataGenCore

/// Every rule of every scope reports its code on the example it declares: a rule in a list is one
/// that fires, and its example shows a newcomer what it refuses.
final class RuleTests: XCTestCase {
    private func diagnostics(of example: [(file: String, text: String)]) -> [Diagnostic] {
        let files = example.map {
            SourceFile(displayPath: $0.file, relativePath: $0.file, bytes: Array($0.text.utf8))
        }
        let config = SourceFile(
            displayPath: "swiftdata-gen.yaml", relativePath: "swiftdata-gen.yaml",
            bytes: Array("platforms: { iOS: 18, macOS: 15 }\n".utf8))
        let (histories, validation) = Generator.validate(SchemaSources(config: config, versions: files))
        return validation + histories.flatMap { MigrationPlanner.plan($0).1 }
    }

    private func check<Subject>(_ rules: [Rule<Subject>], _ scope: String) {
        XCTAssertFalse(rules.isEmpty, "no \(scope) rules")
        for rule in rules {
            let said = diagnostics(of: rule.example)
            XCTAssertTrue(
                said.contains { $0.code == rule.code },
                "the \(scope) rule \(rule.code.rawValue) says nothing on its example; it said:\n"
                    + said.map(\.rendered).joined(separator: "\n"))
        }
    }

    func testEveryVersionRuleFiresOnItsExample() { check(Rules.version, "version") }
    func testEveryHistoryRuleFiresOnItsExample() { check(Rules.history, "history") }
    func testEveryStepRuleFiresOnItsExample() { check(Rules.step, "step") }

    /// A rule's example breaks that rule and no other, so it shows what the rule is about.
    func testEachExampleBreaksOnlyItsOwnRule() {
        let all: [(DiagnosticCode, [(file: String, text: String)])] =
            Rules.version.map { ($0.code, $0.example) } + Rules.history.map { ($0.code, $0.example) }
            + Rules.step.map { ($0.code, $0.example) }
        for (code, example) in all {
            let others = diagnostics(of: example).filter { $0.severity == .error && $0.code != code }
            XCTAssertEqual(others.map(\.rendered), [], "the example of \(code.rawValue) breaks other rules too")
        }
    }
}
