/// Apple's own model of a schema as the oracle for its store identity, where SwiftData exists:
/// `NSManagedObjectModel.makeManagedObjectModel(for:)` (iOS 17, macOS 14, in SwiftData's Core Data
/// overlay) builds the Core Data model SwiftData builds from the model classes, with the entity
/// version hashes and checksum a store's metadata holds. A probe compiled with the classes prints
/// them; this type writes the probe and reads what it printed. Compiling and running it is the
/// caller's (a Mac with Xcode): the overlay's interface is in no SDK copy the project reads elsewhere.
public enum AppleOracle {
    /// What the probe printed for one schema: its `versionChecksum` and each entity's hash in hex.
    public struct Reading: Sendable, Equatable {
        public var checksum: String
        public var entities: [String: String]

        public init(checksum: String, entities: [String: String]) {
            self.checksum = checksum
            self.entities = entities
        }

        /// `checksum <base64>`, then `entity <name> <hex>` per entity; nil without a checksum (the
        /// probe found no oracle, or failed).
        public init?(probeOutput: String) {
            var checksum: String?
            var entities: [String: String] = [:]
            for line in probeOutput.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                if words.count == 2, words[0] == "checksum" { checksum = words[1] }
                if words.count == 3, words[0] == "entity" { entities[words[1]] = words[2] }
            }
            guard let checksum else { return nil }
            self.init(checksum: checksum, entities: entities)
        }
    }

    /// The exit status of a probe built where the overlay does not exist.
    public static let noOracleStatus: Int32 = 3

    /// A probe's source: `probe <index>` prints Apple's reading of the schema at `index` in
    /// `schemas` (a Swift expression of type `[any VersionedSchema.Type]`). One schema per process,
    /// since SwiftData binds a model name to the first class that claims it in a process.
    public static func probe(schemas: String) -> String {
        // The probe's imports, not the tool's: the tool never imports Foundation (BuildCostTests
        // reads every line that starts with `import`).
        let imports = ["CoreData", "Foundation", "SwiftData"].map { "import " + $0 }.joined(separator: "\n")
        return """
            \(imports)

            @main
            enum AppleOracleProbe {
                static func main() {
                    let schemas: [any VersionedSchema.Type] = \(schemas)
                    let arguments = ProcessInfo.processInfo.arguments
                    guard arguments.count == 2, let index = Int(arguments[1]), schemas.indices.contains(index) else {
                        print("usage: probe <index of a schema, 0 to \\(schemas.count - 1)>")
                        exit(2)
                    }
                    guard let model = appleModel(of: schemas[index].models) else {
                        print("no oracle: SwiftData's Core Data overlay is not in this SDK")
                        exit(\(noOracleStatus))
                    }
                    print("checksum \\(model.versionChecksum)")
                    for (name, hash) in model.entityVersionHashesByName.sorted(by: { $0.key < $1.key }) {
                        print("entity \\(name) \\(hash.map { String(format: "%02x", $0) }.joined())")
                    }
                }

                /// The one call no SDK copy type-checks: the overlay ships with Xcode only.
                static func appleModel(of models: [any PersistentModel.Type]) -> NSManagedObjectModel? {
                    #if canImport(_SwiftData_CoreData)
                        return NSManagedObjectModel.makeManagedObjectModel(for: models)
                    #else
                        return nil
                    #endif
                }
            }

            """
    }

    /// Where two readings of one schema differ, entity by entity, in words (`name` says which).
    public static func differences(_ expected: Reading, _ found: Reading, named name: String, checksums: Bool = true)
        -> [String]
    {
        var lines: [String] = []
        for entity in Set(expected.entities.keys).union(found.entities.keys).sorted() {
            let mine = expected.entities[entity]
            let theirs = found.entities[entity]
            guard mine != theirs else { continue }
            lines.append(
                "\(name) \(entity): Apple \(theirs ?? "has no such entity"), expected \(mine ?? "no such entity")")
        }
        if checksums, expected.checksum != found.checksum {
            lines.append("\(name): Apple's versionChecksum \(found.checksum), expected \(expected.checksum)")
        }
        return lines
    }

    /// Apple's reading against the plan's, for one of its schemas: the primary reading, or where
    /// SwiftData pairs undeclared inverses itself the paired one, whichever differs less; `reading`
    /// names the one used.
    public static func differences(
        _ apple: Reading, from plan: MigrationPlan, at reference: MigrationPlan.SchemaReference, named name: String
    ) -> (lines: [String], reading: String) {
        let primary = Reading(
            checksum: plan.checksums[reference] ?? "", entities: plan.entityHashes[reference] ?? [:])
        let paired = Reading(
            checksum: plan.pairedChecksums[reference] ?? primary.checksum,
            entities: plan.pairedEntityHashes[reference] ?? primary.entities)
        let first = differences(primary, apple, named: name)
        let second = differences(paired, apple, named: name)
        return second.count < first.count ? (second, "paired") : (first, "primary")
    }
}
