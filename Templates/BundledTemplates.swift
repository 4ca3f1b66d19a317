import Foundation

/// Locates the templates shipped with the tool. SwiftPM copies them into a resource bundle beside
/// the executable; we look for it by hand because the generated `Bundle.module` traps when the
/// bundle is missing, and a build tool must report that instead of crashing.
public enum BundledTemplates {
    static let bundleSuffix = "_SwiftDataGenTemplates"

    /// The folder holding the bundled `*.mustache` files, or nil when it cannot be found.
    public static var directory: URL? {
        let fileManager = FileManager.default
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(executable.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        for folder in folders {
            let names = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.contains(bundleSuffix) {
                let bundle = folder.appendingPathComponent(name)
                for inner in ["mustache", "Contents/Resources/mustache"] {
                    let candidate = bundle.appendingPathComponent(inner)
                    if fileManager.fileExists(atPath: candidate.path) { return candidate }
                }
            }
        }
        return nil
    }
}
