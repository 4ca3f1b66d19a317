import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Defaults become `UUID(uuidString:)!`, `URL(string:)!` and `Decimal(string:)!` in generated code;
/// the generator decides which texts parse without Foundation, so each check is held to
/// Foundation itself here: whatever the generator accepts, Foundation must parse.
final class FoundationLiteralsTests: XCTestCase {
    private var random = SystemRandomNumberGenerator()

    private func randomText(from alphabet: [Character], length: ClosedRange<Int>) -> String {
        String((0..<Int.random(in: length, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    func testUUIDsAreExactlyWhatFoundationParses() {
        XCTAssertTrue(FoundationLiterals.isUUID("2F1A0C3E-9B7D-4E21-8A6F-0123456789ab"))
        XCTAssertFalse(FoundationLiterals.isUUID("2F1A0C3E9B7D4E218A6F0123456789ab"))
        let alphabet = Array("0123456789abcdefABCDEFg-")
        for _ in 0..<20_000 {
            var text = Array(randomText(from: alphabet, length: 35...37))
            if text.count == 36 && Bool.random(using: &random) {
                for index in [8, 13, 18, 23] { text[index] = "-" }
                for index in text.indices where ![8, 13, 18, 23].contains(index) && text[index] == "-" {
                    text[index] = "a"
                }
            }
            let string = String(text)
            XCTAssertEqual(FoundationLiterals.isUUID(string), UUID(uuidString: string) != nil, string)
        }
    }

    func testEveryURLTheGeneratorAcceptsFoundationParsesWithAScheme() {
        for good in [
            "https://example.com/a?b=c#d", "mailto:a@b.c", "file:///tmp/x", "http://[::1]:8080/",
            "http://[2001:db8::7]/c=d",
            "urn:isbn:0451450523", "https://a.b/%20x", "x-app+1.2:path", "http://user:pw@host:65535/p?q#f",
            "ftp://10.0.0.1/",
        ] {
            XCTAssertTrue(FoundationLiterals.isAbsoluteURL(good), good)
            XCTAssertNotNil(URL(string: good)?.scheme, good)
        }
        for bad in [
            "", "no scheme", "1http://x", ":x", "http://a b", "http://x:99999", "http://x:8a", "a:%zz", "a:%4",
            "a:b#c#d",
            "http://[::1", "http://[:::]/", "http://[::]f", "http://[::1]x:80/", "http://[1:2:3:4:5:6:7:8:9]/",
            "a:\"q\"", "a:<b>", "a:{b}", "a:b|c", "a:é",
        ] {
            XCTAssertFalse(FoundationLiterals.isAbsoluteURL(bad), bad)
        }
        let alphabet = Array("ab1:/?#[]@%!$&'()*+,;=-._~Ef09 ")
        let prefixes = ["", "a:", "https://", "http://[", "mailto:", "h://u@", "s:/"]
        var accepted = 0
        for _ in 0..<50_000 {
            let text = prefixes.randomElement(using: &random)! + randomText(from: alphabet, length: 0...14)
            guard FoundationLiterals.isAbsoluteURL(text) else { continue }
            accepted += 1
            XCTAssertNotNil(URL(string: text)?.scheme, "the generator accepts '\(text)' but URL(string:) does not")
        }
        XCTAssertGreaterThan(accepted, 1_000, "the random texts should exercise the accepting side too")
    }

    func testEveryDecimalTheGeneratorAcceptsFoundationParses() {
        for zero in ["0e-120", "0.000e127", "-0.0"] {
            XCTAssertTrue(DefaultValueResolver.fitsRange(zero, of: .decimal), zero)
            XCTAssertNotNil(Decimal(string: zero), zero)
        }
        for outOfRange in ["0e-200", "0.000e131", "1e128", "12E-130", "1.5e-128"] {
            XCTAssertFalse(DefaultValueResolver.fitsRange(outOfRange, of: .decimal), outOfRange)
        }
        let digits = Array("0123456789")
        var accepted = 0
        for _ in 0..<20_000 {
            var text = Bool.random(using: &random) ? "-" : ""
            text += randomText(from: digits, length: 1...40)
            if Bool.random(using: &random) { text += "." + randomText(from: digits, length: 1...40) }
            if Int.random(in: 0..<8, using: &random) == 0 { text = String(text.map { $0.isNumber ? "0" : $0 }) }
            if Bool.random(using: &random) {
                text +=
                    ["e", "E"].randomElement(using: &random)! + ["", "-", "+"].randomElement(using: &random)!
                    + String(Int.random(in: 0...200, using: &random))
            }
            guard DefaultValueResolver.isDecimalNumber(text), DefaultValueResolver.fitsRange(text, of: .decimal) else {
                continue
            }
            accepted += 1
            XCTAssertNotNil(
                Decimal(string: text), "the generator accepts '\(text)' as a Decimal but Decimal(string:) does not")
        }
        XCTAssertGreaterThan(accepted, 1_000)
    }
}
