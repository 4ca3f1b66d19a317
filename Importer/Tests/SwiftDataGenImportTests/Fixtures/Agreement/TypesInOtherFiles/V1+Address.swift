import Foundation
import SwiftData

extension V1 {
    struct Address: Codable {
        var street: String
        var city: String?
    }
}
