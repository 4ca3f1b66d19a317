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

enum ReleasedMemory {
    /// Gives back the pages a batch of version files freed (their trees and ASTs, interleaved
    /// with the IR that stays). glibc keeps them resident otherwise, a third of the peak on large
    /// histories; other platforms' allocators return such pages on their own.
    static func returnToSystem() {
        #if os(Linux)
            _ = mallocTrim(0)
        #endif
    }
}

#if os(Linux)
    /// glibc's `malloc_trim` (declared in malloc.h, which the Glibc module does not export).
    @_silgen_name("malloc_trim")
    private func mallocTrim(_ pad: Int) -> Int32
#endif
