import Foundation
import SwiftDataGenImport
import SwiftParser
import SwiftSyntax
import XCTest

/// Nothing the sources say is dropped silently: every argument of `@Model`, `@Attribute`,
/// `@Relationship`, `@Transient`, `#Unique` and `#Index` in every Swift fixture is either carried
/// into the YAML or has a note inside it, found by walking the fixtures' syntax apart from the
/// importer's own reading.
final class ArgumentAuditTests: XCTestCase {
    func testEveryMacroArgumentIsCarriedOrNoted() throws {
        var audited = 0
        for name in ImportProofTests.swiftFixtures + ["Layouts/Arguments", "Hostile", "Empty"] {
            let folder = RoundTripTests.fixtures.appendingPathComponent(name)
            let sources = try SwiftSourceLoader.read([folder.path])
            let project = ModelExtractor.extract(sources)
            let translated = HistoryTranslator.translate(project)
            let carried = Set(project.carriedArguments)
            let noted = (project.notes + translated.notes).map(\.position)
            for source in sources where !source.path.hasSuffix("Deep.swift") {
                let tree = Parser.parse(source: source.text)
                let converter = SourceLocationConverter(fileName: source.path, tree: tree)
                for argument in Self.arguments(in: Syntax(tree)) {
                    audited += 1
                    let start = argument.startLocation(converter: converter)
                    let end = argument.endLocation(converter: converter, afterTrailingTrivia: false)
                    let at = "\(start.file):\(start.line):\(start.column)"
                    let inside = noted.contains { position in
                        position.file == start.file
                            && (position.line, position.column) >= (start.line, start.column)
                            && (position.line, position.column) <= (end.line, end.column)
                    }
                    XCTAssertTrue(
                        carried.contains(at) || inside,
                        "\(at): \(argument.trimmedDescription) is neither carried nor noted")
                }
            }
        }
        XCTAssertGreaterThan(audited, 40, "the fixtures hold the arguments this test walks")
    }

    /// The arguments a store reads: of the attributes and macros SwiftData declares.
    static func arguments(in syntax: Syntax) -> [LabeledExprSyntax] {
        var found: [LabeledExprSyntax] = []
        if let attribute = syntax.as(AttributeSyntax.self),
            ["Model", "Attribute", "Relationship", "Transient"].contains(attribute.attributeName.trimmedDescription),
            case .argumentList(let list)? = attribute.arguments
        {
            found += list
        }
        if let macro = syntax.as(MacroExpansionDeclSyntax.self), ["Unique", "Index"].contains(macro.macroName.text) {
            found += macro.arguments
        }
        for child in syntax.children(viewMode: .sourceAccurate) { found += arguments(in: child) }
        return found
    }

    /// A version that lists a class the files read do not declare is an error naming it, never a
    /// version with fewer models.
    func testAListedModelThatIsNotFoundIsAnError() throws {
        let project = try extracted(
            """
            import SwiftData

            enum Schemas {}

            extension Schemas {
                enum V1: VersionedSchema {
                    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
                    static var models: [any PersistentModel.Type] { [Card.self, Deck.self] }

                    @Model
                    final class Card {
                        var title: String = ""
                        init() {}
                    }
                }
            }
            """, file: "V1.swift")
        XCTAssertEqual(project.versions.map(\.qualifiedName), ["Schemas.V1"])
        let errors = project.notes.filter(\.isError).map(\.description)
        XCTAssertEqual(errors.count, 1, errors.joined(separator: "\n"))
        XCTAssertTrue(
            errors.first?.contains(
                "V1.swift:8:69: error: Schemas.V1.models lists Deck, whose @Model class is not in the files read")
                == true, errors.joined(separator: "\n"))
    }
}
