import SwiftDataGenDSL

/// Decodes YAML nodes into the DSL's AST. Strict: unknown keys, wrong kinds and loose booleans are
/// errors, and every problem in a file is reported in one run.
public enum DSLDecoder {
    /// Bounds on what one schema may declare: far above real apps, low enough that hostile
    /// input cannot make a build slow.
    public enum Limits {
        public static let versions = 500
        public static let modelsPerVersion = 2_000
        public static let propertiesPerModel = 1_000
        public static let enumCases = 5_000
        /// Each subclass's initializer repeats every ancestor's parameters, so output grows with
        /// the square of a chain's depth; real hierarchies are a few levels deep.
        public static let inheritanceDepth = 64
    }

    public enum Keys {
        public static let config = ConfigKey.allCases.map(\.rawValue)
        public static let naming = NamingKey.allCases.map(\.rawValue)
        public static let version = VersionKey.allCases.map(\.rawValue)
        public static let enumeration = EnumKey.allCases.map(\.rawValue)
        public static let model = ModelKey.allCases.map(\.rawValue)
        public static let dedupe = DedupeKey.allCases.map(\.rawValue)
        public static let property = PropertyKey.allCases.map(\.rawValue)
        public static let conversion = ConversionKey.allCases.map(\.rawValue)
    }

    /// `none`: an enum without raw values, stored through its `Codable` conformance.
    public static let enumRawTypes = ["String", "Int", "none"]

    public static func decodeConfig(_ node: YAMLNode, file: String) -> (ConfigFile, [Diagnostic]) {
        var reader = NodeReader()
        var config = ConfigFile(file: file)
        if case .scalar(let s) = node.content, s.isNull { return (config, []) }
        guard let entries = reader.mapping(node, what: "the config file", allowedKeys: Keys.config) else {
            return (config, reader.diagnostics)
        }
        // Each key by its own case: a key added to ConfigKey does not compile until it is read.
        for key in ConfigKey.allCases {
            guard let value = entries[key]?.value else { continue }
            switch key {
            case .platforms: decodePlatforms(value, into: &config, &reader)
            case .cloudKit: decodeCloudKit(value, into: &config, &reader)
            case .access:
                if let access = reader.choice(value, what: "access level", as: AccessLevel.self) {
                    config.access = access.value
                }
            case .naming: decodeNaming(value, into: &config.naming, &reader)
            }
        }
        return (config, reader.diagnostics)
    }

    private static func decodePlatforms(_ node: YAMLNode, into config: inout ConfigFile, _ reader: inout NodeReader) {
        guard let pairs = reader.mapping(node, what: "platforms", allowedKeys: Platform.allCases.map(\.rawValue))
        else { return }
        for platform in Platform.allCases {
            guard let value = pairs[platform]?.value,
                let text = reader.string(value, what: "a \(platform.rawValue) version")
            else { continue }
            if let version = SemanticVersion(parsing: text.value) {
                config.platforms[platform] = Located(version, at: text.location)
            } else {
                reader.diagnostics.append(
                    .error(
                        .invalidVersion, "'\(text.value)' is not a platform version; write it like 17 or 17.4",
                        at: text.location))
            }
        }
    }

    /// `true`, `false` or `{ from: <version> }`.
    private static func decodeCloudKit(_ node: YAMLNode, into config: inout ConfigFile, _ reader: inout NodeReader) {
        if node.scalar != nil {
            if let flag = reader.bool(node, what: "cloudKit (true, false or { from: <version> })") {
                config.cloudKit = flag.value ? .everyVersion : .off
            }
            return
        }
        guard let pairs = reader.mapping(node, what: "cloudKit", allowedKeys: ["from"]),
            let from = reader.require(pairs, "from", in: "cloudKit", at: node.location),
            let text = reader.string(from, what: "cloudKit.from")
        else { return }
        if let version = SemanticVersion(parsing: text.value) {
            config.cloudKit = .from(version)
            config.cloudKitLocation = text.location
        } else {
            reader.diagnostics.append(
                .error(
                    .invalidVersion,
                    "cloudKit.from '\(text.value)' is not a version; name the first version that syncs, "
                        + "such as 10.0.0",
                    at: text.location))
        }
    }

