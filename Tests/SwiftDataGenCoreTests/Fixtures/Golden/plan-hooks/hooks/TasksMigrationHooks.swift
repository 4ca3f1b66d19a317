// What a team writes in its hooks file: tasks that were blocked become open again.
import Foundation
import SwiftData

extension TasksMigrationHooks {
    static func willMigrateToV2(_ context: ModelContext) throws {
        for task in try context.fetch(FetchDescriptor<TasksSchemaV1.Task>()) where task.stateRawValue == "blocked" {
            task.stateRawValue = "todo"
        }
        try context.save()
    }

    static func didMigrateToV2(_ context: ModelContext) throws {}
}
