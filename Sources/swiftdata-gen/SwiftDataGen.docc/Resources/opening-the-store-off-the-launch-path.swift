import Foundation
import SwiftData

/// Opens the app's store away from the first frame. A migration runs inside `ModelContainer(...)`:
/// on a large store it takes seconds, and the system ends an app whose launch does not finish in
/// time.
enum TripsStore {
    /// Opens the store at `url`, migrating it when it is older, on a thread other than the main one.
    static func open(at url: URL) async throws -> ModelContainer {
        try await Task.detached(priority: .userInitiated) {
            try ModelContainer(
                for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self,
                configurations: ModelConfiguration(url: url))
        }.value
    }
}
