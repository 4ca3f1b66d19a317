import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map` over the machine's cores, results in input order, so output stays deterministic.
    /// Version files and rendered files are independent of each other until they are combined.
    func parallelMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else { return map(transform) }
        let slots = Slots<Result>(count: count)
        withoutActuallyEscaping(transform) { transform in
            let work = SendableBox(transform)
            let items = self
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                slots.store(work.value(items[index]), at: index)
            }
        }
        return slots.values
    }
}

extension Array {
    /// Consecutive slices of one item per core: what a batch produces can be passed on and
    /// freed before the next batch starts, so memory stays bounded by the cores, not the input.
    func batchesForCores() -> [[Element]] {
        stride(from: 0, to: count, by: ParallelWork.cores).map { Array(self[$0..<Swift.min($0 + ParallelWork.cores, count)]) }
    }

    /// The same batches, each taken out of the array before it is handed over, so the batch
    /// holds the only copy of what it works on and frees it when done.
    mutating func drainBatchesForCores(_ body: ([Element]) -> Void) {
        while !isEmpty {
            let batch = Array(prefix(ParallelWork.cores))
            removeFirst(batch.count)
            body(batch)
        }
    }
}

enum ParallelWork {
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
}

/// Results written by concurrent workers, each to its own index, under a lock.
private final class Slots<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func store(_ value: Value, at index: Int) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage.compactMap { $0 }
    }
}

/// Carries a non-escaping `@Sendable` closure into `concurrentPerform`, which returns before the
/// closure's scope ends.
private struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
