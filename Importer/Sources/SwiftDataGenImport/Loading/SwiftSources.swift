import Foundation
import SwiftDataGenCore

/// One Swift file as read from disk.
public struct SwiftSource: Sendable {
    /// The path notes print, so editors can open it.
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

public enum SwiftSourceLoader {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every `.swift` file named, or found below a folder named, in path order; `.build` and
    /// hidden folders are skipped.
    public static func read(_ paths: [String]) throws(Failure) -> [SwiftSource] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw Failure(description: "\(path): no such file or folder")
            }
            if !isFolder.boolValue {
                files.append(path)
                continue
            }
            let enumerator = FileManager.default.enumerator(atPath: path)
            var found: [String] = []
            while let relative = enumerator?.nextObject() as? String {
                let parts = relative.split(separator: "/")
                if parts.contains(where: { $0.hasPrefix(".") }) { continue }
                // A folder that happens to be named X.swift is walked, not read.
                let full = (path as NSString).appendingPathComponent(relative)
                var isDirectory: ObjCBool = false
                if relative.hasSuffix(".swift"),
                    FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    found.append(full)
                }
            }
            files += found.sorted()
        }
        var sources: [SwiftSource] = []
        var total = 0
        for file in files {
            // Only a regular file is read, checked once opened: a FIFO would wait for a writer forever.
            let text: String
            switch UntrustedFile.bytes(at: file, limit: ReadingBudget.swiftSourceBytes) {
            case .bytes(let bytes):
                guard let decoded = UntrustedFile.utf8Text(bytes) else {
                    throw Failure(description: "\(file): cannot be read as UTF-8 text")
                }
                text = decoded
            case .notAFile(let kind):
                throw Failure(
                    description: "\(file): \(kind), not a Swift file; name Swift files or the folders that hold them")
            case .tooLarge(let size):
                throw Failure(
                    description:
                        "\(file): \(size) bytes or more, more than the \(ReadingBudget.swiftSourceBytes) a "
                        + "Swift file is read to"
                )
            case .unreadable: throw Failure(description: "\(file): cannot be read")
            }
            if let excess = SwiftNesting.excess(in: text, limits: ReadingBudget.swiftNesting) {
                throw Failure(
                    description: "\(file):\(excess.line):\(excess.column): error: \(excess.reason); nothing was "
                        + "imported: \(excess.what == "tokens" ? "split the file" : "flatten this code"), or leave "
                        + "this file out if it declares no model")
            }
            total += text.utf8.count
            guard total <= ReadingBudget.swiftSourcesTotalBytes else {
                throw Failure(
                    description: "\(file): the Swift files named come to more than "
                        + "\(ReadingBudget.swiftSourcesTotalBytes) bytes by this one, more than the importer reads at "
                        + "once; name only the files and folders that declare the models")
            }
            sources.append(SwiftSource(path: file, text: text))
        }
        return sources
    }
}
