import Foundation
import XCTest

/// `diagram` and `plan --format markdown` through the built executable.
extension CLITests {
    func testDiagramPrintsTheCurrentVersionAStepOrAnOlderVersion() throws {
        let schema = try copyInput("library")
        let golden = GoldenTests.folder("library").appendingPathComponent("diagrams")
        func expected(_ file: String) throws -> String {
            try String(contentsOf: golden.appendingPathComponent(file), encoding: .utf8)
        }
        let current = try run("diagram", schema)
        XCTAssertEqual(current.status, 0, current.stderr)
        XCTAssertEqual(current.stdout, try expected("current.mmd"))
        XCTAssertEqual(try run("diagram", schema, "--format", "dot").stdout, try expected("current.dot"))
        XCTAssertEqual(try run("diagram", schema, "--changes").stdout, try expected("changes-4.0.0..5.0.0.mmd"))
        XCTAssertEqual(
            try run("diagram", "--changes", "1.0.0..2.0.0", schema).stdout, try expected("changes-1.0.0..2.0.0.mmd"))
        XCTAssertEqual(
            try run("diagram", schema, "--changes=2.0.0..3.0.0", "--format=dot").stdout,
            try expected("changes-2.0.0..3.0.0.dot"))
        let older = try run("diagram", schema, "--version", "1.0.0")
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertTrue(older.stdout.contains("String title\n"), older.stdout)
        XCTAssertEqual(try run("plan", schema, "--format", "markdown").stdout, try expected("plan.md"))
    }

    func testDiagramRefusesWhatTheHistoryDoesNotHave() throws {
        let schema = try copyInput("library")
        for (arguments, message) in [
            (["--version", "9.0.0"], "Library has no version 9.0.0; it has 1.0.0, 2.0.0, 3.0.0, 4.0.0, 5.0.0"),
            (["--changes", "1.0.0..3.0.0"], "1.0.0..3.0.0 is not one step"),
            (["--changes=5.0.0..6.0.0"], "Library has no step 5.0.0..6.0.0"),
            (["--changes=latest"], "--changes takes two versions as A..B"),
            (["--changes", "--version", "1.0.0"], "give one of them"),
            (["--format", "svg"], "--format is mermaid or dot, not 'svg'"),
            (["--schema", "Shop"], "--schema Shop: the folder holds Library"),
        ] {
            let result = try run(["diagram", schema] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "nothing drawn for \(arguments)")
        }
        let single = try run("diagram", try copyInput("music"), "--changes")
        XCTAssertEqual(single.status, 2)
        XCTAssertTrue(single.stderr.contains("has one version"), single.stderr)
        let broken = try run("diagram", try copyInput("plan-errors"))
        XCTAssertEqual(broken.status, 1, "a history that does not validate is not drawn")
        XCTAssertTrue(broken.stderr.contains("error:"), broken.stderr)
    }

    /// `--output` writes the file in one step, Markdown around the diagram for `.md`, and never
    /// replaces a file it did not write.
    func testDiagramAndPlanWriteTheirFileAndNoOneElses() throws {
        let schema = try copyInput("trips")
        let page = scratch.appendingPathComponent("SCHEMA.md").path
        XCTAssertEqual(try run("diagram", schema, "--output", page).status, 0)
        let written = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(
            written.hasPrefix(
                "<!-- swiftdata-gen: generated; edits are replaced -->\n### Trips 3.0.0\n\n```mermaid\nerDiagram\n"),
            written)
        XCTAssertEqual(try run("diagram", schema, "--changes", "-o", page).status, 0, "its own file is replaced")
        XCTAssertTrue(try String(contentsOfFile: page, encoding: .utf8).contains("**Stages**"))

        let dot = scratch.appendingPathComponent("trips.dot").path
        XCTAssertEqual(try run("diagram", schema, "--format", "dot", "-o", dot).status, 0)
        XCTAssertTrue(try String(contentsOfFile: dot, encoding: .utf8).hasPrefix("// swiftdata-gen: generated"))

        let plan = scratch.appendingPathComponent("PLAN.md").path
        XCTAssertEqual(try run("plan", schema, "--format", "markdown", "--output", plan).status, 0)
        XCTAssertTrue(try String(contentsOfFile: plan, encoding: .utf8).contains("### 2.0.0 → 3.0.0"))
        let text = try run("plan", schema, "--output", plan)
        XCTAssertEqual(text.status, 2, "text and json are printed, not written")

        let readme = scratch.appendingPathComponent("README.md").path
        try "# My app\n".write(toFile: readme, atomically: true, encoding: .utf8)
        let refused = try run("diagram", schema, "--output", readme)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("was not written by swiftdata-gen"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: readme, encoding: .utf8), "# My app\n", "left as it was")
    }
}
