/// The lock file (`swiftdata-gen.lock`) freezes what shipped: the stored shape of each shipped
/// version and of each bridge schema its plan ships (a store can rest at a bridge between two
/// stages: docs/store-evidence.md, "Stages, bridges and the store's version"), hash modifiers
/// included, and the identity SwiftData knows its stores by (entity version hashes and checksum,
/// from format 3). Any later change to those is an error: an edited shipped version is what makes a
/// device's store match no schema of the plan ("unknown model version", 134504:
/// docs/store-evidence.md, "Launch-time behaviours").
public struct ShippedVersions: Sendable, Equatable {
    public static let fileName = "swiftdata-gen.lock"
    /// Written on the `format` line; a lock of a format not in `readableFormats` is refused
    /// rather than misread. Format 2 had no identity lines.
    static let format = 3
    static let readableFormats: Set<Int> = [2, 3]

    /// The entity version hashes (hexadecimal) and `versionChecksum` of a locked schema.
    public struct Identity: Sendable, Equatable {
        public var entityHashes: [String: String]
        public var checksum: String

        init(_ identity: StoreIdentity) {
            entityHashes = identity.entityHashes
            checksum = identity.versionChecksum
        }

        init(entityHashes: [String: String], checksum: String) {
            self.entityHashes = entityHashes
            self.checksum = checksum
        }

        var lines: [String] {
            entityHashes.keys.sorted(by: VersionHashRecipe.precedes).map { "entity \($0) \(entityHashes[$0] ?? "")" }
                + ["checksum \(checksum)"]
        }
    }

    public struct Entry: Sendable, Equatable {
        public enum Kind: String, Sendable {
            case version
            /// The generated bridge in front of `version`.
            case bridge
        }

        public var kind: Kind
        public var schema: String
        public var version: SemanticVersion
        var shape: StoredShape
        /// Nil in an entry a format 2 lock wrote.
        public var identity: Identity?

        public var fingerprint: String { ShippedVersions.fingerprint(shape.lines.map(\.text)) }
        var header: String { "\(kind.rawValue) \(schema) \(version) \(fingerprint)" }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Every version of every history up to `last`, with the bridges in front of them, as
    /// `swiftdata-gen lock` records them.
    public init(histories: [SchemaHistory], through last: SemanticVersion? = nil) {
        entries = histories.flatMap { history -> [Entry] in
            let plan = MigrationPlanner.plan(history).plan
            let naming = history.config.naming
            return plan.versions.filter { version in last.map { version.version <= $0 } ?? true }.flatMap {
                version -> [Entry] in
                let bridge = plan.bridges.first { $0.into == version.version }.map {
                    Entry(
                        kind: .bridge, schema: history.name, version: version.version,
                        shape: StoredShape($0.schema, naming: naming),
                        identity: Identity(StoreIdentity($0.schema, naming: naming)))
                }
                return [
                    bridge,
                    Entry(
                        kind: .version, schema: history.name, version: version.version,
                        shape: StoredShape(version, naming: naming),
                        identity: Identity(StoreIdentity(version, naming: naming))),
                ].compactMap { $0 }
            }
        }
    }

    public var text: String {
        var body = ["format \(Self.format)"]
        for entry in entries {
            body.append(entry.header)
            body += entry.shape.lines.map { "  " + $0.text }
            body += (entry.identity?.lines ?? []).map { "  " + $0 }
        }
        let lines =
            [
                "# swiftdata-gen lock file: what every shipped version and its bridge schemas store, frozen.",
                "# Written by `swiftdata-gen lock`; commit it. Edit a locked version and generation fails.",
            ] + body + ["end \(entries.count) \(Self.fingerprint(body))"]
        return lines.joined(separator: "\n") + "\n"
    }

