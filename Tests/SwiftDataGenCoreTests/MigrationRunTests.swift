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

    /// Whether the sweep of a store larger than a batch runs: about two minutes of the debug
    /// stand-in, so `.ci/run` sets `SDG_LARGE_STORES=1` and `swift test` alone runs the same sweep
    /// on a store of one batch.
    static let sweepsLargeStores = ProcessInfo.processInfo.environment["SDG_LARGE_STORES"] == "1"

    /// A store of `books` books at 1.0.0, one in `books / 11` repeating an ISBN, upgraded to the
    /// latest version with every stage ended at each point it passes.
    static func endedEverywhere(books: Int) -> Scenario {
        Scenario(
            golden: "library", schema: "LibrarySchema",
            body: """
                _ = context
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-batches-\\(UUID().uuidString).store")
                defer { try? FileManager.default.removeItem(at: url) }
                do {
                    let old = ModelContext(try ModelContainer(for: Schema(versionedSchema: LibrarySchemaV1.self), configurations: ModelConfiguration(url: url)))
                    for index in 0..<\(books) {
                        let book = LibrarySchemaV1.Book(isbn: "\\(index % \(books * 10 / 11))", title: "t\\(index)", authorName: "a\\(index % 37)", createdAt: Date(timeIntervalSince1970: Double(index)))
                        book.price = "\\(index).5"
                        old.insert(book)
                    }
                    try old.save()
                }
                setenv("SDG_STANDIN_END_EVERYWHERE", "1", 1)
                let migrated = ModelContext(try ModelContainer(for: Schema(versionedSchema: LibrarySchema.self), migrationPlan: LibraryMigrationPlan.self, configurations: ModelConfiguration(url: url)))
                let books = try migrated.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\\.createdAt)]))
                print(books.count, books.first?.name ?? "-", books.last?.name ?? "-")
                print(books.map { NSDecimalNumber(decimal: $0.price).doubleValue }.reduce(0, +))
                print(Set(books.compactMap { $0.author?.name }).count, books.filter { $0.author == nil }.count)
                """)
    }

    static let scenarios: [String: Scenario] = base.merging(
        sweepsLargeStores ? ["a store of three batches, ended everywhere": endedEverywhere(books: 11_000)] : [:]
    ) { own, _ in own }

    static let base: [String: Scenario] = [
        "a store of one batch, ended everywhere": endedEverywhere(books: 1_100),
        "conversion in batches": Scenario(
            golden: "library", schema: "LibrarySchemaV2Bridge",
            body: """
                typealias Old = LibrarySchemaV2Bridge.Book
                for (index, price) in ["12.50", "not a price", "0.99"].enumerated() {
                    let book = Old(isbn: "\\(index)", title: "t\\(index)", createdAt: day)
                    book.price = price
                    context.insert(book)
                }
                try context.save()
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
                try context.save()
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
                try context.save()
                try LibrarySchemaV4Bridge.linkBookAuthor(context)
                let authors = try context.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\\.name)]))
                print(authors.map(\\.name).joined(separator: ","))
                let books = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.isbn)]))
                print(books.map { $0.author?.name ?? "-" }.joined(separator: ","))
                print(books[1].author === existing)
                """),
        "enumerate as SwiftData walks": Scenario(
            golden: "library", schema: "LibrarySchemaV2",
            body: """
                typealias Old = LibrarySchemaV2.Book
                for index in 0..<5 { context.insert(Old(isbn: "\\(index)", name: "n\\(index)", createdAt: day)) }
                try context.save()
                context.insert(Old(isbn: "9", name: "not saved", createdAt: day))
                var walked: [String] = []
                let newestFirst = FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.isbn, order: .reverse)])
                try context.enumerate(newestFirst, batchSize: 2, allowEscapingMutations: true) { walked.append($0.isbn) }
                print(walked.joined(separator: ","))
                try context.save()
                do {
                    try context.enumerate(FetchDescriptor<Old>(), batchSize: 2) { $0.name = "changed" }
                    print("went on")
                } catch {
                    print("stopped")
                }
                """),
        "deduplication in key order": Scenario(
            golden: "identity-uniqueness", schema: "PeopleSchemaV1",
            body: """
                typealias Old = PeopleSchemaV1.Person
                let rows: [(String, String, String, String?)] = [
                    ("ann", "a", "x", nil), ("Ann", "a", "y", "e@x"), ("ann", "b", "x", nil), ("ann", "a", "x", "e@x"),
                    ("Ann", "A", "x", "E@x"), ("bo", "a", "x", nil), ("cy", "c", "z", nil), ("dee", "c", "z", "d@x"),
                    ("eve", "q", "r", "d@x"),
                ]
                for (index, row) in rows.enumerated() {
                    let when = Date(timeIntervalSince1970: Double(index + 1))
                    context.insert(Old(firstName: row.0, first: row.1, name: row.2, email: row.3, joinedAt: when))
                }
                for index in 0..<1_200 {
                    let when = Date(timeIntervalSince1970: Double(100 + index))
                    context.insert(Old(firstName: "p\\(index % 300)", first: "f\\(index)", name: "n", email: nil, joinedAt: when))
                }
                try context.save()
                try PeopleSchemaV1.dedupePersonByFirstName(context)
                try PeopleSchemaV1.dedupePersonByFirstName2(context)
                try PeopleSchemaV1.dedupePersonByEmail(context)
                let left = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.joinedAt)]))
                let few = left.filter { $0.joinedAt.timeIntervalSince1970 < 100 }
                print(few.map { "\\(Int($0.joinedAt.timeIntervalSince1970))" }.joined(separator: ","))
                let many = left.filter { $0.joinedAt.timeIntervalSince1970 >= 100 }
                print(many.count, Set(many.map(\\.firstName)).count, many.first.map { Int($0.joinedAt.timeIntervalSince1970) } ?? 0)
                """),
        "conversion into enums": Scenario(
            golden: "plan-enum-conversion", schema: "TicketsSchemaV2Bridge",
            body: """
                typealias Old = TicketsSchemaV2Bridge.Ticket
                for (title, status) in [("!fire", "closed"), ("calm", "weird")] {
                    context.insert(Old(title: title, status: status))
                }
                try context.save()
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
        // One save by the scenario, one by the conversion: three rows are less than a batch.
        XCTAssertEqual(try run("conversion in batches"), "12.5,0,0.99\n2\n")
    }

    func testDeduplicationKeepsTheLastByTheStatedOrder() throws {
        XCTAssertEqual(try run("deduplication"), "newest 111,only 222\n")
    }

    /// Keys that differ only in case are different keys, as a store's unique index compares them;
    /// repeats in separate batches meet; an object with a nil key is never a repeat; each group
    /// keeps the last by its order. Rows 1…9: by firstName 4,5,6,7,8,9 stay; by (first, name)
    /// 5,6,8,9; by email 5,6,9.
    func testDeduplicationInKeyOrderKeepsWhatItsKeysAndOrderSay() throws {
        XCTAssertEqual(try run("deduplication in key order"), "5,6,9\n300 300 1000\n")
    }

    func testLinkCreatesOneRelatedObjectPerDistinctValue() throws {
        XCTAssertEqual(try run("link"), "Ann,Bo,Cy\nAnn,Bo,Ann,-,-,Cy\ntrue\n")
    }

    /// 1,100 books at 1.0.0, upgraded to 4.0.0: converted, 100 duplicates removed, linked to 37
    /// authors; every stage is ended at each point it passes (before and after each save, inside
    /// each phase), as a kill and as a throw, and run again to the same rows.
    func testAStoreEndedAnywhereEndsAsAnUninterruptedRun() throws {
        let output = try run("a store of one batch, ended everywhere")
        // Books 100…1099 are the last of each isbn; prices 100.5 … 1099.5.
        XCTAssertTrue(output.contains("1000 t100 t1099\n600000.0\n37 0\n"), output)
        let points = output.firstMatch(of: /at each of (\d+) points/).flatMap { Int($0.1) } ?? 0
        XCTAssertGreaterThanOrEqual(points, 20, output)
    }

    /// The same with 11,000 books, three batches of each walk: ended after each batch too.
    func testAStoreOfSeveralBatchesEndedAnywhereEndsAsAnUninterruptedRun() throws {
        guard Self.sweepsLargeStores else {
            throw XCTSkip(
                "the 11,000-book sweep takes about two minutes, so .ci/run runs it on its own; run it here with "
                    + "SDG_LARGE_STORES=1 swift test --filter MigrationRunTests.testAStoreOfSeveralBatches")
        }
        let output = try run("a store of three batches, ended everywhere")
        // Books 1000…10999 are the last of each isbn; prices 1000.5 … 10999.5.
        XCTAssertTrue(output.contains("10000 t1000 t10999\n60000000.0\n37 0\n"), output)
        let points = output.firstMatch(of: /at each of (\d+) points/).flatMap { Int($0.1) } ?? 0
        XCTAssertGreaterThanOrEqual(points, 30, output)
    }

    /// The stand-in's `enumerate` walks as docs/batched-walks.md says SwiftData's does: the rows
    /// saved when the walk starts, in the sort's order (an object inserted and not saved is not
    /// walked), and a batch that leaves changes unsaved stops a walk that does not allow them.
    func testEnumerateWalksSavedRowsInOrderAndGuardsAgainstUnsavedChanges() throws {
        XCTAssertEqual(try run("enumerate as SwiftData walks"), "4,3,2,1,0\nstopped\n")
    }

    func testConversionsIntoEnumsStoreRawValues() throws {
        XCTAssertEqual(try run("conversion into enums"), "!fire closed 2,calm open nil\n")
    }
}
