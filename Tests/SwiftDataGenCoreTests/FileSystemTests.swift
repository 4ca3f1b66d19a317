import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The C-library file operations the loader and writers use in place of Foundation.
final class FileSystemTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fs-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// UTF-8 validation without macOS 15's `String(validating:as:)`, held to it where it exists:
    /// the edge cases by name, then random bytes leaning towards multi-byte sequences.
    func testUTF8TextAgreesWithTheStandardLibrary() {
        let named: [[UInt8]] = [
            [], Array("plain".utf8), Array("é😀".utf8), [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF, 0x41], [0xE2, 0x82], [0x41, 0x80, 0x41],
        ]
        var random = SeededRandom(state: 8)
        let bytes: [UInt8] = [
            0x41, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x00, 0xA0, 0x9F, 0x90,
        ]
        let generated: [[UInt8]] = (0..<3000).map { _ in
            (0..<Int.random(in: 0...6, using: &random)).map { _ in bytes.randomElement(using: &random) ?? 0 }
        }
        var invalid = 0
        for sample in named + generated {
            let expected = String(validating: sample, as: UTF8.self)
            XCTAssertEqual(UntrustedFile.utf8Text(sample), expected, "\(sample)")
            if expected == nil { invalid += 1 }
        }
        XCTAssertGreaterThan(invalid, 500, "too few invalid samples to tell")
        XCTAssertLessThan(invalid, named.count + generated.count - 500, "too few valid samples to tell")
    }

    func testReadsWhatItWritesAndNothingElse() throws {
        let path = scratch.path + "/data.bin"
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertNil(FileSystem.write(bytes, to: path))
        XCTAssertEqual(FileSystem.contents(path), bytes)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(bytes))
        XCTAssertEqual(FileSystem.fileSize(path), bytes.count)
        XCTAssertNil(FileSystem.write([], to: path))
        XCTAssertEqual(FileSystem.contents(path), [])
        XCTAssertNil(FileSystem.contents(scratch.path), "a folder is not a file")
        XCTAssertNil(FileSystem.fileSize(scratch.path))
        XCTAssertNil(FileSystem.contents(scratch.path + "/absent"))
        XCTAssertNotNil(
            FileSystem.write([1], to: scratch.path + "/absent/file"), "a missing folder is an error, not a crash")
    }

    func testCreatesFoldersAndListsThem() throws {
        let nested = scratch.path + "/a/b/c"
        XCTAssertNil(FileSystem.createDirectory(nested))
        XCTAssertTrue(FileSystem.isDirectory(nested))
        XCTAssertNil(FileSystem.createDirectory(nested), "an existing folder is fine")
        XCTAssertNil(FileSystem.write([1], to: scratch.path + "/a/file"))
        XCTAssertNotNil(FileSystem.createDirectory(scratch.path + "/a/file/d"), "a file in the way")
        XCTAssertEqual(FileSystem.names(in: scratch.path + "/a")?.sorted(), ["b", "file"])
        XCTAssertNil(FileSystem.names(in: scratch.path + "/absent"))
        XCTAssertEqual(FileSystem.kind(scratch.path + "/a/file"), .file)
        XCTAssertNil(FileSystem.kind(scratch.path + "/absent"))
    }

    func testSymbolicLinks() throws {
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/dangling", withDestinationPath: scratch.path + "/nowhere")
        XCTAssertTrue(FileSystem.isSymbolicLink(scratch.path + "/dangling"))
        XCTAssertFalse(FileSystem.exists(scratch.path + "/dangling"))
        XCTAssertFalse(FileSystem.isSymbolicLink(scratch.path))
    }

    func testCanonicalPathsAgreeThroughDotsLinksAndFoldersYetToBeMade() throws {
        let real = scratch.path + "/real"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: real)
        XCTAssertEqual(FileSystem.canonicalPath(scratch.path + "/link"), real)
        XCTAssertEqual(FileSystem.canonicalPath(scratch.path + "/link/../real/./"), real)
        XCTAssertEqual(FileSystem.canonicalPath(scratch.path + "/link/new/folder"), real + "/new/folder")
        XCTAssertEqual(FileSystem.canonicalPath("/"), "/")
        let here = FileManager.default.currentDirectoryPath
        XCTAssertEqual(FileSystem.canonicalPath("."), URL(fileURLWithPath: here).resolvingSymlinksInPath().path)
        XCTAssertTrue(OutputWriter.sameFolder(scratch.path + "/link", real))
        XCTAssertFalse(OutputWriter.sameFolder(scratch.path + "/link", scratch.path))
    }

    func testPathComponents() {
        XCTAssertEqual(FileSystem.parentFolder(of: "a/b.swift"), "a")
        XCTAssertEqual(FileSystem.parentFolder(of: "b.swift"), "")
        XCTAssertEqual(FileSystem.parentFolder(of: "/b.swift"), "/")
        XCTAssertEqual(FileSystem.parentFolder(of: "/x/y/"), "/x")
        XCTAssertEqual(FileSystem.lastComponent(of: "/x/y.swift"), "y.swift")
        XCTAssertEqual(FileSystem.lastComponent(of: "y.swift"), "y.swift")
    }

    /// Nested and linked folders are read, hidden ones are not, a linked file is; a link that leads
    /// back to a folder read already is refused.
    func testTheLoaderWalksTheSchemaFolder() throws {
        let schema = scratch.path + "/Schema"
        for folder in ["Schema/nested", "Schema/.hidden", "elsewhere"] {
            try FileManager.default.createDirectory(
                atPath: scratch.path + "/" + folder, withIntermediateDirectories: true)
        }
        let version = "version: 1.0.0\nmodels: {}\n"
        for file in [
            "Schema/1.0.0.yaml", "Schema/nested/2.0.0.yml", "Schema/.hidden/3.0.0.yaml", "Schema/notes.txt",
            "elsewhere/4.0.0.yaml", "elsewhere/5.0.0.yaml",
        ] {
            try version.write(toFile: scratch.path + "/" + file, atomically: false, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(
            atPath: schema + "/linked", withDestinationPath: scratch.path + "/elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: schema + "/5.0.0.yaml", withDestinationPath: scratch.path + "/elsewhere/5.0.0.yaml")
        let sources = try SchemaLoader.read(directory: schema).get()
        // A linked subfolder is read like any other, never skipped without a word.
        XCTAssertEqual(
            sources.versions.map(\.relativePath),
            ["1.0.0.yaml", "5.0.0.yaml", "linked/4.0.0.yaml", "linked/5.0.0.yaml", "nested/2.0.0.yml"])
        XCTAssertEqual(
            sources.versions.map(\.displayPath).first { $0.hasSuffix("4.0.0.yaml") }, schema + "/linked/4.0.0.yaml")
        XCTAssertEqual(sources.versions.first.map { String(decoding: $0.bytes, as: UTF8.self) }, version)
        // A link back to a folder read already is a cycle: refused, saying it is a link.
        try FileManager.default.createSymbolicLink(atPath: schema + "/nested/loop", withDestinationPath: schema)
        guard case .failure(let cycle) = SchemaLoader.read(directory: schema) else { return XCTFail("a cycle") }
        XCTAssertTrue(cycle.message.contains("is a symbolic link to"), cycle.message)
        guard case .failure(let missing) = SchemaLoader.read(directory: scratch.path + "/absent") else {
            return XCTFail("a missing folder must fail")
        }
        XCTAssertEqual(missing.code, .unreadableFile)
    }
}
