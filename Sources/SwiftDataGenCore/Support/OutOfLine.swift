/// An immutable value on the heap: keeps large, rarely set fields from inflating the structs
/// that hold them (a history has tens of thousands of properties), with value semantics intact.
indirect enum OutOfLine<Value: Sendable>: Sendable {
    case stored(Value)

    init(_ value: Value) { self = .stored(value) }

    var value: Value {
        switch self {
        case .stored(let value): return value
        }
    }
}

extension OutOfLine: Equatable where Value: Equatable {}
