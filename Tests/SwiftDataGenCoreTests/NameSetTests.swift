import XCTest

@testable import SwiftDataGenCore

/// `NameSet` answers exactly as `Set<String>` does, whatever the names: its hash of bytes is a
/// shortcut for ASCII names only.
final class NameSetTests: XCTestCase {
    func testAgreesWithSetOfStringOnTheReservedListsAndNearMisses() {
        let members = Set(Identifier.keywords.members).union(NamePosition.managedObjectMembers)
        let names = NameSet(members)
        var probes = Array(members)
        probes += members.flatMap { [$0 + "_", "_" + $0, $0.uppercased(), String($0.dropLast())] }
        probes += ["", "x", "selfs", "Self ", "s\u{E9}lf", "Typ\u{0065}", "\u{212A}ey", "in\u{0301}it", "💥"]
        for probe in probes {
            XCTAssertEqual(names.contains(probe), members.contains(probe), probe.debugDescription)
        }
    }

    func testNamesThatAreNotASCIICompareAsSwiftStringsDo() {
        // "café" precomposed and decomposed are the same String; their bytes differ.
        let names: NameSet = ["caf\u{E9}", "plain"]
        XCTAssertTrue(names.contains("cafe\u{301}"))
        XCTAssertTrue(names.contains("caf\u{E9}"))
        XCTAssertTrue(names.contains("plain"))
        XCTAssertFalse(names.contains("cafe"))
        // A Kelvin sign is canonically a K: an ASCII name in the set is found from it.
        let ascii: NameSet = ["Key"]
        XCTAssertTrue(ascii.contains("\u{212A}ey"))
        XCTAssertFalse(ascii.contains("key"))
    }

    func testEveryMemberIsFoundInASetLargerThanItsFirstTable() {
        let members = Set((0..<500).map { "name\($0)" })
        let names = NameSet(members)
        for member in members { XCTAssertTrue(names.contains(member), member) }
        for index in 500..<1000 { XCTAssertFalse(names.contains("name\(index)")) }
        XCTAssertFalse(NameSet([]).contains("anything"))
    }
}
