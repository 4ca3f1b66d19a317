import Foundation
import SwiftDataGenCore

/// What `swiftdata-gen-import store` prints: the store's entities and columns, its metadata, and,
/// with a history, which version it holds and what the plan runs on it. Text for people, JSON
/// (sorted keys) for scripts.
public struct StoreReport: Sendable {
    public var contents: StoreContents
    public var shape: StoreShape
    public var match: StoreMatch?

    public init(_ contents: StoreContents, histories: [SchemaHistory]?) {
        self.contents = contents
        shape = StoreShape(contents)
        match = histories.map {
            StoreMatch(shape, model: contents.model, histories: $0, versionHashes: contents.metadata.versionHashes)
        }
    }

    /// `Z_PRIMARYKEY`'s rows without persistent history's entities.
    var modelEntities: [StoreContents.EntityRow] {
        let history = StoreShape.historyEntities(contents)
        return contents.entities.filter { !history.contains($0.name) }
    }

    /// `Z_PRIMARYKEY`'s rows by entity name (the first of a name) and by number, looked up rather
    /// than searched, so a store of many tables reads in one pass.
    private var rowsByName: [String: StoreContents.EntityRow] {
        Dictionary(contents.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private var rowsByNumber: [Int: StoreContents.EntityRow] {
        Dictionary(contents.entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private var modelLine: String {
        guard let model = contents.model else {
            return contents.modelCacheUnreadable
                ? "Z_MODELCACHE holds no model this tool can read: compared by stored shape only"
                : "no model kept in the store (Core Data before iOS 11): compared by stored shape only"
        }
        return "the store keeps its model (Z_MODELCACHE): \(model.entities.count) entities with their properties' "
            + "names, types and optionality"
    }

    private var metadataLine: String {
        let metadata = contents.metadata
        let identifiers = metadata.versionIdentifiers.filter { !$0.isEmpty }
        return "Core Data metadata: \(metadata.storeType ?? "no store type"), framework version "
            + "\(metadata.frameworkVersion.map(String.init) ?? "?"), \(metadata.versionHashes.count) entity version "
            + "hash(es), model version identifiers: "
            + (identifiers.isEmpty ? "none" : identifiers.joined(separator: ", "))
    }

    /// Entities the metadata hashes that `Z_PRIMARYKEY` does not list, or the reverse: a store
    /// Core Data wrote has the same names in both.
    var metadataDisagreements: [String] {
        let hashed = Set(contents.metadata.versionHashes.keys)
        let listed = Set(modelEntities.map(\.name))
        return hashed.symmetricDifference(listed).sorted().map { name in
            hashed.contains(name)
                ? "the metadata hashes \(name), which Z_PRIMARYKEY does not list"
                : "Z_PRIMARYKEY lists \(name), which the metadata does not hash"
        }
    }

    /// A name or value from the store, as printed for a person.
    private func shown(_ text: String) -> String { TerminalText.shown(text) }

    public var text: String {
        var lines = ["store: \(shown(contents.path))", "  " + metadataLine, "  " + modelLine]
        for disagreement in metadataDisagreements { lines.append("  warning: \(shown(disagreement))") }
        lines.append("  entities (\(modelEntities.count)), by table:")
        let byName = rowsByName
        for table in shape.tables {
            let rows = table.entities.compactMap { byName[$0] }.sorted { $0.number < $1.number }
            let keys = rows.map { "\(shown($0.name)) \($0.largestKey)" }.joined(separator: ", ")
            lines.append(
                "    \(shown(table.name)): \(table.entities.map(shown).joined(separator: ", ")) (largest keys: \(keys))"
            )
            for (column, type) in table.columns.sorted(by: { $0.key < $1.key }) {
                lines.append("      \(shown(column)) \(shown(type.description))")
            }
        }
        for join in shape.joinTables.flatMap({ $0 }).sorted() {
            lines.append("    a join table for the many-to-many \(shown(join))")
        }
        for table in StoreShape.unclaimedTables(contents, shape: shape) {
            lines.append("    \(table): a table no entity claims")
        }
        guard let match else {
            lines.append("no history given: name the schema folder with --schema to see which version this is")
            return lines.map { TerminalText.shown($0, limit: 1_000) }.joined(separator: "\n") + "\n"
        }
        if let at = match.identityMatched.first {
            lines.append(
                "this store is at \(at.schema) \(at.label): "
                    + (at.equalHashes == 1
                        ? "its one entity version hash equals" : "all \(at.equalHashes) entity version hashes equal")
                    + " its metadata's (NSStoreModelVersionHashes), which is how SwiftData knows it"
                    + (at.byPairedReading
                        ? "; with the relationships that declare no inverse paired, as SwiftData of 2024 paired them "
                            + "(iOS 26.5 computes them unpaired: open such a store on the newest OS before shipping)"
                        : ""))
        } else if let nearest = match.nearestByIdentity {
            lines.append(
                "no schema of the plan has the store's entity version hashes, so SwiftData will not open it with "
                    + "this plan; nearest by hashes: \(nearest.schema) \(nearest.label) (\(nearest.equalHashes) "
                    + "equal), where:")
            lines += (nearest.hashDifferences ?? []).map { "  - \($0)" }
        }
        let matched = match.matched
        if matched.isEmpty, let at = match.identityMatched.first {
            lines.append(
                "its tables are not the ones \(at.schema) \(at.label) would create (SwiftData opens it by its hashes "
                    + "and does not check them, so it reads them as they are):")
            lines += at.differences.map { "  - \($0)" }
        } else if matched.isEmpty, let nearest = match.nearest {
            lines.append(
                "matches no version of the history; SwiftData will not open it with this "
                    + "plan (\"Cannot use staged migration with an unknown model version\"). Nearest: "
                    + "\(nearest.schema) \(nearest.label), which differs in:")
            lines += nearest.differences.map { "  - \($0)" }
        } else if matched.isEmpty {
            lines.append("the history has no versions to compare with")
        } else {
            let names = matched.map { "\($0.schema) \($0.label)" }.joined(separator: ", ")
            lines.append(
                "matches \(names) by its stored shape (tables, columns and their types, unique indexes)"
                    + (contents.model == nil ? "" : " and by the model it keeps")
                    + (matched.count > 1
                        ? "; these differ only in what neither keeps (defaults, delete rules, hash modifiers, "
                            + "indexes), which the entity version hashes decide"
                        : ""))
            if matched.contains(where: \.isBridge) {
                lines.append(
                    "a store holds a bridge schema only when a migration stopped after the bridge's own stage had "
                        + "run: opening it runs the rest of that step")
            }
            if match.steps.isEmpty {
                lines.append("the plan runs nothing on it: it is at the latest version")
            } else {
                lines.append("the plan runs on it, in order:")
                for step in match.steps {
                    lines.append("  \(step.schema) \(step.from) → \(step.to):")
                    lines += step.stages.map { "    \($0)" }
                    lines += step.dataLoss.map { "    data loss: \($0)" }
                }
            }
        }
        return lines.map { TerminalText.shown($0, limit: 1_000) }.joined(separator: "\n") + "\n"
    }

    /// The report as `store --json` prints it, in the tools' one JSON layout.
    public var json: String {
        func comparison(_ c: StoreMatch.Comparison) -> JSONValue {
            .fields([
                "schema": .string(c.schema), "version": .string("\(c.version)"), "bridge": .bool(c.isBridge),
                "differences": .strings(c.differences), "hashDifferences": c.hashDifferences.map(JSONValue.strings),
            ])
        }
        let tables = shape.tables.map { table in
            JSONValue.fields([
                "name": .string(table.name), "entities": .strings(table.entities),
                "columns": .object(table.columns.mapValues { .string($0.description) }),
            ])
        }
        let steps = match.map {
            $0.steps.map { step in
                JSONValue.fields([
                    "schema": .string(step.schema), "from": .string(step.from), "to": .string(step.to),
                    "stages": .strings(step.stages), "dataLoss": .strings(step.dataLoss),
                ])
            }
        }
        return JSONValue.fields([
            "store": .string(contents.path), "storeType": contents.metadata.storeType.map(JSONValue.string),
            "frameworkVersion": contents.metadata.frameworkVersion.map(JSONValue.integer),
            "versionHashes": .object(contents.metadata.versionHashes.mapValues { .string(VersionHashText.hex($0)) }),
            "versionIdentifiers": .strings(contents.metadata.versionIdentifiers),
            "warnings": .strings(metadataDisagreements), "tables": .array(tables),
            "joinTables": .strings(shape.joinTables.flatMap { $0 }.sorted()),
            "unclaimedTables": .strings(StoreShape.unclaimedTables(contents, shape: shape)),
            "matched": match.map { .array($0.matched.map(comparison)) },
            "identityMatched": match.map { .array($0.identityMatched.map(comparison)) },
            "nearest": match?.nearest.map(comparison), "steps": steps.map(JSONValue.array),
        ]).document
    }

    /// The store as a first version of a history, for an app that no longer has the models it
    /// shipped: from the model the store keeps, with its names, types and optionality, where it
    /// has one; otherwise from its columns, whose names SQLite keeps in capitals only, so each
    /// name and type must then be checked against the app before the history is used.
    public func versionYAML(schema: String) -> String {
        let notes =
            contents.model == nil
            ? [
                "# The store keeps no model, and SQLite keeps no case, optionality, default or Swift type: spell",
                "# each property as the shipped model does (startDate, not startdate), and fix types and optionals",
                "# before generating from it; a name spelled otherwise is another property, and its data is lost.",
            ]
            : [
                "# From the model the store keeps: defaults, delete rules and Codable types are not in it, and",
                "# transformable or composite attributes are written as Data; check those against the app.",
            ]
        var lines =
            [
                YAMLText.comment(
                    "Written by swiftdata-gen-import from the store "
                        + "\(URL(fileURLWithPath: contents.path).lastPathComponent)."
                )
            ]
            + notes + ["schema: \(YAMLText.scalar(schema))", "version: 1.0.0", "models:"]
        guard let model = contents.model else { return (lines + columnDraft).joined(separator: "\n") + "\n" }
        for entity in model.entities {
            lines.append("  \(YAMLText.scalar(entity.name)):")
            if let parent = entity.superentity { lines.append("    superclass: \(YAMLText.scalar(parent))") }
            let groups = entity.uniqueness.map { "[" + $0.map(YAMLText.scalar).joined(separator: ", ") + "]" }
            if !groups.isEmpty { lines.append("    unique: [\(groups.joined(separator: ", "))]") }
            let own = entity.attributes.count + entity.relationships.count
            lines.append(own == 0 ? "    properties: {}" : "    properties:")
            for attribute in entity.attributes {
                let type =
                    (UInt32(exactly: attribute.type).flatMap(CoreDataAttributeType.init(rawValue:))?.swiftType ?? "Data")
                    + (attribute.isOptional ? "?" : "")
                lines.append("      \(YAMLText.scalar(attribute.name)): \(type)")
            }
            for relationship in entity.relationships {
                let type = relationship.isToMany ? "[\(relationship.destination)]" : "\(relationship.destination)?"
                let inverse = relationship.inverse.map { ", inverse: \(YAMLText.scalar($0))" } ?? ""
                lines.append(
                    "      \(YAMLText.scalar(relationship.name)): { type: \(YAMLText.quoted(type))\(inverse) }")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The models from the tables alone, for a store that keeps no model.
    private var columnDraft: [String] {
        var lines: [String] = []
        let entityNames = Set(modelEntities.map(\.name))
        let (byName, byNumber) = (rowsByName, rowsByNumber)
        for table in shape.tables {
            for entity in table.entities where entityNames.contains(entity) {
                let row = byName[entity]
                let parent = row.flatMap { byNumber[$0.superentity] }
                lines.append("  \(YAMLText.scalar(entity)):")
                if let parent { lines.append("    superclass: \(YAMLText.scalar(parent.name))") }
                // A subentity's columns are its root's table's: they are listed on the root only.
                guard parent == nil, !table.columns.isEmpty else {
                    lines.append("    properties: {}")
                    continue
                }
                lines.append("    properties:")
                for (column, type) in table.columns.sorted(by: { $0.key < $1.key }) {
                    let name = String(column.dropFirst()).lowercased()
                    lines.append(
                        "      \(YAMLText.scalar(name)): \(Self.swiftType(type))  "
                            + "\(YAMLText.comment("\(column) \(type)"))"
                    )
                }
            }
        }
        return lines
    }

    static func swiftType(_ type: StoreShape.ColumnType) -> String {
        switch type {
        case .text: return "String?"
        case .integer: return "Int?"
        case .float: return "Double?"
        case .decimal: return "Decimal?"
        case .timestamp: return "Date?"
        case .blob, .composite, .other: return "Data?"
        case .reference: return "Int?"
        }
    }
}
