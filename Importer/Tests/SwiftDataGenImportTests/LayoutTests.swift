import Foundation
import SwiftDataGenCore
import SwiftDataGenImport
import XCTest

/// The layouts real apps declare their versions in (Fixtures/Layouts, each written here in the
/// shape of a public app's; SOURCE.md names them): every version is found, every stored
/// property is carried, and the generated schemas store what the app's do.
final class LayoutTests: XCTestCase {
    func testVersionsInExtensionsOfANamespaceAcrossFiles() throws {
        try roundTrip("Layouts/NamespaceExtension", versions: 3, module: "NamespaceExtension")
    }

    func testVersionsNestedInANamespace() throws {
        try roundTrip("Layouts/NestedNamespace", versions: 2)
    }

    func testANestedAliasShadowsTheModuleScopeOne() throws {
        try roundTrip("Layouts/AliasShadowing", versions: 2)
    }

    func testPublicModelsOfAFramework() throws {
        try roundTrip("Layouts/PublicFramework", versions: 2)
    }

    func testBareVersionNames() throws {
        try roundTrip("Layouts/BareVersionNames", versions: 2)
    }

    static func imported(_ name: String) throws -> (ImportedProject, HistoryTranslator.Output) {
        let project = ModelExtractor.extract(
            try SwiftSourceLoader.read([RoundTripTests.fixtures.appendingPathComponent(name).path]))
        return (project, HistoryTranslator.translate(project))
    }
}
