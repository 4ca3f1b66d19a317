import Foundation
import SwiftData

let container = try ModelContainer(
    for: Schema(versionedSchema: NotesSchema.self), migrationPlan: NotesMigrationPlan.self,
    configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)

let work = Folder()
work.name = "Work"
context.insert(work)
for (text, priority) in [("Ship 1.1", Priority.high), ("Water plants", .low), ("Reply to Ana", .high)] {
    let note = Note(folder: work)
    note.text = text
    note.priority = priority
    context.insert(note)
}
try context.save()

let high = Priority.high.rawValue
let urgent = try context.fetch(
    FetchDescriptor<Note>(predicate: #Predicate { $0.priorityRawValue == high && !$0.isArchived }, sortBy: [SortDescriptor(\.text)]))
print("urgent: \(urgent.map(\.text).joined(separator: ", "))")
guard urgent.map(\.text) == ["Reply to Ana", "Ship 1.1"] else {
    print("unexpected result")
    exit(1)
}
