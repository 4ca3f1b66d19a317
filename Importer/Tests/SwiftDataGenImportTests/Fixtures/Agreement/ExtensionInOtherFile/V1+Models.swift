import Foundation
import SwiftData

extension V1 {
    @Model final class Habit {
        var name: String = ""
        @Relationship(deleteRule: .cascade, inverse: \Log.habit) var logs: [Log] = []
        init() {}
    }
}

extension V1 {
    @Model final class Log {
        var day: Date = Date.distantPast
        var habit: Habit?
        init() {}
    }
}
