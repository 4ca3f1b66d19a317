/// The migration plan: every step between consecutive versions, the stages SwiftData runs for it,
/// and the bridge schemas the two-stage steps pass through.
public struct MigrationPlan: Sendable {
    /// A schema a stage names: a declared version or the bridge generated in front of one.
    public enum SchemaReference: Sendable, Hashable {
        case version(SemanticVersion)
        case bridge(into: SemanticVersion)
    }

    /// A generated schema that holds a version's old and new properties side by side.
    public struct Bridge: Sendable {
        public var into: SemanticVersion
        public var schema: SchemaVersion
    }

    /// Fills a new property from an old one, in batches, on the bridge schema.
    public struct Conversion: Sendable, Equatable {
        /// The property of the new version that the conversion fills (`target` is its bridge name).
        public var property: String
        public var model: String
        public var source: String
        public var sourceType: String
        public var target: String
        public var targetType: String
        public var expression: String
        public var summary: String
    }

    /// Creates one related object per distinct text value and links each object to it.
    public struct Link: Sendable, Equatable {
        /// The relationship of the new version that the link fills (`target` is its bridge name).
        public var property: String
        public var model: String
        public var source: String
        public var sourceIsOptional: Bool
        public var target: String
        public var targetModel: String
        public var matchKey: String
        public var summary: String
    }

    /// Deletes duplicates before uniqueness exists, keeping one per key: on the old schema, or on
    /// the bridge when a key is converted in the same step (so it compares converted values).
    public struct Deduplication: Sendable, Equatable {
        public var model: String
        public var keys: [String]
        /// Keys that can hold nil; an object with a nil key is never a duplicate unless
        /// `nilKeysAreEqual` (a SQLite unique index allows many NULLs).
        public var optionalKeys: [String]
        public var nilKeysAreEqual: Bool
        /// The Swift type of a single key that is one stored value (`String`, `Int`, …), so the
        /// key kept in memory is that type's value, a few bytes; nil for any other key.
        public var keyType: String?
        /// The keys as the walk sorts them, when each is one stored value a sort can order: repeats
        /// are then neighbours and the walk keeps only the key before in memory. nil otherwise, and
        /// the walk remembers one key per kept object.
        public var keyOrder: [KeySort]?
        public var orderBy: String
        public var keepLast: Bool
        public var summary: String

        /// One key of a walk in key order. A String sorts lexically: the default comparator of
        /// `SortDescriptor` ignores case, and would part repeats with a key that differs in case.
        public struct KeySort: Sendable, Equatable {
            public var key: String
            public var isString: Bool
        }
    }

    /// Copies every object of a model renamed in this step into an object of the new model, on the
    /// bridge that holds both: SwiftData has no renaming identifier for a model
    /// (docs/store-evidence.md, "Model renames"). Each old object keeps a link to its copy
    /// (`copyLink`), so a second run copies only the rest.
    public struct ModelCopy: Sendable, Equatable {
        public var oldModel: String
        public var newModel: String
        /// The bridge-only to-one from an old object to its copy.
        public var copyLink: String
        /// The new model's init arguments (its required attributes), then the stored values set after.
        public var arguments: [CopiedValue]
        public var values: [CopiedValue]
        public var summary: String

        /// One value of the copy: `target` on the new object from `source` on the old one, through
        /// `conversion` when the step converts it.
        public struct CopiedValue: Sendable, Equatable {
            public var target: String
            public var source: String
            public var conversion: ValueConversion?
        }

        /// `from: { convert: … }` on a renamed model, applied as the value is copied.
        public struct ValueConversion: Sendable, Equatable {
            public var name: String
            public var sourceType: String
            public var targetType: String
            public var expression: String
        }
    }

