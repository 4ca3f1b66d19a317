/// The pipeline's only reader of files: schema YAML and templates.
public enum SchemaLoader {
    public static let configFileName = "swiftdata-gen.yaml"
    static let yamlExtensions: Set<String> = ["yaml", "yml"]

    /// Reads the config and every `.yaml`/`.yml` below `directory` (hidden folders skipped).
    public static func read(directory: String, limits: YAMLLimits = .standard) -> Result<SchemaSources, Diagnostic> {
        guard FileSystem.isDirectory(directory) else {
            return .failure(
                .error(.unreadableFile, "schema folder '\(directory)' does not exist or is not a folder", at: nil))
        }
        var notUTF8: [String] = []
        var folders: Set<String> = [FileSystem.canonicalPath(directory)]
        var linkProblem: String?
        guard
            let relativePaths = yamlFiles(
                in: directory, under: "", notUTF8: &notUTF8, folders: &folders, linkProblem: &linkProblem)
        else {
            return .failure(
                .error(.unreadableFile, linkProblem ?? "cannot list schema folder '\(directory)'", at: nil))
        }
        if let name = notUTF8.sorted().first {
            return .failure(
                .error(
                    .unreadableFile,
                    "the name of '\(path(name, in: directory))' is not UTF-8 (shown with � for its bytes); rename "
                        + "the file so its name is",
                    at: nil))
        }
        var config: SourceFile?
        var versions: [SourceFile] = []
        for relative in relativePaths.sorted() {
            let display = path(relative, in: directory)
            let file: SourceFile
            switch readFile(display, relativePath: relative, limit: limits.maxFileBytes) {
            case .success(let read): file = read
            case .failure(let diagnostic): return .failure(diagnostic)
            }
            if relative == configFileName { config = file } else { versions.append(file) }
        }
        var lock: SourceFile?
        if FileSystem.exists(path(ShippedVersions.fileName, in: directory)) {
            let display = path(ShippedVersions.fileName, in: directory)
            switch readFile(display, relativePath: ShippedVersions.fileName, limit: limits.maxFileBytes * 4) {
            case .success(let file): lock = file
            case .failure(let diagnostic): return .failure(diagnostic)
            }
        }
        return .success(SchemaSources(config: config, versions: versions, lock: lock))
    }

    static func readFile(_ path: String, relativePath: String, limit: Int) -> Result<SourceFile, Diagnostic> {
        let location = SourceLocation(file: path, line: 1, column: 1)
        let bytes: [UInt8]
        switch UntrustedFile.bytes(at: path, limit: limit) {
        case .bytes(let read): bytes = read
        case .notAFile(let kind):
            return .failure(
                .error(
                    .unreadableFile,
                    "'\(path)' is \(kind) where a file was expected, so it is not read; replace it with a file",
                    at: location))
        case .tooLarge(let size):
            return .failure(
                .error(
                    .fileTooLarge, "file is \(size) bytes or more; schema files may be at most \(limit) bytes",
                    at: location))
        case .unreadable:
            return .failure(.error(.unreadableFile, "'\(path)' cannot be read", at: location))
        }
        return .success(SourceFile(displayPath: path, relativePath: relativePath, bytes: bytes))
    }

    /// The built-in templates, with same-named files from `overrideDirectory` in their place.
    public static func templates(overrideDirectory: String?) -> Result<TemplateSet, Diagnostic> {
        var set = TemplateSet.bundled
        if let overrideDirectory {
            guard FileSystem.isDirectory(overrideDirectory) else {
                return .failure(
                    .error(.templateError, "templates folder '\(overrideDirectory)' does not exist", at: nil))
            }
            switch readTemplates(in: overrideDirectory) {
            case .success(let sources): set = set.overridden(by: sources)
            case .failure(let diagnostic): return .failure(diagnostic)
            }
        }
        return .success(set)
    }

    /// The `.yaml`/`.yml` files below `directory` + `relative`, as paths relative to `directory`.
    /// Hidden names are skipped and linked folders not entered (a link to a file is read), so a
    /// link cannot make the walk go round; a folder that cannot be listed fails the whole read.
    /// A subfolder that is a symbolic link is read like any other; one that leads to a folder read
    /// already (a cycle, or the same versions twice) fails the read with `linkProblem`.
    private static func yamlFiles(
        in directory: String, under relative: String, notUTF8: inout [String], folders: inout Set<String>,
        linkProblem: inout String?
    ) -> [String]? {
        guard let names = FileSystem.names(in: relative.isEmpty ? directory : path(relative, in: directory)) else {
            return nil
        }
        var found: [String] = []
        for name in names where !name.hasPrefix(".") {
            let inner = relative.isEmpty ? name : relative + "/" + name
            // A name that is not UTF-8 was decoded with U+FFFD in place of its bytes, so no path
            // built from it would open: said as what it is, not as a file that cannot be read.
            if name.contains("\u{FFFD}") {
                if yamlExtensions.contains(where: { name.hasSuffix("." + $0) }) { notUTF8.append(inner) }
                continue
            }
            let full = path(inner, in: directory)
            if FileSystem.isDirectory(full) {
                let target = FileSystem.canonicalPath(full)
                guard folders.insert(target).inserted else {
                    linkProblem =
                        "schema subfolder '\(full)' is a symbolic link to '\(target)', a folder read already, so its "
                        + "versions would be read twice; remove the link"
                    return nil
                }
                guard
                    let nested = yamlFiles(
                        in: directory, under: inner, notUTF8: &notUTF8, folders: &folders, linkProblem: &linkProblem)
                else { return nil }
                found += nested
            } else if let dot = name.lastIndex(of: "."),
                yamlExtensions.contains(String(name[name.index(after: dot)...]))
            {
                found.append(inner)
            }
        }
        return found
    }

    /// `relative` inside `directory`, with one slash between them however the folder was written.
    private static func path(_ relative: String, in directory: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }

    /// Every `.mustache` file of the folder; one that cannot be read as a file fails the read
    /// rather than leaving the built-in template silently in its place.
    private static func readTemplates(in directory: String) -> Result<[String: String], Diagnostic> {
        var sources: [String: String] = [:]
        for name in (FileSystem.names(in: directory) ?? []).sorted()
        where name.hasSuffix("." + TemplateSet.fileExtension) {
            let path = directory + "/" + name
            let bytes: [UInt8]
            switch UntrustedFile.bytes(at: path, limit: .max) {
            case .bytes(let read): bytes = read
            case .notAFile(let kind):
                return .failure(
                    .error(
                        .templateError,
                        "template '\(path)' is \(kind), not a file; replace it with a file or remove it",
                        at: nil))
            case .tooLarge, .unreadable:
                return .failure(
                    .error(
                        .templateError, "template '\(path)' cannot be read; replace it with a file or remove it",
                        at: nil))
            }
            sources[String(name.dropLast(TemplateSet.fileExtension.count + 1))] = String(decoding: bytes, as: UTF8.self)
        }
        return .success(sources)
    }
}
