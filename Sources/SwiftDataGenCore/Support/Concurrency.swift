import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Array where Element: Sendable {
    /// `map` over the machine's cores, results in input order, so output stays deterministic.
    /// Version files and rendered files are independent of each other until they are combined.
    func parallelMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1, ParallelWork.cores > 1 else { return map(transform) }
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
        stride(from: 0, to: count, by: ParallelWork.cores).map {
            Array(self[$0..<Swift.min($0 + ParallelWork.cores, count)])
        }
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
    /// The cores this process may run on: on Linux its CPU affinity (what `taskset` or a
    /// container's cpuset leaves it) capped by a container's CPU quota, elsewhere the cores online.
    static let cores: Int = {
        let online = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #if os(Linux)
            var mask = [UInt64](repeating: 0, count: 16)
            let allowed = cpuAffinity(0, mask.count * 8, &mask) == 0 ? mask.reduce(0) { $0 + $1.nonzeroBitCount } : 0
            func text(_ path: String) -> String? {
                FileSystem.contents(path).map { String(decoding: $0, as: UTF8.self) }
            }
            let quota = cgroupQuota(
                v2: text("/sys/fs/cgroup/cpu.max"), v1Quota: text("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
                v1Period: text("/sys/fs/cgroup/cpu/cpu.cfs_period_us"))
            return max(1, min(allowed > 0 ? allowed : online, quota ?? Int.max))
        #else
            return online
        #endif
    }()

    /// A container's CPU limit in whole cores (rounded up) from cgroup v2's `cpu.max` ("200000
    /// 100000", or "max 100000" for none) or v1's quota and period; nil when there is none.
    static func cgroupQuota(v2: String?, v1Quota: String?, v1Period: String?) -> Int? {
        func numbers(_ text: String?) -> [Int] {
            (text ?? "").split { $0 == " " || $0 == "\n" }.compactMap { Int($0) }
        }
        var limit = numbers(v2)
        if limit.count != 2 { limit = Array(numbers(v1Quota).prefix(1) + numbers(v1Period).prefix(1)) }
        guard limit.count == 2, limit[0] > 0, limit[1] > 0 else { return nil }
        return max(1, (limit[0] + limit[1] - 1) / limit[1])
    }
}

#if os(Linux)
    /// `sched_getaffinity`, which the Glibc module leaves out (it is behind `_GNU_SOURCE`); the
    /// mask here covers 1,024 cores.
    @_silgen_name("sched_getaffinity")
    private func cpuAffinity(_ process: Int32, _ size: Int, _ mask: UnsafeMutablePointer<UInt64>) -> Int32
#endif

/// Results written by concurrent workers, each to its own index, under a lock.
private final class Slots<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = Lock()

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func store(_ value: Value, at index: Int) {
        lock.withLock { storage[index] = value }
    }

    var values: [Value] {
        lock.withLock { storage.compactMap { $0 } }
    }
}

/// Carries a non-escaping `@Sendable` closure into `concurrentPerform`, which returns before the
/// closure's scope ends.
private struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A mutual-exclusion lock on the C library's mutex (Foundation's `NSLock` without Foundation;
/// `Synchronization.Mutex` needs macOS 15).
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