    private static func decodeNaming(_ node: YAMLNode, into naming: inout NamingConfig, _ reader: inout NodeReader) {
        guard let pairs = reader.mapping(node, what: "naming", allowedKeys: Keys.naming) else { return }
        for key in NamingKey.allCases {
            guard let node = pairs[key]?.value else { continue }
            // An app's own names may have no suffix at all: `SchemaV1`.
            if key == .schemaSuffix, case .scalar(let scalar) = node.content, scalar.value.isEmpty {
                naming.schemaSuffix = ""
                continue
            }
            guard let name = reader.identifier(node, what: "naming.\(key.rawValue)")?.value else { continue }
            switch key {
            case .schemaSuffix: naming.schemaSuffix = name
            case .versionPrefix: naming.versionPrefix = name
            case .migrationPlanSuffix: naming.migrationPlanSuffix = name
            case .rawValueSuffix: naming.rawValueSuffix = name
            case .currentSchema: naming.currentSchema = name
            case .migrationPlan: naming.migrationPlan = name
            }
        }
    }

    public static func decodeVersion(_ node: YAMLNode, file: String) -> (VersionFile?, [Diagnostic]) {
        var reader = NodeReader()
        guard let entries = reader.mapping(node, what: "a schema version file", allowedKeys: Keys.version) else {
            return (nil, reader.diagnostics)
        }
        let schema = reader.require(entries, VersionKey.schema.rawValue, in: "a schema version file", at: node.location)
            .flatMap { reader.identifier($0, what: "schema name") }
        var version: Located<SemanticVersion>?
        if let versionNode = reader.require(
            entries, VersionKey.version.rawValue, in: "a schema version file", at: node.location),
            let text = reader.string(versionNode, what: "version")
        {
            if let parsed = SemanticVersion(parsing: text.value) {
                version = Located(parsed, at: text.location)
            } else {
                reader.diagnostics.append(
                    .error(
                        .invalidVersion, "'\(text.value)' is not a version; write major.minor.patch, such as 1.0.0",
                        at: text.location))
            }
        }
        let enumPairs = entries[VersionKey.enums].map { reader.namedEntries($0.value, what: "enums") } ?? []
        let modelPairs = entries[VersionKey.models].map { reader.namedEntries($0.value, what: "models") } ?? []
        if let node = entries[VersionKey.models]?.value,
            !reader.withinLimit(modelPairs.count, Limits.modelsPerVersion, "models in one version", at: node.location)
        {
            return (nil, reader.diagnostics)
        }
        if modelPairs.isEmpty, let versionNode = entries[VersionKey.version]?.value {
            reader.diagnostics.append(
                .error(
                    .invalidValue, "this version declares no models; a schema needs at least one",
                    at: versionNode.location))
        }
        let enums = enumPairs.compactMap { decodeEnum($0, &reader) }
        let structs = (entries[VersionKey.structs].map { reader.namedEntries($0.value, what: "structs") } ?? [])
            .compactMap {
                decodeStruct($0, &reader)
            }
        let models = modelPairs.compactMap { decodeModel($0, &reader) }
        var removals: [Located<String>] = []
        if let node = entries[VersionKey.acknowledgedRemovals]?.value,
            let items = reader.list(node, what: "acknowledgedRemovals")
        {
            for item in items {
                guard let text = reader.string(item, what: "an acknowledged removal") else { continue }
                let parts = text.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard (1...2).contains(parts.count), parts.allSatisfy(Identifier.isValid) else {
                    reader.diagnostics.append(
                        .error(.invalidValue, "'\(text.value)' is not Model or Model.property", at: text.location))
                    continue
                }
                removals.append(text)
            }
        }
        let customMigration = entries[VersionKey.customMigration].flatMap {
            reader.bool($0.value, what: "customMigration")
        }
        let carriedFrom = entries[VersionKey.carriedFrom].flatMap { reader.string($0.value, what: "carriedFrom") }
        let typeName = entries[VersionKey.typeName].flatMap { reader.identifier($0.value, what: "typeName") }
        guard let schema, let version else { return (nil, reader.diagnostics) }
        var result = VersionFile(file: file, schema: schema, version: version, enums: enums, models: models)
        result.acknowledgedRemovals = removals
        result.customMigration = customMigration
        result.carriedFrom = carriedFrom
        result.typeName = typeName
        result.structs = structs
        return (result, reader.diagnostics)
    }

