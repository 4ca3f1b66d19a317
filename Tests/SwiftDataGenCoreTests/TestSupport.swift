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
