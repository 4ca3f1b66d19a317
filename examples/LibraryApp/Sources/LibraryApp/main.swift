import Foundation
import SwiftData

// A five-version history: a rename, a type converted in place, uniqueness added over existing
// data, author names turned into Author objects, and Author renamed Writer (every author copied,
// every book's link moved to the copy). App code sees only the latest version.
let container = try ModelContainer(
    for: Schema(versionedSchema: LibrarySchema.self), migrationPlan: LibraryMigrationPlan.self,
    configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)

let le = Writer(name: "Ursula K. Le Guin")
context.insert(le)
for (isbn, name, price) in [("9780441478125", "The Left Hand of Darkness", "9.99"), ("9780060512750", "The Dispossessed", "11.50")] {
    let book = Book(isbn: isbn, name: name, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    book.price = Decimal(string: price) ?? 0
    book.author = le
    context.insert(book)
}
try context.save()

let cheap = try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.price < 10 }, sortBy: [SortDescriptor(\.name)]))
print("plan: \(LibraryMigrationPlan.schemas.count) schemas, \(LibraryMigrationPlan.stages.count) stages")
print("under 10: \(cheap.map(\.name).joined(separator: ", "))")
guard cheap.map(\.name) == ["The Left Hand of Darkness"] else {
    print("unexpected result")
    exit(1)
}
