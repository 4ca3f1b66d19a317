import Foundation
import XCTest

@testable import SwiftDataGenCore

/// A result several tests read, made once per test process by whichever thread asks first; a
/// thread that asks while it is being made waits for it. An error, `XCTSkip` included, is kept and
/// thrown to every caller, so a failed build fails each test that needs it with the same message.
final class SharedResult<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Result<Value, Error>?
    private let make: @Sendable () throws -> Value

    init(_ make: @escaping @Sendable () throws -> Value) { self.make = make }

    func get() throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return try made.get() }
        let result = Result { try make() }
        made = result
        return try result.get()
    }
}

/// When the whole suite runs, the compiles its slowest tests need are made on two threads of their
/// own from the first of those tests on, so they run beside the hundreds of tests that need no
/// compiler instead of after them. A filtered run (`--filter` names the tests to the test binary)
/// makes each result when its test asks, as before.
enum SuitePrefetch {
    nonisolated(unsafe) private static var started = false
    private static let lock = NSLock()

    typealias Item = @Sendable () throws -> Void

    /// Each thread's own items first, so that neither waits on the other's slowest build (the SDK's
    /// module cache on a new machine): Apple's SDK on one, the stand-in on the other. Each item
    /// runs its compiles side by side; a failure is left for the test that reads it.
    static let lanes: [[Item]] = [
        [
            { _ = try AppleSDK.ready(.iOS17) },
            { _ = try AppleSDK.ready(.iOS26) },
            { _ = try AppleSDKRefusalTests.verdicts.get() },
            { _ = try AppleSDKTypeCheckTests.checked.get() },
        ] + darwinCheck,
        [
            { _ = try StandInTypeCheckTests.standIn.get() },
            { _ = try AppleSDK.ready(.iOS18) },
            { _ = try AppleSDK.ready(.iOS27) },
            { _ = try SimulatorTests.mutants.get() },
            { _ = try SimulatorTests.goldens.get() },
        ],
    ]

    /// Then both threads take from these, in the order the test classes ask for them (XCTest runs
    /// them by name), so that whichever finishes its lane first shortens the other's.
    static let shared: [Item] = [
        { _ = try MigrationRunTests.outputs.get() },
        { _ = try ReservedNameTests.acceptedVerdicts.get() },
        { _ = try ReservedNameTests.refusalCompiles.get() },
        { _ = try StandInAgreementTests.dumps.get() },
        { _ = try SimulatorTests.scenarios.get() },
        { _ = try StandInTypeCheckTests.modelsRun.get() },
        { _ = try StandInTypeCheckTests.hookChecks.get() },
    ]

    /// On a Mac `swift build` is the Darwin check, and its test skips before reading the result.
    #if os(macOS)
        static let darwinCheck: [Item] = []
    #else
        static let darwinCheck: [Item] = [
            { _ = try AppleSDK.ready(.macOS15) }, { _ = try DarwinSourcesTests.checked.get() },
        ]
    #endif

    /// Called from the `setUp()` of each class whose results are in `lanes` or `shared`: the first starts it.
    static func startForTheWholeSuite() {
        lock.lock()
        defer { lock.unlock() }
        guard !started, runsTheWholeSuite else { return }
        started = true
        for (number, lane) in lanes.enumerated() {
            let thread = Thread {
                for item in lane { try? item() }
                while let item = nextShared() { try? item() }
            }
            thread.name = "SuitePrefetch \(number + 1)"
            thread.start()
        }
    }

    nonisolated(unsafe) private static var sharedTaken = 0

    private static func nextShared() -> Item? {
        lock.lock()
        defer { lock.unlock() }
        guard sharedTaken < shared.count else { return nil }
        sharedTaken += 1
        return shared[sharedTaken - 1]
    }

    /// The test binary is given the tests to run as an argument when a filter is set.
    static var runsTheWholeSuite: Bool {
        CommandLine.arguments.dropFirst().allSatisfy { $0.hasPrefix("-") }
    }
}

extension Array where Element: Sendable {
    /// `parallelMap` that starts the costliest items first, results in input order: with one
    /// large app among small cases, started last it would leave the other cores idle at the end.
    func parallelMapLongestFirst<Output: Sendable>(
        cost: (Element) -> Int, _ transform: @Sendable (Element) -> Output
    ) -> [Output] {
        let order = indices.sorted { cost(self[$0]) > cost(self[$1]) }
        let outputs = order.map { self[$0] }.parallelMap(transform)
        var byIndex = [Output?](repeating: nil, count: count)
        for (position, index) in order.enumerated() { byIndex[index] = outputs[position] }
        return byIndex.compactMap { $0 }
    }
}

/// The bytes of the files a compile reads, which is what its time grows with.
func sourceBytes(_ files: [String]) -> Int {
    files.reduce(0) { total, file in
        total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
    }
}
