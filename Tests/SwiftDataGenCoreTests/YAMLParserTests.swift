import XCTest

@testable import SwiftDataGenCore

final class YAMLParserTests: XCTestCase {
    private func parse(_ text: String, limits: YAMLLimits = .standard) -> (YAMLNode?, [Diagnostic]) {
        let result = YAMLParser.parse(Array(text.utf8), file: "f.yaml", limits: limits)
        return (result.node, result.diagnostics)
    }

    private func onlyError(
        _ text: String, limits: YAMLLimits = .standard, file: StaticString = #filePath, line: UInt = #line
    ) -> Diagnostic? {
        let (node, diagnostics) = parse(text, limits: limits)
        XCTAssertNil(node, "a document with errors must not come back", file: file, line: line)
        XCTAssertEqual(diagnostics.filter(\.isError).count, 1, "\(diagnostics.map(\.rendered))", file: file, line: line)
        return diagnostics.first
    }

    func testKeepsScalarStyleAndLocation() throws {
        let (node, diagnostics) = parse("a: 1\nb: \"1\"\nc: 'no'\nd: no\n")
        XCTAssertTrue(diagnostics.isEmpty)
        guard case .mapping(let pairs) = try XCTUnwrap(node).content else { return XCTFail("expected a mapping") }
        XCTAssertEqual(pairs.map { $0.value.scalar?.style }, [.plain, .doubleQuoted, .singleQuoted, .plain])
        XCTAssertEqual(pairs[1].value.location, SourceLocation(file: "f.yaml", line: 2, column: 4))
    }

    func testNulInDoubleQuotedScalarIsKept() throws {
        let (node, _) = parse("a: \"x\\0y\"\n")
        guard case .mapping(let pairs) = try XCTUnwrap(node).content else { return XCTFail() }
        XCTAssertEqual(pairs[0].value.scalar?.value, "x\u{0}y")
    }

    func testDuplicateKeyPointsAtBoth() throws {
        let diagnostic = try XCTUnwrap(onlyError("a: 1\nb: 2\na: 3\n"))
        XCTAssertEqual(diagnostic.code, .duplicateKey)
        XCTAssertEqual(diagnostic.location?.line, 3)
        XCTAssertEqual(diagnostic.notes.first?.location?.line, 1)
    }

    func testDuplicateKeysAreFoundAtEveryMappingSize() throws {
        for count in [1, 7, 8, 9, 40] {
            for repeated in [0, count / 2, count - 1] {
                let keys = (0..<count).map { "k\($0): \($0)\n" }.joined()
                let diagnostic = try XCTUnwrap(
                    onlyError(keys + "k\(repeated): again\n"), "\(count) keys, k\(repeated) repeated")
                XCTAssertEqual(diagnostic.code, .duplicateKey)
                XCTAssertEqual(diagnostic.location?.line, count + 1)
                XCTAssertEqual(diagnostic.notes.first?.location?.line, repeated + 1)
            }
        }
    }

    func testPairsKeepTheirOrderAndValues() throws {
        let (node, diagnostics) = parse("z: [1, 2]\na: {b: c}\nm: x\n")
        XCTAssertTrue(diagnostics.isEmpty)
        guard case .mapping(let pairs) = try XCTUnwrap(node).content else { return XCTFail("expected a mapping") }
        XCTAssertEqual(pairs.map { $0.key.scalar?.value }, ["z", "a", "m"])
        guard case .sequence(let items) = pairs[0].value.content else { return XCTFail("expected a list") }
        XCTAssertEqual(items.map { $0.scalar?.value }, ["1", "2"])
        guard case .mapping(let inner) = pairs[1].value.content else { return XCTFail("expected a mapping") }
        XCTAssertEqual(inner.first?.value.scalar?.value, "c")
        XCTAssertEqual(pairs[2].value.scalar?.value, "x")
    }

    func testAliasesResolveToTheirAnchor() throws {
        let (node, diagnostics) = parse("a: &x {type: String}\nb: *x\n")
        XCTAssertTrue(diagnostics.isEmpty)
        guard case .mapping(let pairs) = try XCTUnwrap(node).content, case .mapping(let inner) = pairs[1].value.content
        else { return XCTFail() }
        XCTAssertEqual(inner.first?.value.scalar?.value, "String")
    }

    func testUndefinedAndSelfReferencingAliases() throws {
        XCTAssertEqual(onlyError("a: *nowhere\n")?.code, .undefinedAlias)
        XCTAssertEqual(onlyError("a: &x [1, *x]\n")?.code, .undefinedAlias)
    }

