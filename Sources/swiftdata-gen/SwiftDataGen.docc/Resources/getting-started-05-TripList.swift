import Foundation
import SwiftData

/// App code names the current version's types through the generated aliases.
func upcomingTrips(in context: ModelContext) throws -> [Trip] {
    let now = Date.now
    return try context.fetch(
        FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate >= now }, sortBy: [SortDescriptor(\.startDate)]))
}

func makeContainer() throws -> ModelContainer {
    try ModelContainer(for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self)
}
