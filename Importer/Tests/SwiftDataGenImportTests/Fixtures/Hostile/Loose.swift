import SwiftData

// A plain model declared in two files (a stale copy), and one with a member-adding macro.

@Model
final class Part {
    var serial: String = ""
    init() {}
}

@Tracked
@Model
final class Gear {
    var teeth: Int = 12
    var `default`: Bool = false
    init() {}
}
