import Foundation
import XCTest

@testable import SwiftDataGenCore

enum TestPaths {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
}

extension MustacheValue {
    /// Converts JSON test data into template data.
    init(json: Any) {
        switch json {
        case let n as NSNumber where String(cString: n.objCType) == "c":
            self = .bool(n.boolValue)
        case let n as NSNumber:
            self = "\(n)".contains(".") ? .double(n.doubleValue) : .int(n.intValue)
        case let s as String: self = .string(s)
        case let a as [Any]: self = .list(a.map(MustacheValue.init(json:)))
        case let d as [String: Any]: self = .dictionary(d.mapValues(MustacheValue.init(json:)))
        default: self = .null
        }
    }
}

/// Random numbers from a fixed seed, so a property test's failure is the same failure on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
