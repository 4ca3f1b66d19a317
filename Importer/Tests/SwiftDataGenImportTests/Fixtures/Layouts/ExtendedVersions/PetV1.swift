import Foundation
import SwiftData

/// Version 0.0.1's model, at module scope.
@available(iOS 17, *)
@Model
final class PetIdentity {
    var name: String = ""
    var personality: Personality = Personality(mind: 0, energy: 0)
    var birthDate: Date = Date.distantPast

    init() {}
}

struct Personality: Codable {
    var mind: Int
    var energy: Int
}
