/// The data a template sees. View models convert themselves into this, so templates never reach
/// into generator types.
public enum MustacheValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([MustacheValue])
    /// Keys in a small array, looked up by a linear scan: view models have a handful of keys,
    /// and comparing short strings beats hashing them on every lookup.
    /// Unlabeled pairs, the element type of a dictionary literal: one is stored as written.
    case object([(String, MustacheValue)])

    public static func dictionary(_ values: [String: MustacheValue]) -> MustacheValue {
        .object(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// An object with `key` set: what a section's view model takes from the one around it, so
    /// strict rendering finds it there. Lookups go by key, so where the pair goes does not matter.
    func with(_ key: String, _ value: MustacheValue) -> MustacheValue {
        guard case .object(var pairs) = self else { return self }
        pairs.removeAll { $0.0 == key }
        pairs.append((key, value))
        return .object(pairs)
    }

    /// Mustache's falsiness: sections skip null, false and empty lists.
    var isFalsey: Bool {
        switch self {
        case .null: return true
        case .bool(let b): return !b
        case .list(let items): return items.isEmpty
        default: return false
        }
    }

    var interpolated: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .string(let s): return s
        case .list, .object: return ""
        }
    }

    /// The value under `key`, trying the pair at `hint` first and leaving there where it was found.
    func value(forKey key: String, hint: inout Int) -> MustacheValue? {
        guard case .object(let pairs) = self else { return nil }
        if hint < pairs.count, pairs[hint].0 == key { return pairs[hint].1 }
        for index in pairs.indices where pairs[index].0 == key {
            hint = index
            return pairs[index].1
        }
        return nil
    }

    subscript(key: String) -> MustacheValue? {
        var hint = 0
        return value(forKey: key, hint: &hint)
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: MustacheValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(elements)
    }
}

/// A type that a template can render.
public protocol MustacheRepresentable {
    var mustacheValue: MustacheValue { get }
}

extension String: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Bool: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Optional: MustacheRepresentable where Wrapped: MustacheRepresentable {
    public var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
}

extension Array: MustacheRepresentable where Element: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .list(map(\.mustacheValue)) }
}
