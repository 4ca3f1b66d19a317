import SwiftDataGenCore

extension YAMLText {
    /// A default value as the DSL reads it back: strings quoted, numbers and flags plain.
    static func value(_ value: ImportedProperty.DefaultValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .number(let digits): return digits
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .enumCase(let name): return name
        case .list(let items): return "[" + items.map(Self.value).joined(separator: ", ") + "]"
        case .expression(let text): return scalar(text)
        }
    }
}
