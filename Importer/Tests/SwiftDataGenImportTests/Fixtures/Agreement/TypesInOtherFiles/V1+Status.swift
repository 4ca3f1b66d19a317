import Foundation
import SwiftData

extension V1 {
    enum Status: String, Codable {
        case open, shipped
    }
}