    /// `Name: { field: Type, … }`: a struct's fields in order.
    private static func decodeModel(_ pair: YAMLPair, _ reader: inout NodeReader) -> ModelAST? {
        guard let name = reader.identifier(pair.key, what: "model name") else { return nil }
        let what = "model '\(name.value)'"
        guard let entries = reader.mapping(pair.value, what: what, allowedKeys: Keys.model) else { return nil }
        var model = ModelAST(name: name)
        // Each key by its own case: a key added to ModelKey does not compile until it is read.
        for key in ModelKey.allCases {
            guard let entry = entries[key] else { continue }
            switch key {
            case .properties: break  // last, once the model's own keys are read
            case .unique: model.unique = keyPathGroups(entry.value, what: "unique", &reader)
            case .indexes: model.indexes = keyPathGroups(entry.value, what: "indexes", &reader)
            case .dedupe: model.dedupe = decodeDedupe(entry.value, &reader)
            case .renamedFrom: model.renamedFrom = reader.identifier(entry.value, what: "renamedFrom")
            case .superclass: model.superclass = reader.identifier(entry.value, what: "superclass name")
            case .doc: model.doc = reader.string(entry.value, what: "doc")?.value
            }
        }
        if let node = reader.require(entries, ModelKey.properties.rawValue, in: what, at: pair.value.location) {
            let pairs = reader.namedEntries(node, what: "properties")
            guard
                reader.withinLimit(
                    pairs.count, Limits.propertiesPerModel, "properties in model \(name.value)", at: node.location)
            else { return nil }
            // Sized once: a grown array keeps up to twice the room, for as long as the AST lives.
            model.properties.reserveCapacity(pairs.count)
            for pair in pairs {
                if let property = decodeProperty(pair, &reader) { model.properties.append(property) }
            }
        }
        return model
    }

    /// `{ keep: first | last, orderBy: property, nilKeys: distinct | equal }`.
    private static func decodeDedupe(_ node: YAMLNode, _ reader: inout NodeReader) -> DedupeAST? {
        guard let fields = reader.mapping(node, what: "dedupe", allowedKeys: Keys.dedupe) else { return nil }
        var keep: Located<Bool>?
        var orderBy: Located<String>?
        var nilKeys: Located<Bool>?
        // Each key by its own case: a key added to DedupeKey does not compile until it is read.
        for key in DedupeKey.allCases {
            switch key {
            case .keep:
                keep = reader.require(fields, key, in: "dedupe", at: node.location).flatMap {
                    twoWords($0, what: "dedupe.keep", false: "first", true: "last", &reader)
                }
            case .orderBy:
                orderBy = reader.require(fields, key, in: "dedupe", at: node.location).flatMap {
                    reader.identifier($0, what: "dedupe.orderBy")
                }
            case .nilKeys:
                nilKeys = fields[key].flatMap {
                    twoWords($0.value, what: "dedupe.nilKeys", false: "distinct", true: "equal", &reader)
                }
            }
        }
        guard let keep, let orderBy else { return nil }
        return DedupeAST(keepLast: keep, orderBy: orderBy, nilKeysAreEqual: nilKeys)
    }

    /// One of two words, read as false and true: `first | last`, `distinct | equal`.
    private static func twoWords(
        _ node: YAMLNode, what: String, false no: String, true yes: String, _ reader: inout NodeReader
    ) -> Located<Bool>? {
        guard let text = reader.string(node, what: what) else { return nil }
        guard text.value == no || text.value == yes else {
            reader.diagnostics.append(
                .error(.invalidValue, "\(what) is \(no) or \(yes), not '\(text.value)'", at: text.location))
            return nil
        }
        return Located(text.value == yes, at: text.location)
    }

    /// `[[a], [b, c]]`; a bare name stands for a group of one.
    private static func keyPathGroups(_ node: YAMLNode, what: String, _ reader: inout NodeReader) -> [Located<
        [Located<String>]
    >] {
        guard let items = reader.list(node, what: what) else { return [] }
        return items.compactMap { item in
            if case .sequence(let names) = item.content {
                let group = names.compactMap { reader.identifier($0, what: "property name in \(what)") }
                if names.isEmpty {
                    reader.diagnostics.append(
                        .error(
                            .invalidValue, "an empty group in \(what) constrains nothing; list at least one property",
                            at: item.location))
                }
                return group.count == names.count && !group.isEmpty ? Located(group, at: item.location) : nil
            }
            return reader.identifier(item, what: "property name in \(what)").map { Located([$0], at: item.location) }
        }
    }

    private static func decodeProperty(_ pair: YAMLPair, _ reader: inout NodeReader) -> PropertyAST? {
        guard let name = reader.identifier(pair.key, what: "property name") else { return nil }
        if case .scalar = pair.value.content {
            guard let type = typeSpelling(pair.value, &reader) else { return nil }
            return PropertyAST(name: name, type: type)
        }
        var what: String { "property '\(name.value)'" }
        if case .sequence = pair.value.content {
            reader.diagnostics.append(
                .error(
                    .wrongNodeKind,
                    "\(what) is written as a YAML list; to give an array type such as [String], quote it: \"[String]\"",
                    at: pair.value.location))
            return nil
        }
        guard let entries = reader.mapping(pair.value, what: what, allowedKeys: Keys.property),
            let typeNode = reader.require(entries, PropertyKey.type, in: what, at: pair.value.location),
            let type = typeSpelling(typeNode, &reader)
        else { return nil }
        var property = PropertyAST(name: name, type: type)
        property.written.reserveCapacity(entries.pairs.count)
        for key in PropertyKey.allCases {
            guard let entry = entries[key] else { continue }
            // The type is read above, where it is required: not parsed a second time.
            let value =
                key == .type
                ? typeNode.scalar.map { Located(.text($0.value), at: type.location) }
                : decodeValue(of: key, entry, &reader)
            property.written.append(.init(key: key, keyLocation: entry.key.location, value: value))
        }
        return property
    }

