/// An immutable value on the heap: keeps large, rarely set fields from inflating the structs
/// that hold them (a history has tens of thousands of properties), with value semantics intact.
/// A class, not an indirect enum, so that reading one field does not copy out the whole value.
final class OutOfLine<Value: Sendable & Equatable>: Sendable, Equatable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (a: OutOfLine, b: OutOfLine) -> Bool { a === b || a.value == b.value }
}

/// A value on the heap that copies share until one of them writes (copy on write): a struct
/// copied as often as `Property` (reading a model's properties copies each one) then costs one
/// reference count a copy instead of one per field.
struct SharedStorage<Value: Sendable>: Sendable {
    /// Written only while uniquely referenced, so a box two threads can reach is never written;
    /// for the same reason its accesses need no run-time exclusivity check, which cost more than
    /// the reference counts the box saves.
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    init(_ value: Value) { box = Box(value) }

    var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// Whether both share one box, and so hold equal values without comparing them.
    func shares(with other: Self) -> Bool { box === other.box }
}

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
