// Seeds or migrates a store of the library or the plan-model-rename golden in the SwiftData stand-in, one job per process so
// each process's peak memory is its own job's. Run by scripts/bench-migrations.sh.
import Foundation
import SwiftData

/// Each kind of generated stage on its own: the plan's stages between two of its schemas.
enum LightweightPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LibrarySchemaV1.self, LibrarySchemaV2Bridge.self] }
    static var stages: [MigrationStage] { Array(LibraryMigrationPlan.stages[0..<1]) }
}

enum ConversionPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [LibrarySchemaV1.self, LibrarySchemaV2Bridge.self, LibrarySchemaV2.self]
    }
    static var stages: [MigrationStage] { Array(LibraryMigrationPlan.stages[0..<2]) }
}

enum DedupePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LibrarySchemaV2.self, LibrarySchemaV3.self] }
    static var stages: [MigrationStage] { Array(LibraryMigrationPlan.stages[2..<3]) }
}

enum LinkPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [LibrarySchemaV3.self, LibrarySchemaV4Bridge.self, LibrarySchemaV4.self]
    }
    static var stages: [MigrationStage] { Array(LibraryMigrationPlan.stages[3..<5]) }
}

/// A model renamed: every Tag copied into a Label through the bridge, and every link moved.
enum RenamePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [ShelfSchemaV1.self, ShelfSchemaV2Bridge.self, ShelfSchemaV2.self]
    }
    static var stages: [MigrationStage] { Array(ShelfMigrationPlan.stages[0..<2]) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let rows = Int(arguments[2]) else {
    print(
        "usage: migration-bench <seed-v1|seed-v2|seed-v3|seed-shelf|lightweight|conversion|dedupe|link|rename> <rows> "
            + "<store>")
    exit(2)
}
let job = arguments[1]
let url = URL(fileURLWithPath: arguments[3])
/// One book in ten repeats an earlier one's ISBN; a thousand authors.
let distinctISBNs = max(rows * 9 / 10, 1)

/// Inserts `rows` objects made by `make`, saving every 5 000.
func seed<T: PersistentModel>(_ schema: any VersionedSchema.Type, _ make: (Int) -> T) throws {
    let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: schema), configurations: ModelConfiguration(url: url)))
    for index in 0..<rows {
        context.insert(make(index))
        if index % 5_000 == 4_999 { try context.save() }
    }
    try context.save()
}

func day(_ index: Int) -> Date { Date(timeIntervalSince1970: Double(index)) }

func migrate(_ schema: any VersionedSchema.Type, _ plan: any SchemaMigrationPlan.Type) throws -> ModelContainer {
    try ModelContainer(for: Schema(versionedSchema: schema), migrationPlan: plan, configurations: ModelConfiguration(url: url))
}

/// What the process has used so far: processor times and peak resident memory.
func resourceUsage() -> rusage {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage
}

/// The process's processor time so far (user and system): beside the wall clock, it tells a run
/// that waited (on the disk, on other processes) from one that worked.
func processorSeconds() -> Double {
    let usage = resourceUsage()
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

let start = Date()
let processorStart = processorSeconds()
var container: ModelContainer?
switch job {
case "seed-v1":
    try seed(LibrarySchemaV1.self) { index in
        let book = LibrarySchemaV1.Book(
            isbn: "\(index % distinctISBNs)", title: "t\(index)", authorName: "a\(index % 1_000)", createdAt: day(index))
        book.price = "\(index).5"
        return book
    }
case "seed-v2":
    try seed(LibrarySchemaV2.self) { index in
        LibrarySchemaV2.Book(isbn: "\(index % distinctISBNs)", name: "t\(index)", createdAt: day(index))
    }
case "seed-v3":
    try seed(LibrarySchemaV3.self) { index in
        LibrarySchemaV3.Book(isbn: "\(index)", name: "t\(index)", authorName: "a\(index % 1_000)", createdAt: day(index))
    }
case "seed-shelf":
    // Half the rows are tags, half notes; each note is tagged and pinned to one tag, each tag's
    // parent is the tag before it, and a hundred owners share the tags.
    let context = ModelContext(
        try ModelContainer(for: Schema(versionedSchema: ShelfSchemaV1.self), configurations: ModelConfiguration(url: url)))
    let owners = (0..<100).map { ShelfSchemaV1.Owner(name: "o\($0)") }
    for owner in owners { context.insert(owner) }
    var previous: ShelfSchemaV1.Tag?
    for index in 0..<max(rows / 2, 1) {
        let tag = ShelfSchemaV1.Tag(title: "t\(index)", color: "c\(index % 7)", rankText: "\(index % 100)")
        context.insert(tag)
        tag.parent = previous
        tag.owner = owners[index % owners.count]
        let note = ShelfSchemaV1.Note(text: "n\(index)")
        context.insert(note)
        note.tags = [tag]
        note.pinned = tag
        previous = tag
        if index % 2_500 == 2_499 { try context.save() }
    }
    try context.save()
case "lightweight": container = try migrate(LibrarySchemaV2Bridge.self, LightweightPlan.self)
case "conversion": container = try migrate(LibrarySchemaV2.self, ConversionPlan.self)
case "dedupe": container = try migrate(LibrarySchemaV3.self, DedupePlan.self)
case "link": container = try migrate(LibrarySchemaV4.self, LinkPlan.self)
case "rename": container = try migrate(ShelfSchemaV2.self, RenamePlan.self)
default:
    print("no job \(job)")
    exit(2)
}
let seconds = Date().timeIntervalSince(start)
let processor = processorSeconds() - processorStart
print(
    "\(job) \(rows) \(String(format: "%.3f", seconds)) \(String(format: "%.3f", processor)) "
        + "\(container?._statementsRun ?? 0) \(resourceUsage().ru_maxrss)")
