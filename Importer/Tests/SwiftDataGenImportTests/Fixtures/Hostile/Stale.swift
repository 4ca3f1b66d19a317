import SwiftData

@Model
final class Part {
    var serial: String = ""
    var legacy: Int = 0
    init() {}
}
