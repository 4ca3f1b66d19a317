import Foundation
import SwiftDataGenCore

/// The files of a `.xcdatamodeld` bundle (or of one `.xcdatamodel`) as read from disk: every
/// model version's `contents`, the current version's name, and the `xcmapping.xml` of mapping
/// models beside the bundle. Nothing else is read; a link that leads out of the bundle (or out of
/// a mapping model) is refused.
public struct CoreDataBundle: Sendable {
    public struct Version: Sendable {
        /// `Model 2`: the `.xcdatamodel` folder's name without its extension.
        public var name: String
        /// The path notes print.
        public var path: String
        /// Nil for a version in Xcode 3's binary format (`elements` and `layout`, no `contents`).
        public var bytes: [UInt8]?
    }

    public var path: String
    public var versions: [Version]
    /// `.xccurrentversion` (a property list naming the current version), when the bundle has one.
    public var currentVersionFile: (path: String, bytes: [UInt8])?
    /// `.xcmappingmodel` folders in the bundle's folder, with their `xcmapping.xml` when present.
    public var mappingModels: [(path: String, bytes: [UInt8]?)]

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Bigger than any model Xcode writes, small enough that a hostile file cannot exhaust memory.
    public static let maxFileBytes = ReadingBudget.xmlBytes

    public static func read(_ path: String) throws(Failure) -> CoreDataBundle {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure(description: "\(path): no such .xcdatamodeld folder")
        }
        let root = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        func inside(_ file: String, root: String = root) throws(Failure) -> [UInt8] {
            let resolved = URL(fileURLWithPath: file).resolvingSymlinksInPath().standardizedFileURL.path
            guard resolved.hasPrefix(root + "/") else {
                throw Failure(
                    description: "\(file): leads outside \(path) (a link); only the bundle's own files are read")
            }
            switch UntrustedFile.bytes(at: resolved, limit: maxFileBytes) {
            case .bytes(let bytes): return bytes
            case .tooLarge(let size):
                throw Failure(
                    description: "\(file): \(size) bytes or more, more than the \(maxFileBytes) a model file may have")
            case .notAFile(let kind): throw Failure(description: "\(file): \(kind), not a model file")
            case .unreadable: throw Failure(description: "\(file): cannot be read")
            }
        }
        // A model that was never versioned is one `.xcdatamodel` folder: its only version.
        let single = path.hasSuffix(".xcdatamodel")
        let folder = single ? URL(fileURLWithPath: path).deletingLastPathComponent().path : path
        let names =
            single
            ? [URL(fileURLWithPath: path).lastPathComponent]
            : ((try? manager.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var versions: [Version] = []
        for name in names where name.hasSuffix(".xcdatamodel") {
            let contents = folder + "/" + name + "/contents"
            let version = String(name.dropLast(".xcdatamodel".count))
            if manager.fileExists(atPath: contents) {
                versions.append(Version(name: version, path: contents, bytes: try inside(contents)))
            } else if manager.fileExists(atPath: folder + "/" + name + "/elements") {
                versions.append(Version(name: version, path: folder + "/" + name + "/elements", bytes: nil))
            } else {
                throw Failure(description: "\(folder)/\(name): no contents file; is the bundle complete?")
            }
        }
        guard !versions.isEmpty else {
            throw Failure(description: "\(path): holds no .xcdatamodel version; name a Core Data model bundle")
        }
        var currentFile: (path: String, bytes: [UInt8])?
        let marker = path + "/.xccurrentversion"
        if !single && manager.fileExists(atPath: marker) { currentFile = (marker, try inside(marker)) }
        // Mapping models sit beside the bundle (or beside the one model).
        let parent = single ? folder : URL(fileURLWithPath: path).deletingLastPathComponent().path
        var mappings: [(path: String, bytes: [UInt8]?)] = []
        for name in ((try? manager.contentsOfDirectory(atPath: parent)) ?? []).sorted()
        where name.hasSuffix(".xcmappingmodel") {
            let folder = parent + "/" + name
            let file = folder + "/xcmapping.xml"
            let folderRoot = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
            mappings.append((folder, manager.fileExists(atPath: file) ? try inside(file, root: folderRoot) : nil))
        }
        return CoreDataBundle(
            path: path, versions: versions, currentVersionFile: currentFile,
            mappingModels: mappings)
    }
}
