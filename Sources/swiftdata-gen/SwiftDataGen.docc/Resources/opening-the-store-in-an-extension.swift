import Foundation
import SwiftData

/// The container a widget or another app extension opens on the store it shares with the app. It
/// names no migration plan and does not save: while the store is older than this schema (the app
/// was updated and has not migrated it yet, or is migrating it now), opening fails instead of
/// migrating, and the extension shows its placeholder until the app has moved the store.
enum TripsExtensionStore {
    /// The store at `url` when it is at the latest version; nil while only the app can open it.
    static func open(at url: URL) -> ModelContainer? {
        try? ModelContainer(
            for: Schema(versionedSchema: TripsSchema.self),
            configurations: ModelConfiguration(url: url, allowsSave: false))
    }
}
