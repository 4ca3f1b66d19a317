/// The lock file (`swiftdata-gen.lock`) freezes shipped versions: it records each one's persisted
/// shape, and any later edit to that shape is an error. An edited shipped version is what makes a
/// device's store match no version of the plan ("unknown coordinator model version", 134504).
public struct ShippedVersions: Sendable, Equatable {
    public static let fileName = "swiftdata-gen.lock"

    public struct Entry: Sendable, Equatable {
        public var schema: String
        public var version: SemanticVersion
        public var shape: [String]

        public var fingerprint: String { ShippedVersions.fingerprint(shape) }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Every version of every history, as `swiftdata-gen lock` records them.
    public init(histories: [SchemaHistory], through last: SemanticVersion? = nil) {
        entries = histories.flatMap { history in
            history.versions.filter { version in last.map { version.version <= $0 } ?? true }.map {
                Entry(schema: history.name, version: $0.version, shape: PersistedShape($0).lines)
            }
        }
    }

    public var text: String {
        var lines = [
            "# swiftdata-gen lock file: the persisted shape of every shipped version, frozen.",
            "# Written by `swiftdata-gen lock`; commit it. Edit a locked version and generation fails.",
        ]
        for entry in entries {
            lines.append("version \(entry.schema) \(entry.version) \(entry.fingerprint)")
            lines += entry.shape.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func parse(_ text: String, file: String) -> (ShippedVersions, [Diagnostic]) {
        var entries: [Entry] = []
        var fingerprints: [(String, SourceLocation)] = []
        var diagnostics: [Diagnostic] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: file, line: index + 1, column: 1)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("  "), !entries.isEmpty {
                entries[entries.count - 1].shape.append(String(line.dropFirst(2)))
                continue
            }
            let parts = line.split(separator: " ")
            guard parts.count == 4, parts[0] == "version", let version = SemanticVersion(parsing: String(parts[2])) else {
                diagnostics.append(.error(.malformedLockFile, "this line of the lock file is not one swiftdata-gen writes; restore the file from version control or write it again with swiftdata-gen lock", at: location))
                continue
            }
            entries.append(Entry(schema: String(parts[1]), version: version, shape: []))
            fingerprints.append((String(parts[3]), location))
        }
        for (entry, (written, location)) in zip(entries, fingerprints) where entry.fingerprint != written {
            diagnostics.append(.error(
                .malformedLockFile, "the lock entry for \(entry.schema) \(entry.version) does not match its fingerprint, so it was edited by hand; restore the file from version control",
                at: location))
        }
        return (ShippedVersions(entries: entries), diagnostics)
    }

    /// Errors for shipped versions that were edited or deleted, and for new versions numbered
    /// below the newest shipped one.
    public func check(_ histories: [SchemaHistory], lockFile: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let lockLocation = SourceLocation(file: lockFile, line: 1, column: 1)
        for entry in entries {
            guard let history = histories.first(where: { $0.name == entry.schema }),
                let version = history.versions.first(where: { $0.version == entry.version })
            else {
                diagnostics.append(.error(
                    .shippedVersionMissing,
                    "shipped version \(entry.version) of \(entry.schema) is locked but its YAML is gone; devices with that store could no longer open it — restore the file",
                    at: lockLocation))
                continue
            }
            let current = PersistedShape(version).lines
            guard current != entry.shape else { continue }
            let removed = entry.shape.first { !current.contains($0) }
            let added = current.first { !entry.shape.contains($0) }
            var what: [String] = []
            if let removed { what.append("shipped: `\(removed.trimmingWhitespace())`") }
            if let added { what.append("now: `\(added.trimmingWhitespace())`") }
            diagnostics.append(.error(
                .shippedVersionEdited,
                "version \(entry.version) of \(entry.schema) has shipped and is locked, but its stored shape changed (\(what.joined(separator: "; "))); undo the edit and make the change in a new version",
                at: version.location, notes: [.init("locked here", at: lockLocation)]))
        }
        for history in histories {
            guard let newestShipped = entries.filter({ $0.schema == history.name }).map(\.version).max() else { continue }
            for version in history.versions where version.version < newestShipped && !entries.contains(where: { $0.schema == history.name && $0.version == version.version }) {
                diagnostics.append(.error(
                    .versionBeforeShipped,
                    "version \(version.version) of \(history.name) is new but numbered before the shipped \(newestShipped); a new version must come after every shipped one",
                    at: version.location))
            }
        }
        return diagnostics
    }

    /// FNV-1a, 64 bits: a short summary of a shape for people comparing lock files.
    static func fingerprint(_ lines: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in lines.joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
