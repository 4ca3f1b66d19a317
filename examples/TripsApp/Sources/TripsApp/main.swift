import Foundation
import SwiftData

// Uses only the current-version aliases (Trip, Stop, TripsSchema): app code never names a version.
let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
let container = try ModelContainer(
    for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self,
    configurations: configuration)
let context = ModelContext(container)

let lisbon = Trip(remoteID: "t-1", name: "Lisbon", startDate: Date(timeIntervalSince1970: 1_750_000_000))
lisbon.status = .active
lisbon.budget = Decimal(string: "1250.50") ?? 0
let porto = Trip(remoteID: "t-2", name: "Porto", startDate: Date(timeIntervalSince1970: 1_760_000_000))
context.insert(lisbon)
context.insert(porto)
context.insert(Stop(title: "Belém", trip: lisbon))
try context.save()

let activeRaw = TripStatus.active.rawValue
let active = try context.fetch(
    FetchDescriptor<Trip>(predicate: #Predicate { $0.statusRawValue == activeRaw }, sortBy: [SortDescriptor(\.startDate)]))
let stops = try context.fetchCount(FetchDescriptor<Stop>())
print("schema \(TripsSchema.versionIdentifier), \(TripsMigrationPlan.schemas.count) versions, \(TripsMigrationPlan.stages.count) stages")
print("active trips: \(active.map(\.name).joined(separator: ", ")); stops: \(stops)")
guard active.map(\.name) == ["Lisbon"], stops == 1 else {
    print("unexpected result")
    exit(1)
}

/// Writes a store at version 1, then opens it with the latest schema and the plan: the upgrade a
/// user's device performs. It needs a real store, so it runs against SwiftData only.
func upgradeFromVersion1() throws -> Int {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trips-upgrade-\(UUID().uuidString).store")
    defer { try? FileManager.default.removeItem(at: url) }
    do {
        let old = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV1.self), configurations: ModelConfiguration(url: url))
        let oldContext = ModelContext(old)
        oldContext.insert(TripsSchemaV1.Trip(remoteID: "t-9", title: "Kyoto", startDate: .now))
        try oldContext.save()
    }
    let upgraded = try ModelContainer(
        for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self,
        configurations: ModelConfiguration(url: url))
    let trips = try ModelContext(upgraded).fetch(FetchDescriptor<Trip>())
    return trips.filter { $0.name == "Kyoto" }.count
}

#if SWIFTDATA_STANDIN
    print("upgrade from version 1: skipped (the stand-in keeps no store on disk)")
#else
    let upgraded = try upgradeFromVersion1()
    print("upgrade from version 1: \(upgraded) trip carried over")
    guard upgraded == 1 else { exit(1) }
#endif