    func testAliasBombIsStoppedQuickly() throws {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level - 1)))
            let name = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level)))
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        let diagnostic = try XCTUnwrap(onlyError(text))
        XCTAssertEqual(diagnostic.code, .aliasExpansionLimit)
    }

    /// An alias-free file at the decoder's documented limits is no alias bomb: each node counts
    /// once, not once per ancestor. Both shapes of the limits are tried through validation.
    func testAFileAtTheDocumentedLimitsIsNotAnAliasBomb() throws {
        for (models, properties) in [
            (DSLDecoder.Limits.modelsPerVersion, 16), (40, DSLDecoder.Limits.propertiesPerModel),
        ] {
            var text = "schema: Big\nversion: 1.0.0\nmodels:\n"
            for m in 0..<models {
                text += "  M\(m):\n    properties:\n"
                for p in 0..<properties { text += "      p\(p): { type: String, default: \"x\" }\n" }
            }
            let file = SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(text.utf8))
            let diagnostics = Generator.validate(SchemaSources(config: nil, versions: [file])).diagnostics
            XCTAssertEqual(
                diagnostics.filter(\.isError).map(\.code), [],
                "\(models) models × \(properties) properties, \(text.utf8.count) bytes")
        }
    }

    func testDeepNestingStopsAtTheLimit() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let diagnostic = try XCTUnwrap(onlyError(text))
        XCTAssertEqual(diagnostic.code, .nestingTooDeep)
        XCTAssertEqual(diagnostic.location?.column, YAMLLimits.standard.maxDepth + 1)
    }

    func testTabIndentationGetsAHint() throws {
        let diagnostic = try XCTUnwrap(onlyError("models:\n\tTrip: {}\n"))
        XCTAssertEqual(diagnostic.code, .yamlSyntax)
        XCTAssertEqual(diagnostic.location?.line, 2)
        XCTAssertTrue(diagnostic.message.contains("indent with spaces"), diagnostic.message)
    }

    func testInvalidUTF8ReportsLineAndColumn() throws {
        var bytes = Array("a: ok\nb: é".utf8)
        bytes.append(0xFF)
        let result = YAMLParser.parse(bytes, file: "f.yaml")
        let diagnostic = try XCTUnwrap(result.diagnostics.first)
        XCTAssertEqual(diagnostic.code, .invalidEncoding)
        XCTAssertEqual(diagnostic.location?.line, 2)
        XCTAssertEqual(diagnostic.location?.column, 5)
    }

    func testEmptyAndCommentOnlyFiles() {
        XCTAssertEqual(onlyError("")?.code, .emptyDocument)
        XCTAssertEqual(onlyError("# nothing here\n")?.code, .emptyDocument)
    }

    func testSeveralDocumentsAreRejected() {
        let diagnostic = onlyError("a: 1\n---\nb: 2\n")
        XCTAssertEqual(diagnostic?.code, .multipleDocuments)
        XCTAssertEqual(diagnostic?.location?.line, 2)
    }

    func testMergeKeysAreRejected() {
        XCTAssertEqual(onlyError("base: &b {x: 1}\nother:\n  <<: *b\n")?.code, .mergeKeyUnsupported)
    }

    func testUnknownTagsAreRejectedAndStandardOnesKept() throws {
        XCTAssertEqual(onlyError("a: !custom 1\n")?.code, .unsupportedTag)
        let (node, diagnostics) = parse("a: !!str 1\n")
        XCTAssertTrue(diagnostics.isEmpty)
        guard case .mapping(let pairs) = try XCTUnwrap(node).content else { return XCTFail() }
        XCTAssertEqual(pairs[0].value.tag, "tag:yaml.org,2002:str")
    }

    func testOverlongKeyGetsAHint() throws {
        let diagnostic = try XCTUnwrap(onlyError("models:\n  " + String(repeating: "k", count: 1100) + ": 1\n"))
        XCTAssertEqual(diagnostic.code, .yamlSyntax)
        XCTAssertTrue(diagnostic.message.contains("1024"), diagnostic.message)
    }

    func testFileSizeLimit() {
        var limits = YAMLLimits.standard
        limits.maxFileBytes = 10
        XCTAssertEqual(onlyError("a: 12345678901\n", limits: limits)?.code, .fileTooLarge)
    }

    func testNonScalarKeysAreRejected() {
        XCTAssertEqual(onlyError("? [a]\n: 1\n")?.code, .wrongNodeKind)
    }

    func testRenderedDiagnosticHasCompilerShape() throws {
        let diagnostic = try XCTUnwrap(onlyError("a: 1\na: 2\n"))
        XCTAssertEqual(
            diagnostic.rendered,
            """
            f.yaml:2:1: error: key 'a' appears twice in this mapping; remove one of them [SDG003]
            f.yaml:1:1: note: first 'a' is here
            """)
    }
}
