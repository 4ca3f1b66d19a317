import Foundation
import SwiftDataGenDiagrams
import XCTest

@testable import SwiftDataGenCore

/// The diagrams of every golden history and corpus app, held to goldens, to the `erDiagram`
/// grammar and to Graphviz. Re-record with `SDG_RECORD_GOLDENS=1 swift test --filter DiagramTests`.
final class DiagramTests: XCTestCase {
    /// Per case with a valid history: the current version and every step, in Mermaid and DOT, and
    /// the plan as Markdown, in `<case>/diagrams/`.
    static func produce(_ name: String) throws -> [String: String] {
        let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
        return try draw(SchemaLoader.read(directory: input).get())
    }

    static func draw(_ sources: SchemaSources) throws -> [String: String] {
        let (histories, validation) = Generator.validate(sources)
        guard !validation.hasErrors else { return [:] }
        var files: [String: String] = [:]
        for history in histories {
            let (plan, diagnostics) = MigrationPlanner.plan(history)
            guard !diagnostics.hasErrors else { continue }
            let prefix = histories.count > 1 ? history.name + "-" : ""
            let current = try SchemaPicture.version(nil, of: history).get()
            files[prefix + "current.mmd"] = MermaidDiagram.render(current)
            files[prefix + "current.dot"] = DOTDiagram.render(current)
            for (old, new) in zip(history.versions, history.versions.dropFirst()) {
                let step = try SchemaPicture.step((old.version, new.version), of: history, plan: plan).get()
                files[prefix + "changes-\(old.version)..\(new.version).mmd"] = MermaidDiagram.render(step)
                files[prefix + "changes-\(old.version)..\(new.version).dot"] = DOTDiagram.render(step)
            }
            files[prefix + "plan.md"] = PlanMarkdown.render(history: history, plan: plan)
        }
        return files
    }

    func testEveryHistoryDrawsItsGolden() throws {
        var drawn = 0
        for name in GoldenTests.caseNames {
            let produced = try Self.produce(name)
            let folder = GoldenTests.folder(name).appendingPathComponent("diagrams")
            if ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" {
                try? FileManager.default.removeItem(at: folder)
                if !produced.isEmpty {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
                for (file, text) in produced {
                    try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
                }
            }
            let expected = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            XCTAssertEqual(expected.sorted(), produced.keys.sorted(), "\(name): the set of diagrams differs")
            for file in expected {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                XCTAssertEqual(produced[file], text, "\(name)/diagrams/\(file) differs; re-record and review")
            }
            drawn += produced.count
        }
        XCTAssertGreaterThan(drawn, 100)
    }