    /// Sets relationships that lead to renamed models' copies (and the copies' own), from the
    /// links the old objects hold: recomputed whole on every run, so a second run changes nothing.
    public struct Relink: Sendable, Equatable {
        /// The model walked, as the bridge names it (the old model).
        public var model: String
        /// For a renamed model, the link to each object's copy, whose relationships are set.
        public var copyLink: String?
        public var links: [MovedLink]
        public var summary: String

        /// `target` set from the old relationship `source`, each related object replaced by its
        /// copy when `through` (the destination's copy link) is given.
        public struct MovedLink: Sendable, Equatable {
            public var target: String
            public var source: String
            public var isToMany: Bool
            public var sourceIsOptional: Bool
            public var through: String?
        }
    }

    /// A function the team writes in its own file.
    public struct Hook: Sendable, Equatable {
        public var name: String
        public var summary: String
    }

    /// Objects a generated migration function walks and saves at a time.
    public static let batchSize = 5000

    public enum Action: Sendable, Equatable {
        case convert(Conversion)
        case link(Link)
        case deduplicate(Deduplication)
        case copy(ModelCopy)
        case relink(Relink)
        case hook(Hook)

        public var hook: Hook? {
            if case .hook(let hook) = self { return hook }
            return nil
        }

        /// What the generator writes for this action, for reports; nil for hooks the team writes.
        public var generatedSummary: String? {
            switch self {
            case .convert(let c): return c.summary
            case .link(let l): return l.summary
            case .deduplicate(let d): return d.summary
            case .copy(let c): return c.summary
            case .relink(let r): return r.summary
            case .hook: return nil
            }
        }

        /// How the action walks a store's rows, in `phase`, for reports: a team with a large store
        /// sees the cost, and where a launch ended part way leaves it, before it ships.
        public func rowWalk(in phase: String) -> String {
            let batches = "\(MigrationPlan.batchSize) at a time, saving each batch (time grows with the rows"
            switch self {
            case .convert(let c):
                return "\(label): walks every \(c.model) once in \(phase), \(batches), memory with the batch); "
                    + "a launch ended part way is finished by the next, which skips rows already converted"
            case .link(let l):
                return "\(label): walks every \(l.targetModel), then every \(l.model) once in \(phase), \(batches), "
                    + "memory with the batch and one \(l.targetModel) per distinct \(l.source)); a launch ended "
                    + "part way is finished by the next, which skips rows already linked"
            case .deduplicate(let d):
                let order =
                    d.keyOrder == nil
                    ? "by \(d.orderBy)" : "by (\((d.keys + [d.orderBy]).joined(separator: ", ")))"
                let memory = d.keyOrder == nil ? "one key per kept \(d.model)" : "the key before"
                return "\(label): walks every \(d.model) once \(order) in \(phase), \(batches), memory with "
                    + "the batch and \(memory)); a launch ended part way is finished by the next"
            case .copy(let c):
                return "\(label): walks every \(c.oldModel) once in \(phase), \(batches), memory with the batch); "
                    + "a launch ended part way is finished by the next, which skips \(c.oldModel) objects already "
                    + "copied"
            case .relink(let r):
                return "\(label): walks every \(r.model) once in \(phase), \(batches), memory with the batch); a "
                    + "launch ended part way is finished by the next, which sets the same links again"
            case .hook(let h):
                return phase == "didMigrate"
                    ? "hook \(h.name): your code, in didMigrate, which is not run again when a launch ends inside it "
                        + "or it throws; work whose loss loses data belongs in willMigrate, done so it can run twice"
                    : "hook \(h.name): your code, in willMigrate, which runs again when a launch ends inside it: "
                        + "write it so a second run finishes what the first left"
            }
        }

        /// A few words for reports: `convert Book.price`.
        public var label: String {
            switch self {
            case .convert(let c): return "convert \(c.model).\(c.property)"
            case .link(let l): return "link \(l.model).\(l.property)"
            case .deduplicate(let d): return "dedupe \(d.model) by (\(d.keys.joined(separator: ", ")))"
            case .copy(let c): return "copy \(c.oldModel) into \(c.newModel)"
            case .relink(let r): return "relink \(r.model) (\(r.links.map(\.target).joined(separator: ", ")))"
            case .hook(let h): return "hook \(h.name)"
            }
        }
    }

