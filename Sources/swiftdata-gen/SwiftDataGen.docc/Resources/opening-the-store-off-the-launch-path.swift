import Foundation
import Observation
import SwiftData

/// Opens the app's store away from the first frame. A migration runs inside `ModelContainer(...)`:
/// on a large store it takes seconds, and the system ends an app whose launch does not finish in
/// time. The app shows a screen of its own while `state` is `.opening`.
@MainActor
@Observable
final class TripsStore {
    enum State {
        case opening
        case ready(ModelContainer)
        case failed(String)
    }

    private(set) var state = State.opening

    /// Opens the store at `url`, migrating it when it is older, on a thread other than the main one.
    func open(at url: URL) async {
        do {
            let container = try await Task.detached(priority: .userInitiated) {
                try ModelContainer(
                    for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: url))
            }.value
            state = .ready(container)
        } catch {
            state = .failed("\(error)")
        }
    }
}