    /// Reads a key's value as its declared kind, so that a key of an existing kind needs no code here.
    private static func decodeValue(of key: PropertyKey, _ entry: YAMLPair, _ reader: inout NodeReader)
        -> Located<KeyValue>?
    {
        let node = entry.value
        func text(_ located: Located<String>?) -> Located<KeyValue>? {
            located.map { Located(.text($0.value), at: $0.location) }
        }
        switch key.value {
        case .typeSpelling:
            return typeSpelling(node, &reader).map { Located(.text($0.value.description), at: $0.location) }
        case .literal: return Located(.literal(node), at: node.location)
        case .swiftCode, .text: return text(reader.string(node, what: key.rawValue))
        case .nonEmptyText(let purpose):
            guard let written = reader.string(node, what: key.rawValue) else { return nil }
            guard !written.value.isEmpty else {
                reader.diagnostics.append(
                    .error(.invalidValue, "\(key.rawValue) is empty; write \(purpose)", at: written.location))
                return nil
            }
            return text(written)
        case .identifier(let called): return text(reader.identifier(node, what: called))
        case .flag, .option:
            return reader.bool(node, what: key.rawValue).map { Located(.flag($0.value), at: $0.location) }
        case .count:
            return reader.integer(node, what: key.rawValue, range: 0...Int(Int32.max)).map {
                Located(.integer($0.value), at: $0.location)
            }
        case .choice(let options, let called): return text(reader.choice(node, what: called, options: options))
        case .conversion: return decodeConversion(entry, &reader).map { Located(.conversion($0), at: $0.location) }
        case .inverse: return decodeInverse(node, &reader)
        }
    }

    /// `inverse: name`, or `false` for a relationship one-way on purpose.
    private static func decodeInverse(_ node: YAMLNode, _ reader: inout NodeReader) -> Located<KeyValue>? {
        if let scalar = node.scalar, scalar.isPlain, scalar.value == "false" {
            return Located(.oneWay, at: node.location)
        } else if let scalar = node.scalar, scalar.isPlain, scalar.value == "true" {
            reader.diagnostics.append(
                .error(
                    .invalidValue,
                    "inverse: true names no property; write the property of the related model that points back, "
                        + "or false for a relationship one-way on purpose",
                    at: node.location))
            return nil
        }
        return reader.identifier(node, what: "inverse property name").map { Located(.text($0.value), at: $0.location) }
    }

    /// `from: { property:, convert: | match: }`.
    private static func decodeConversion(_ entry: YAMLPair, _ reader: inout NodeReader) -> ConversionAST? {
        guard let from = reader.mapping(entry.value, what: "from", allowedKeys: Keys.conversion) else { return nil }
        var source: Located<String>?
        var convert: Located<String>?
        var match: Located<String>?
        // Each key by its own case: a key added to ConversionKey does not compile until it is read.
        for key in ConversionKey.allCases {
            switch key {
            case .property:
                source = reader.require(from, key, in: "from", at: entry.value.location).flatMap {
                    reader.identifier($0, what: "from.property")
                }
                guard source != nil else { return nil }
            case .convert: convert = from[key].flatMap { reader.string($0.value, what: "convert") }
            case .match: match = from[key].flatMap { reader.identifier($0.value, what: "from.match") }
            }
        }
        guard let source else { return nil }
        return ConversionAST(property: source, convert: convert, match: match, location: entry.key.location)
    }

    static func typeSpelling(_ node: YAMLNode, _ reader: inout NodeReader) -> Located<TypeSpelling>? {
        guard let text = reader.string(node, what: "type") else { return nil }
        guard let spelling = TypeSpelling(parsing: text.value) else {
            reader.diagnostics.append(
                .error(
                    .invalidTypeSpelling,
                    "'\(text.value)' is not a type the DSL understands; write a name, Name?, [Name], [Name]? or "
                        + "[String: Name]?",
                    at: text.location))
            return nil
        }
        return Located(spelling, at: text.location)
    }
}
