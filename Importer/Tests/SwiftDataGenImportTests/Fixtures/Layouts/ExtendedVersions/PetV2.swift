import Foundation
import SwiftData

@available(iOS 17, *)
extension AppSchema.V2 {
    typealias PetPersonality = Personality

    enum Species: String, Codable {
        case cat, dog
    }

    @Model
    final class PetIdentity {
        var name: String = ""
        var personality: PetPersonality = PetPersonality(mind: 0, energy: 0)
        var birthDate: Date = Date.distantPast
        var species: Species = Species.cat

        init() {}
    }
}
