/// How generated files are named in the output folder.
public enum OutputLayout: String, CaseIterable, Sendable {
    /// Named after what they declare: `TripsSchemaV3.swift`, `TripsSchema.swift`, `TripsMigrationPlan.swift`.
    case schemas
    /// Named after the input files, so a build system knows every output before the tool runs:
    /// `Trips/1.0.0.yaml` → `SwiftDataGen_Trips_1.0.0.swift`, plus one file of aliases and one of
    /// migration plans (with their bridge schemas) for all schemas. The build-tool plugin uses this layout.
    case inputs

    public static let prefix = "SwiftDataGen_"
    public static let aliasesFileName = prefix + "Aliases.swift"
    public static let plansFileName = prefix + "MigrationPlans.swift"

    /// `Trips/1.0.0.yaml` → `SwiftDataGen_Trips_1.0.0.swift`.
    public static func fileName(forInput relativePath: String) -> String {
        var stem = Substring(relativePath)
        if let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") { stem = stem[..<dot] }
        return prefix + String(stem.map { $0 == "/" ? "_" : $0 }) + ".swift"
    }

    /// The files renamed (and for `inputs`, merged); an error when two would get the same name.
    public func arrange(_ files: [GeneratedFile]) -> (files: [GeneratedFile], diagnostics: [Diagnostic]) {
        var arrangement = OutputArrangement(layout: self)
        var arranged = files.compactMap { arrangement.place($0) }
        arranged += arrangement.finish()
        return (arrangement.collisions.isEmpty ? arranged : [], arrangement.collisions)
    }
}

/// A layout applied to files as they are rendered, so each can be written and let go; only the
/// files `inputs` merges (aliases, plans and bridges) are held until `finish`.
public struct OutputArrangement {
    public let layout: OutputLayout
    public private(set) var collisions: [Diagnostic] = []
    private var seen: Set<String> = []
    private var aliases: [String] = []
    private var plans: [String] = []

    public init(layout: OutputLayout) {
        self.layout = layout
    }

    /// The file under its name in the folder; nil when it is held for a merged file (or, in
    /// `inputs`, is not part of the sources: hook scaffolds and upgrade tests go elsewhere).
    public mutating func place(_ file: GeneratedFile) -> GeneratedFile? {
        switch layout {
        case .schemas:
            return checked(file)
        case .inputs:
            switch file.role {
            case .version(let input):
                return checked(
                    GeneratedFile(
                        name: OutputLayout.fileName(forInput: input), contents: file.contents, role: file.role))
            case .currentAliases: aliases.append(file.contents)
            case .migrationPlan, .bridge: plans.append(file.contents)
            case .hooksScaffold, .upgradeTest, .nextVersion: break
            }
            return nil
        }
    }

    /// The merged files, after the last `place`.
    public mutating func finish() -> [GeneratedFile] {
        guard layout == .inputs, !aliases.isEmpty else { return [] }
        let merged = [
            GeneratedFile(
                name: OutputLayout.aliasesFileName, contents: aliases.joined(separator: "\n"),
                role: .currentAliases(schema: "*")),
            GeneratedFile(
                name: OutputLayout.plansFileName, contents: plans.joined(separator: "\n"),
                role: .migrationPlan(schema: "*")),
        ]
        aliases = []
        plans = []
        return merged.map { checked($0) }
    }

    private mutating func checked(_ file: GeneratedFile) -> GeneratedFile {
        if !seen.insert(file.name).inserted {
            collisions.append(
                .error(
                    .outputNameCollision,
                    "two generated files would both be named '\(file.name)'; rename one of the schema files so "
                        + "their paths differ by more than '/' versus '_'",
                    at: nil))
        }
        return file
    }
}
