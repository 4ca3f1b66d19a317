import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Runs the generated migration code of the `library` golden against the stand-in's in-memory
/// context with sample rows, and checks what it did: values converted, duplicates removed by the
/// policy, one related object per distinct value, every link set.
final class MigrationRunTests: XCTestCase {
    private func run(_ main: String) throws -> String {
        let result = try StandInTypeCheckTests.compileAndRun(
            try StandInTypeCheckTests.sources(of: "library"), main: main)
        XCTAssertEqual(result.status, 0, result.output)
        return result.output
    }

    /// A context on `schema`'s own types: the stand-in refuses another version's types, as SwiftData does.
    private static func prelude(_ schema: String) -> String {
        """
        import Foundation
        import SwiftData
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: \(schema).self)))
        let day = Date(timeIntervalSince1970: 0)

        """
    }

    func testConversionFillsTheBridgePropertyInBatches() throws {
        let output = try run(
            Self.prelude("LibrarySchemaV2Bridge") + """
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
                """)
        XCTAssertEqual(output, "12.5,0,0.99\n1\n")
    }

    func testDeduplicationKeepsTheLastByTheStatedOrder() throws {
        let output = try run(
            Self.prelude("LibrarySchemaV2") + """
                typealias Old = LibrarySchemaV2.Book
                let rows: [(String, String, Double)] = [("111", "first 111", 1), ("222", "only 222", 5), ("111", "newest 111", 9), ("111", "middle 111", 4)]
                for (isbn, name, time) in rows {
                    context.insert(Old(isbn: isbn, name: name, createdAt: Date(timeIntervalSince1970: time)))
                }
                try LibrarySchemaV2.dedupeBookByIsbn(context)
                let left = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.isbn)]))
                print(left.map(\\.name).joined(separator: ","))
                """)
        XCTAssertEqual(output, "newest 111,only 222\n")
    }

    func testLinkCreatesOneRelatedObjectPerDistinctValue() throws {
        let output = try run(
            Self.prelude("LibrarySchemaV4Bridge") + """
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
                """)
        XCTAssertEqual(output, "Ann,Bo,Cy\nAnn,Bo,Ann,-,-,Cy\ntrue\n")
    }

    func testConversionsIntoEnumsStoreRawValues() throws {
        let result = try StandInTypeCheckTests.compileAndRun(
            try StandInTypeCheckTests.sources(of: "plan-enum-conversion"),
            main: """
                import Foundation
                import SwiftData
                let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TicketsSchemaV2Bridge.self)))
                typealias Old = TicketsSchemaV2Bridge.Ticket
                for (title, status) in [("!fire", "closed"), ("calm", "weird")] {
                    context.insert(Old(title: title, status: status))
                }
                try TicketsSchemaV2Bridge.convertTicketStatus(context)
                try TicketsSchemaV2Bridge.convertTicketEscalation(context)
                let tickets = try context.fetch(FetchDescriptor<Old>(sortBy: [SortDescriptor(\\.title)]))
                print(tickets.map { "\\($0.title) \\($0.statusConvertedRawValue ?? "nil") \\($0.escalationRawValue.map(String.init) ?? "nil")" }.joined(separator: ","))
                """)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, "!fire closed 2,calm open nil\n")
    }
}