    /// Every Mermaid diagram drawn, including hostile names, parses under a strict reading of the
    /// `erDiagram` grammar (MermaidGrammar below).
    func testEveryMermaidDiagramFollowsTheGrammar() throws {
        var checked = 0
        for name in GoldenTests.caseNames {
            for (file, text) in try Self.produce(name) where file.hasSuffix(".mmd") {
                XCTAssertEqual(MermaidGrammar.problems(in: text), [], "\(name)/\(file)\n\(text)")
                checked += 1
            }
        }
        for (file, text) in try Self.draw(Self.hostile) where file.hasSuffix(".mmd") {
            XCTAssertEqual(MermaidGrammar.problems(in: text), [], "hostile/\(file)\n\(text)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 50)
    }

    /// Graphviz draws every DOT file without an error or a warning.
    func testEveryDOTDiagramRendersInGraphviz() throws {
        guard
            let dot = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            if ProcessInfo.processInfo.environment["SDG_REQUIRE_GRAPHVIZ"] == "1" {
                return XCTFail("Graphviz's dot is not installed; .ci/run installs the graphviz package")
            }
            // Local runs only: .ci/run installs Graphviz and sets SDG_REQUIRE_GRAPHVIZ=1, failing above.
            throw XCTSkip(
                "Graphviz's dot is not installed, so the DOT goldens are not drawn here; install it "
                    + "(apt-get install graphviz, brew install graphviz) or run .ci/run, which requires it")
        }
        var sources: [(String, String)] = []
        for name in GoldenTests.caseNames {
            sources += try Self.produce(name).filter { $0.key.hasSuffix(".dot") }.map {
                ("\(name)/\($0.key)", $0.value)
            }
        }
        sources += try Self.draw(Self.hostile).filter { $0.key.hasSuffix(".dot") }.map {
            ("hostile/\($0.key)", $0.value)
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-dot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // One dot process for all: it reads every file named and draws each graph.
        var paths: [String] = []
        for (index, source) in sources.enumerated() {
            let path = scratch.appendingPathComponent("\(index).dot").path
            try source.1.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tsvg", "-O"] + paths
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertEqual(stderr, "", "dot warned")
        XCTAssertGreaterThan(sources.count, 50)
    }

    /// Each kind of relationship gets its crow's-foot ends, an inverse pair is drawn once, and
    /// inheritance, one-way and self-references are told apart.
    func testRelationshipsAreDrawnWithTheirCardinality() throws {
        let files = try Self.draw(Self.sources(["1.0.0.yaml": Self.shapes], config: Self.inheritanceConfig))
        let mermaid = try XCTUnwrap(files["current.mmd"])
        let lines = mermaid.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for expected in [
            "Person |o--o{ Pet : \"pets (cascade) / owner (nullify)\"",
            "Person }o--o{ Club : \"clubs (nullify) / members (nullify)\"",
            "Person |o--o{ Person : \"friends (nullify) / friendOf (nullify)\"",
            "Pet }o..|| Tag : \"tag (deny), one-way\"",
            "Person ||--|{ Address : \"addresses (cascade) / resident (nullify)\"",
            "Pet ||..o| Dog : \"superclass of Dog\"",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing: \(expected)\n\(mermaid)")
        }
        XCTAssertEqual(lines.filter { $0.contains("pets") }.count, 1, "an inverse pair is drawn once")
        XCTAssertTrue(lines.contains("String email UK \"optional\""), mermaid)
        XCTAssertTrue(lines.contains("String[] nicknames"), mermaid)
    }

    /// A step marks what it adds, removes, renames, converts and makes unique, and lists its stages.
    func testAStepMarksEachChange() throws {
        let files = try Self.draw(Self.sources(["1.0.0.yaml": Self.stepOne, "2.0.0.yaml": Self.stepTwo]))
        let step = try XCTUnwrap(files["changes-1.0.0..2.0.0.mmd"])
        for expected in [
            "String heading \"renamed from title\"",
            "Int count \"converted: from size (String → Int)\"",
            "String size \"removed: read by a conversion, then dropped\"",
            "String code UK \"made unique\"",
            "Date createdAt \"added\"",
            "String notes \"optional, removed: its values are dropped\"",
            "model added",
            "%% stage: custom 1.0.0 → bridge",
        ] {
            XCTAssertTrue(step.contains(expected), "missing: \(expected)\n\(step)")
        }
        let dot = try XCTUnwrap(files["changes-1.0.0..2.0.0.dot"])
        XCTAssertTrue(dot.contains("#e6f4ea") && dot.contains("#fce8e6") && dot.contains("<s>"), dot)
    }

    /// Names Mermaid reads as its own words are quoted or shown with `_`; nothing a name holds
    /// reaches the Markdown around a diagram.
    func testHostileNamesStayInsideTheDiagram() throws {
        let files = try Self.draw(Self.hostile)
        let mermaid = try XCTUnwrap(files["current.mmd"])
        XCTAssertTrue(mermaid.contains("    \"style\" {"), mermaid)
        XCTAssertTrue(mermaid.contains("PK_ uk_ \"type PK, named uk, optional\""), mermaid)
        let markdown = try XCTUnwrap(files["plan.md"])
        XCTAssertFalse(markdown.contains("<"), "no HTML from a name: \(markdown)")
        XCTAssertTrue(markdown.contains("snake\\_case"), markdown)
    }

    /// The diagrams article's Mermaid block, and the `.mmd` files the pictures of the catalog and
    /// README are drawn from, are what the tool draws today.
    func testTheDocumentationShowsTodaysDiagrams() throws {
        let files = try Self.produce("trips")
        let article = try String(
            contentsOf: Documentation.catalogURL.appendingPathComponent("Articles/DiagramsAndCI.md"), encoding: .utf8)
        XCTAssertTrue(
            article.contains("```mermaid\n" + (files["current.mmd"] ?? "-") + "```\n"), "the article's block is stale")
        let readme = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(
            readme.contains("(\(Documentation.catalog)/Resources/trips-changes@2x.png)"), "README lost its picture")
        let docs = TestPaths.packageRoot.appendingPathComponent(Documentation.catalog + "/Resources")
        XCTAssertEqual(
            try String(contentsOf: docs.appendingPathComponent("trips.mmd"), encoding: .utf8), files["current.mmd"])
        XCTAssertEqual(
            try String(contentsOf: docs.appendingPathComponent("trips-changes.mmd"), encoding: .utf8),
            files["changes-2.0.0..3.0.0.mmd"])
    }

    // MARK: inputs

    static func sources(_ versions: [String: String], config: String = "platforms: { iOS: 18, macOS: 15 }\n")
        -> SchemaSources
    {
        SchemaSources(
            config: SourceFile(displayPath: "c.yaml", relativePath: "c.yaml", bytes: Array(config.utf8)),
            versions: versions.sorted { $0.key < $1.key }.map {
                SourceFile(displayPath: $0.key, relativePath: $0.key, bytes: Array($0.value.utf8))
            })
    }

    static let inheritanceConfig = "platforms: { iOS: 26, macOS: 26 }\n"

    static let shapes = """
        schema: Shapes
        version: 1.0.0
        models:
          Person:
            properties:
              email: { type: String?, unique: true }
              nicknames: "[String]"
              pets: { type: "[Pet]", deleteRule: cascade, inverse: owner }
              clubs: { type: "[Club]", inverse: members }
              friends: { type: "[Person]", inverse: friendOf }
              friendOf: Person?
              addresses: { type: "[Address]", deleteRule: cascade, minCount: 1, inverse: resident }
          Address:
            properties:
              resident: Person
          Pet:
            properties:
              owner: Person?
              tag: { type: Tag, deleteRule: deny, inverse: false }
          Dog:
            superclass: Pet
            properties:
              breed: String?
          Club:
            properties:
              members: "[Person]"
          Tag:
            properties:
              label: String

        """

    static let stepOne = """
        schema: Steps
        version: 1.0.0
        models:
          Item:
            properties:
              title: String
              size: String
              code: String
              notes: String?

        """

    static let stepTwo = """
        schema: Steps
        version: 2.0.0
        acknowledgedRemovals: [Item.notes]
        models:
          Item:
            dedupe: { keep: last, orderBy: heading }
            properties:
              heading: { type: String, renamedFrom: title }
              count: { type: Int, default: 0, from: { property: size, convert: "Int($0) ?? 0" } }
              code: { type: String, unique: true }
              createdAt: { type: Date, default: "2024-01-01T00:00:00Z" }
          Shelf:
            properties:
              label: String

        """

    /// Names that are Mermaid's words, keys or Markdown's syntax, in every position a name takes.
    static let hostile = sources([
        "1.0.0.yaml": """
        schema: snake_case
        version: 1.0.0
        enums:
          PK: { rawType: String, cases: [a, b] }
        models:
          style:
            properties:
              uk: PK?
              end: String
              to: "[direction]"
          direction:
            properties:
              classDef: String
              back: { type: style?, inverse: to }

        """
    ])
}

/// A strict reading of Mermaid's `erDiagram` grammar (mermaid.js.org/syntax/entityRelationshipDiagram):
/// entity blocks of `type name [PK|FK|UK] ["comment"]` rows and relationship statements
/// `A <card><line><card> B : "label"`. Anything else is a problem, named with its line.
enum MermaidGrammar {
    static let leftCardinalities = ["|o", "||", "}o", "}|"]
    static let rightCardinalities = ["o|", "||", "o{", "|{"]
    static let keywords: Set<String> = [
        "erdiagram", "acctitle", "accdescr", "direction", "style", "classdef", "class", "to", "optionally", "one",
        "zero", "only", "many", "u", "title", "end", "pk", "fk", "uk", "md_parent",
    ]

    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == "erDiagram" else { return ["line 1 is not erDiagram"] }
        guard lines.last == "" else { return ["no final newline"] }
        lines.removeFirst()
        lines.removeLast()
        var inBlock = false
        for (offset, line) in lines.enumerated() {
            let number = offset + 2
            func fail(_ why: String) { problems.append("line \(number): \(why): \(line)") }
            if inBlock {
                if line == "    }" {
                    inBlock = false
                } else if !line.hasPrefix("        ") || !isAttributeRow(String(line.dropFirst(8))) {
                    fail("not an attribute row")
                }
                continue
            }
            guard line.hasPrefix("    ") else {
                fail("not indented")
                continue
            }
            let body = String(line.dropFirst(4))
            if body.hasPrefix("%% ") { continue }
            if body.hasSuffix(" {") {
                if isEntityName(String(body.dropLast(2))) { inBlock = true } else { fail("bad entity name") }
                continue
            }
            if isEntityName(body) { continue }
            if !isRelationship(body) { fail("not a relationship statement") }
        }
        if inBlock { problems.append("an entity block is not closed") }
        return problems
    }

    /// A bare name that is no keyword, or a quoted name without quotes inside.
    static func isEntityName(_ text: String) -> Bool {
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 3 {
            return !text.dropFirst().dropLast().contains("\"")
        }
        return isWord(text, first: { $0.isLetter || $0 == "_" }) && !keywords.contains(text.lowercased())
    }

    static func isAttributeRow(_ row: String) -> Bool {
        var rest = Substring(row)
        var comment: Substring?
        if let quote = rest.firstIndex(of: "\"") {
            comment = rest[quote...]
            rest = rest[..<quote]
            guard let body = comment, body.count >= 2, body.hasSuffix("\""),
                !body.dropFirst().dropLast().contains("\""), rest.hasSuffix(" ")
            else { return false }
            rest = rest.dropLast()
        }
        let words = rest.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count >= 2, words.count <= 3 else { return false }
        let attributeWord: (String) -> Bool = { word in
            isWord(word, first: { $0.isLetter || $0 == "_" || $0 == "*" }, rest: "-_[]()")
                && !["pk", "fk", "uk"].contains(
                    String(word.prefix { $0.isLetter || $0.isNumber || $0 == "_" }).lowercased())
        }
        guard attributeWord(words[0]), attributeWord(words[1]) else { return false }
        return words.count == 2 || ["PK", "FK", "UK"].contains(words[2])
    }

    static func isRelationship(_ text: String) -> Bool {
        guard let colon = text.firstRange(of: " : ") else { return false }
        let label = text[colon.upperBound...]
        guard label.count >= 2, label.hasPrefix("\""), label.hasSuffix("\""),
            !label.dropFirst().dropLast().contains("\"")
        else { return false }
        let parts = text[..<colon.lowerBound].split(separator: " ").map(String.init)
        guard parts.count == 3, isEntityName(parts[0]), isEntityName(parts[2]), parts[1].count == 6 else {
            return false
        }
        let relation = Array(parts[1])
        return leftCardinalities.contains(String(relation[0..<2])) && ["--", ".."].contains(String(relation[2..<4]))
            && rightCardinalities.contains(String(relation[4..<6]))
    }

    private static func isWord(_ text: String, first: (Character) -> Bool, rest extra: String = "_") -> Bool {
        guard let head = text.first, head.isASCII, first(head) else { return false }
        return text.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || extra.contains($0)) }
    }
}