    public static func parse(_ text: String, file: String) -> (ShippedVersions, [Diagnostic]) {
        var entries: [Entry] = []
        var fingerprints: [(String, SourceLocation)] = []
        var diagnostics: [Diagnostic] = []
        var body: [String] = []
        var end: (count: Int, fingerprint: String, location: SourceLocation)?
        var sawFormat = false
        let restore =
            "restore the file from version control, or if nothing has shipped yet, delete it and run "
            + "swiftdata-gen lock again"
        // A checkout or an editor may add a byte-order mark or turn line ends into CRLF; neither
        // changes what the lock says ("\r\n" is one Character, so it separates lines itself).
        let unmarked = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        let allLines = unmarked.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, line) in allLines.enumerated() {
            let location = SourceLocation(file: file, line: index + 1, column: 1)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if end != nil {
                diagnostics.append(
                    .error(.malformedLockFile, "the lock file goes on after its end line; \(restore)", at: location))
                break
            }
            let parts = line.split(separator: " ")
            if line.hasPrefix("format ") {
                guard !sawFormat, body.isEmpty, parts.count == 2, let format = Int(parts[1]),
                    Self.readableFormats.contains(format)
                else {
                    diagnostics.append(
                        .error(
                            .malformedLockFile,
                            "this lock file is not in format \(Self.format), which this swiftdata-gen reads; "
                                + "\(restore)",
                            at: location))
                    return (ShippedVersions(entries: []), diagnostics)
                }
                sawFormat = true
                body.append(String(line))
                continue
            }
            if line.hasPrefix("end "), parts.count == 3, let count = Int(parts[1]) {
                end = (count, String(parts[2]), location)
                continue
            }
            body.append(String(line))
            if line.hasPrefix("  entity "), parts.count == 3, !entries.isEmpty {
                var identity = entries[entries.count - 1].identity ?? Identity(entityHashes: [:], checksum: "")
                identity.entityHashes[String(parts[1])] = String(parts[2])
                entries[entries.count - 1].identity = identity
                continue
            }
            if line.hasPrefix("  checksum "), parts.count == 2, !entries.isEmpty {
                var identity = entries[entries.count - 1].identity ?? Identity(entityHashes: [:], checksum: "")
                identity.checksum = String(parts[1])
                entries[entries.count - 1].identity = identity
                continue
            }
            if line.hasPrefix("  "), !entries.isEmpty, let shapeLine = StoredShape.Line(parsing: line.dropFirst(2)) {
                entries[entries.count - 1].shape.lines.append(shapeLine)
                continue
            }
            guard sawFormat, parts.count == 4, let kind = Entry.Kind(rawValue: String(parts[0])),
                let version = SemanticVersion(parsing: String(parts[2]))
            else {
                diagnostics.append(
                    .error(
                        .malformedLockFile, "this line of the lock file is not one swiftdata-gen writes; \(restore)",
                        at: location))
                continue
            }
            entries.append(Entry(kind: kind, schema: String(parts[1]), version: version, shape: StoredShape(lines: [])))
            fingerprints.append((String(parts[3]), location))
        }
        let lastLine = SourceLocation(file: file, line: max(allLines.count - 1, 1), column: 1)
        if !sawFormat && diagnostics.isEmpty {
            let what = text.allSatisfy(\.isWhitespace) ? "the lock file is empty" : "the lock file has no format line"
            diagnostics.append(
                .error(
                    .malformedLockFile, "\(what), so it no longer protects the shipped versions; \(restore)",
                    at: lastLine))
        } else if let end {
            if end.count != entries.count || end.fingerprint != fingerprint(body) {
                diagnostics.append(
                    .error(
                        .malformedLockFile,
                        "the lock file does not match its end line (entries removed, added or edited by hand); "
                            + "\(restore)",
                        at: end.location))
            }
        } else if diagnostics.isEmpty {
            diagnostics.append(
                .error(
                    .malformedLockFile, "the lock file ends without its end line, so it was cut short; \(restore)",
                    at: lastLine))
        }
        for (entry, (written, location)) in zip(entries, fingerprints) where entry.fingerprint != written {
            diagnostics.append(
                .error(
                    .malformedLockFile,
                    "the lock entry for \(entry.schema) \(entry.version) does not match its fingerprint, so it "
                        + "was edited by hand; \(restore)",
                    at: location))
        }
        return (ShippedVersions(entries: entries), diagnostics)
    }

    /// The hash modifiers the locked schemas of `schema` carry.
    public func modifiers(of schema: String) -> [ShippedModifier] {
        entries.filter { $0.schema == schema }.flatMap { entry in
            entry.shape.lines.compactMap { line -> ShippedModifier? in
                guard line.subject.hasPrefix("property "), let value = line.value("hashModifier"), value != "-" else {
                    return nil
                }
                let path = line.subject.dropFirst("property ".count).split(separator: ".", maxSplits: 1)
                guard path.count == 2 else { return nil }
                let reference: MigrationPlan.SchemaReference =
                    entry.kind == .version ? .version(entry.version) : .bridge(into: entry.version)
                return ShippedModifier(
                    schema: reference, model: String(path[0]), property: String(path[1]),
                    modifier: StoredShape.unescaped(value))
            }
        }
    }

