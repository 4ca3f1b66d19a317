import Foundation
import SwiftDataGenCore
import SwiftDataGenImport
import XCTest

/// The compiler decides what an app's Swift means: for every layout in `Fixtures/Agreement` the
/// app's own sources are compiled against the SwiftData stand-in, and what the compiler made of
/// each version (the classes `models` resolves to, every entity's and property's version hash,
/// uniqueness, indexes, renaming identifiers, delete rules, counts) must equal what the importer
/// read, by way of the generated Swift compiled the same way. A layout the importer cannot read
/// exactly holds an `EXPECTED` file (`refused <file>:<line> <words>`): the import must stop there.
final class CompilerAgreementTests: XCTestCase {
    static let root = RoundTripTests.fixtures.appendingPathComponent("Agreement")

    func testTheImporterReadsEveryLayoutAsTheCompilerDoes() throws {
        let layouts = try FileManager.default.contentsOfDirectory(atPath: Self.root.path).sorted()
        XCTAssertGreaterThanOrEqual(layouts.count, 30, "the corpus holds at least 30 layouts")
        // The record of what each layout gave is kept with the corpus.
        let record = try String(
            contentsOf: RoundTripTests.packageRoot.appendingPathComponent("../docs/importer-agreement.md"),
            encoding: .utf8)
        for layout in layouts { XCTAssertTrue(record.contains("\n| \(layout) |"), "\(layout) is not in the record") }
        for layout in layouts {
            let folder = Self.root.appendingPathComponent(layout)
            let project = ModelExtractor.extract(try SwiftSourceLoader.read([folder.path]))
            let translated = HistoryTranslator.translate(project)
            let errors = (translated.notes + ImportProof.check(translated)).filter(\.isError)
            let expected = folder.appendingPathComponent("EXPECTED")
            if let refusal = try? String(contentsOf: expected, encoding: .utf8) {
                let words = refusal.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 2)
                XCTAssertEqual(words.first, "refused", "\(layout)/EXPECTED says refused <file>:<line> <words>")
                let place = words.count > 1 ? String(words[1]) : ""
                let said = words.count > 2 ? String(words[2]) : ""
                XCTAssertTrue(
                    errors.contains {
                        "\($0.position.file):\($0.position.line)".hasSuffix("/" + place) && $0.message.contains(said)
                    },
                    "\(layout): no error at \(place) saying '\(said)': \(errors)")
                continue
            }
            XCTAssertEqual(errors.map(\.description), [], layout)
            guard errors.isEmpty else { continue }
            let versions = translated.files.filter { $0.name != "swiftdata-gen.yaml" }.count
            try roundTrip("Agreement/\(layout)", versions: versions)
        }
    }
}
