import XCTest

@testable import SwiftDataGenCore

/// Batches hold one file per core, so the core count bounds memory: a container's CPU quota must
/// count, not the host's cores.
final class ParallelWorkTests: XCTestCase {
    func testAContainerQuotaLimitsTheCores() {
        XCTAssertEqual(ParallelWork.cgroupQuota(v2: "200000 100000\n", v1Quota: nil, v1Period: nil), 2)
        XCTAssertEqual(
            ParallelWork.cgroupQuota(v2: "150000 100000\n", v1Quota: nil, v1Period: nil), 2, "a part core is a core")
        XCTAssertEqual(ParallelWork.cgroupQuota(v2: "50000 100000\n", v1Quota: nil, v1Period: nil), 1)
        XCTAssertNil(ParallelWork.cgroupQuota(v2: "max 100000\n", v1Quota: nil, v1Period: nil))
        XCTAssertEqual(ParallelWork.cgroupQuota(v2: nil, v1Quota: "400000\n", v1Period: "100000\n"), 4)
        XCTAssertNil(ParallelWork.cgroupQuota(v2: nil, v1Quota: "-1\n", v1Period: "100000\n"))
        XCTAssertNil(ParallelWork.cgroupQuota(v2: nil, v1Quota: nil, v1Period: nil))
        XCTAssertGreaterThanOrEqual(ParallelWork.cores, 1)
    }
}