    /// Errors for shipped versions and bridges whose stored shape changed or that are gone, and
    /// for new versions numbered below the newest shipped one. Each points at the YAML that changed.
    public func check(_ histories: [SchemaHistory], lockFile: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let lockLocation = SourceLocation(file: lockFile, line: 1, column: 1)
        let plans = Dictionary(
            histories.map { ($0.name, MigrationPlanner.plan($0).plan) }, uniquingKeysWith: { first, _ in first })
        for entry in entries {
            guard let history = histories.first(where: { $0.name == entry.schema }), let plan = plans[entry.schema],
                let version = plan.versions.first(where: { $0.version == entry.version })
            else {
                guard entry.kind == .version else { continue }
                diagnostics.append(
                    .error(
                        .shippedVersionMissing,
                        "shipped version \(entry.version) of \(entry.schema) is locked but its YAML is gone; "
                            + "devices with that store could no longer open it — restore the file",
                        at: lockLocation))
                continue
            }
            let naming = history.config.naming
            let current: SchemaVersion
            switch entry.kind {
            case .version:
                current = version
            case .bridge:
                guard let bridge = plan.bridges.first(where: { $0.into == entry.version }) else {
                    diagnostics.append(
                        .error(
                            .shippedVersionEdited,
                            "the step into \(entry.version) of \(entry.schema) shipped with a bridge schema, "
                                + "which its plan no longer has; a store stopped between the two stages could not open "
                                + "— undo the change to \(entry.version) or to the version before it",
                            at: version.location, notes: [.init("locked here", at: lockLocation)]))
                    continue
                }
                current = bridge.schema
            }
            let differences = StoredShape.differences(
                locked: entry.shape, current: StoredShape(current, naming: naming))
            guard let first = differences.first else { continue }
            let model = version.model(named: first.model)
            let location =
                first.property.flatMap { model?.property(named: $0)?.location } ?? model?.location ?? version.location
            let shown =
                differences.prefix(3).map(\.words).joined(separator: "; ")
                + (differences.count > 3 ? "; and \(differences.count - 3) more" : "")
            let what =
                entry.kind == .version
                ? "version \(entry.version) of \(entry.schema) has shipped"
                : "the bridge schema in front of \(entry.version) of \(entry.schema) has shipped"
            diagnostics.append(
                .error(
                    .shippedVersionEdited,
                    "\(what) and is locked, but what it stores changed: \(shown); "
                        + Self.identityEffect(
                            locked: entry.identity, current: StoreIdentity(current, naming: naming),
                            differences: differences)
                        + "undo the edit and make the change in a new version",
                    at: location, notes: [.init("locked here", at: lockLocation)]))
        }
        for history in histories {
            guard let newestShipped = entries.filter({ $0.schema == history.name }).map(\.version).max() else {
                continue
            }
            for version in history.versions
            where version.version < newestShipped
                && !entries.contains(where: { $0.schema == history.name && $0.version == version.version })
            {
                diagnostics.append(
                    .error(
                        .versionBeforeShipped,
                        "version \(version.version) of \(history.name) is new but numbered before the shipped "
                            + "\(newestShipped); a new version must come after every shipped one",
                        at: version.location))
            }
        }
        return diagnostics
    }

    /// What an edit of a shipped schema does to SwiftData's identity of its stores: which entities'
    /// version hashes change, each with the edits to that model that explain it, or that none does
    /// (the edit changes only what the lock freezes beyond the identity). Nothing for a format 2
    /// entry, which has no hashes to compare.
    static func identityEffect(
        locked: Identity?, current: StoreIdentity, differences: [(model: String, property: String?, words: String)]
    ) -> String {
        guard let locked else { return "" }
        let names = Set(locked.entityHashes.keys).union(current.entityHashes.keys).sorted(
            by: VersionHashRecipe.precedes)
        let changed = names.filter { locked.entityHashes[$0] != current.entityHashes[$0] }
        guard !changed.isEmpty else {
            return "SwiftData would still know its stores (every entity version hash is the locked one), but "
        }
        let explained = changed.map { name -> String in
            let causes = differences.filter { $0.model == name }.map(\.words)
            return causes.isEmpty ? name : "\(name) (\(causes.prefix(2).joined(separator: "; ")))"
        }
        return
            "SwiftData would no longer know its stores (checksum \(locked.checksum), now \(current.versionChecksum)): "
            + "the version hash of \(explained.joined(separator: ", ")) changes, so a device with this store fails "
            + "at launch; "
    }

    /// FNV-1a, 64 bits: a short summary of lines, for people comparing lock files and for
    /// noticing edits; not a defence against someone who means to forge one.
    static func fingerprint(_ lines: [String]) -> String {
        var digest = Digest()
        digest.add(lines.joined(separator: "\n"))
        let hex = String(digest.value, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// FNV-1a, 64 bits: lock-file fingerprints. Fast and stable across processes; not a defence
/// against someone who means to forge a value.
struct Digest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }
}