    public enum Stage: Sendable, Equatable {
        case lightweight(from: SchemaReference, to: SchemaReference)
        case custom(from: SchemaReference, to: SchemaReference, willMigrate: [Action], didMigrate: [Action])

        public var from: SchemaReference {
            switch self {
            case .lightweight(let from, _), .custom(let from, _, _, _): return from
            }
        }

        public var to: SchemaReference {
            switch self {
            case .lightweight(_, let to), .custom(_, let to, _, _): return to
            }
        }

        /// What each action of the stage walks, willMigrate's then didMigrate's.
        public var rowWalks: [String] {
            guard case .custom(_, _, let will, let did) = self else { return [] }
            return will.map { $0.rowWalk(in: "willMigrate") } + did.map { $0.rowWalk(in: "didMigrate") }
        }

        /// willMigrate then didMigrate actions; none for a lightweight stage.
        public var actions: [Action] {
            if case .custom(_, _, let will, let did) = self { return will + did }
            return []
        }
    }

    public struct Step: Sendable {
        public var from: SemanticVersion
        public var to: SemanticVersion
        public var changes: [SchemaChange]
        /// `changes` in words, with what happens to removed data.
        public var changeDescriptions: [String]
        public var stages: [Stage]
        /// Data-loss warnings, in the words of the diagnostics.
        public var warnings: [String]
        /// What the team must write by hand (hook functions).
        public var teamMustWrite: [String]
        /// Hook functions that hold the app's own stage code, carried by the importer.
        public var carriedFromApp: [String] = []
    }

    /// The history's versions as the plan ships them: with any `hashModifier` that keeps their
    /// checksums apart.
    public var versions: [SchemaVersion]
    public var bridges: [Bridge]
    public var steps: [Step]
    /// Each schema's `versionChecksum` as SwiftData computes it, modifiers included: what a
    /// store's metadata holds once it is at that schema.
    public var checksums: [SchemaReference: String] = [:]
    /// The checksum where SwiftData pairs undeclared inverses itself, for the schemas where that
    /// differs (`StoreIdentity.pairedReading`).
    public var pairedChecksums: [SchemaReference: String] = [:]
    /// Each schema's entity version hashes (entity name → 64 hexadecimal digits), as a store's
    /// metadata holds them once decoded; and those where SwiftData pairs undeclared inverses, where
    /// that reading differs.
    public var entityHashes: [SchemaReference: [String: String]] = [:]
    public var pairedEntityHashes: [SchemaReference: [String: String]] = [:]
    /// The `StorageRow`s the plan's schemas rely on that no Apple-computed hash proves yet.
    public var unprovedRows: [StorageRow] = []

    /// Every schema in migration order: each bridge sits in front of the version it leads into.
    public var schemas: [SchemaReference] {
        versions.flatMap { version in
            bridges.contains { $0.into == version.version }
                ? [.bridge(into: version.version), .version(version.version)] : [.version(version.version)]
        }
    }

    public func schema(_ reference: SchemaReference) -> SchemaVersion? {
        switch reference {
        case .version(let number): return versions.first { $0.version == number }
        case .bridge(let number): return bridges.first { $0.into == number }?.schema
        }
    }

    mutating func replace(_ reference: SchemaReference, with schema: SchemaVersion) {
        switch reference {
        case .version(let number):
            if let index = versions.firstIndex(where: { $0.version == number }) { versions[index] = schema }
        case .bridge(let number):
            if let index = bridges.firstIndex(where: { $0.into == number }) { bridges[index].schema = schema }
        }
    }

    public var hooks: [Hook] {
        steps.flatMap(\.stages).flatMap(\.actions).compactMap(\.hook)
    }
}
