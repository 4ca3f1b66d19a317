import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Runs the generated migration code of the `library` golden against the stand-in's in-memory
/// context with sample rows, and checks what it did: values converted, duplicates removed by the
/// policy, one related object per distinct value, every link set.
final class MigrationRunTests: XCTestCase {
    /// One run of generated migration code: the golden, the schema whose types it uses, and the
    /// statements, which may throw.
    struct Scenario: Sendable {
        var golden: String
        var schema: String
        var body: String
    }

    static let scenarios: [String: Scenario] = [
        "conversion in batches": Scenario(
            golden: "library", schema: "LibrarySchemaV2Bridge",
            body: """
                typealias Old = LibrarySchemaV2Bridge.Book
                for (index, price) in ["12.50", "not a price", "0.99"].enumerated() {
                    let book = Old(isbn: "\\(index)", title: "t\\(index)", createdAt: day)
                    book.price = price
                    context.insert(book)
                }
                try LibrarySchemaV2Bridge.convertBookPrice(context)
                let books = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.isbn)]))
                print(books.map { "\\($0.priceConverted.map { "\\($0)" } ?? "nil")" }.joined(separator: ","))
                print(context._saveCount)
                """),
        "deduplication": Scenario(
            golden: "library", schema: "LibrarySchemaV2",
            body: """
                typealias Old = LibrarySchemaV2.Book
                let rows: [(String, String, Double)] = [("111", "first 111", 1), ("222", "only 222", 5), ("111", "newest 111", 9), ("111", "middle 111", 4)]
                for (isbn, name, time) in rows {
                    context.insert(Old(isbn: isbn, name: name, createdAt: Date(timeIntervalSince1970: time)))
                }
                try LibrarySchemaV2.dedupeBookByIsbn(context)
                let left = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.isbn)]))
                print(left.map(\\.name).joined(separator: ","))
                """),
        "link": Scenario(
            golden: "library", schema: "LibrarySchemaV4Bridge",
            body: """
                typealias Old = LibrarySchemaV4Bridge.Book
                typealias Person = LibrarySchemaV4Bridge.Author
                let existing = Person(name: "Bo")
                context.insert(existing)
                for (index, author) in ["Ann", "Bo", "Ann", "", nil, "Cy"].enumerated() {
                    let book = Old(isbn: "\\(index)", name: "b\\(index)", authorName: author, createdAt: day)
                    context.insert(book)
                }
                try LibrarySchemaV4Bridge.linkBookAuthor(context)
                let authors = try context.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\\.name)]))
                print(authors.map(\\.name).joined(separator: ","))
                let books = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.isbn)]))
                print(books.map { $0.author?.name ?? "-" }.joined(separator: ","))
                print(books[1].author === existing)
                """),
        "conversion into enums": Scenario(
            golden: "plan-enum-conversion", schema: "TicketsSchemaV2Bridge",
            body: """
                typealias Old = TicketsSchemaV2Bridge.Ticket
                for (title, status) in [("!fire", "closed"), ("calm", "weird")] {
                    context.insert(Old(title: title, status: status))
                }
                try TicketsSchemaV2Bridge.convertTicketStatus(context)
                try TicketsSchemaV2Bridge.convertTicketEscalation(context)
                let tickets = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.title)]))
                print(tickets.map { "\\($0.title) \\($0.statusConvertedRawValue ?? "nil") \\($0.escalationRawValue.map(String.init) ?? "nil")" }.joined(separator: ","))
                """),
    ]

    /// Each golden compiled once with all its scenarios, one function each on a context of the
    /// scenario's own schema (the stand-in refuses another version's types, as SwiftData does), and
    /// run once per scenario, named by the binary's argument. Made by the suite's prefetch when the
    /// whole suite runs.
    static let outputs = SharedResult<[String: StandInTypeCheckTests.CompileResult]> {
        let goldens = Set(scenarios.values.map(\.golden)).sorted()
        let builds = goldens.parallelMap { golden in
            Result { () throws -> [(String, StandInTypeCheckTests.CompileResult)] in
                let names = scenarios.keys.filter { scenarios[$0]?.golden == golden }.sorted()
                var main = "import Foundation\nimport SwiftData\n\n"
                for (number, name) in names.enumerated() {
                    guard let scenario = scenarios[name] else { continue }
                    main += """
                        func scenario\(number)() throws {
                            let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: \(scenario.schema).self)))
                            let day = Date(timeIntervalSince1970: 0)
                            _ = day
                        \(scenario.body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                        }

                        """
                }
                main += "switch CommandLine.arguments.dropFirst().first {\n"
                main += names.indices.map { "case \"\($0)\": try scenario\($0)()\n" }.joined()
                main += "default: fatalError(\"no such scenario\")\n}\n"
                let results = try StandInTypeCheckTests.compileAndRun(
                    try StandInTypeCheckTests.sources(of: golden), main: main, runs: names.indices.map { ["\($0)"] })
                // A build that failed is every scenario's result.
                return names.enumerated().map { number, name in (name, results[min(number, results.count - 1)]) }
            }
        }
        var outputs: [String: StandInTypeCheckTests.CompileResult] = [:]
        for build in builds {
            for (name, result) in try build.get() { outputs[name] = result }
        }
        return outputs
    }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    private func run(_ scenario: String) throws -> String {
        let result = try XCTUnwrap(try Self.outputs.get()[scenario], "no scenario \(scenario)")
        XCTAssertEqual(result.status, 0, result.output)
        return result.output
    }

    func testConversionFillsTheBridgePropertyInBatches() throws {
        XCTAssertEqual(try run("conversion in batches"), "12.5,0,0.99\n1\n")
    }

    func testDeduplicationKeepsTheLastByTheStatedOrder() throws {
        XCTAssertEqual(try run("deduplication"), "newest 111,only 222\n")
    }

    func testLinkCreatesOneRelatedObjectPerDistinctValue() throws {
        XCTAssertEqual(try run("link"), "Ann,Bo,Cy\nAnn,Bo,Ann,-,-,Cy\ntrue\n")
    }

    func testConversionsIntoEnumsStoreRawValues() throws {
        XCTAssertEqual(try run("conversion into enums"), "!fire closed 2,calm open nil\n")
    }
}
