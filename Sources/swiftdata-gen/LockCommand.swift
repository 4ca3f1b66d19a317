import SwiftDataGenCore

/// `lock`: adds the versions not yet locked; entries already in the file are kept as they are.
enum Locking {
    static func run(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        guard let sources = readSchemas(schemaDirectory) else { return .diagnostics }
        let lockFile = sources.lock
        guard let (histories, _) = planned(sources) else { return .diagnostics }
        return lock(
            histories, in: schemaDirectory, through: arguments.lockThrough, existing: lockFile, quiet: arguments.quiet)
    }

    private static func lock(
        _ histories: [SchemaHistory], in directory: String, through: SemanticVersion?, existing: SourceFile?,
        quiet: Bool
    ) -> ExitCode {
        if let through, !histories.contains(where: { $0.versions.contains { $0.version == through } }) {
            let known = histories.flatMap { $0.versions.map { "\($0.version)" } }
            return usage(
                "--through \(through): no schema has that version; it is one of: \(known.joined(separator: ", "))",
                .lock)
        }
        var shipped = ShippedVersions(entries: [])
        if let existing {
            // A damaged lock is never rewritten: what it protected would be lost with it.
            let (parsed, problems) = ShippedVersions.parse(
                String(decoding: existing.bytes, as: UTF8.self), file: existing.displayPath)
            guard !problems.hasErrors else {
                report(problems)
                return .diagnostics
            }
            shipped = parsed
        }
        let before = shipped.entries.count
        for entry in ShippedVersions(histories: histories, through: through).entries {
            if let index = shipped.entries.firstIndex(where: {
                $0.kind == entry.kind && $0.schema == entry.schema && $0.version == entry.version
            }) {
                // A format 2 entry gains the identity its (validated, so unchanged) schema has.
                if shipped.entries[index].identity == nil { shipped.entries[index].identity = entry.identity }
            } else {
                shipped.entries.append(entry)
            }
        }
        let path = directory + "/" + ShippedVersions.fileName
        if let problem = OutputWriter.writeAtomically(Array(shipped.text.utf8), to: path) {
            report([problem])
            return .diagnostics
        }
        let added = shipped.entries.dropFirst(before)
        let bridges = added.filter { $0.kind == .bridge }.count
        let bridgeText = bridges == 0 ? "" : " and \(bridges) bridge schema(s)"
        if !quiet { print("swiftdata-gen: locked \(added.count - bridges) new version(s)\(bridgeText) in \(path)") }
        return .success
    }
}
