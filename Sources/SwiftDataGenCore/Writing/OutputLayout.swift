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
        return prefix + stem.replacingOccurrences(of: "/", with: "_") + ".swift"
    }

    /// The files renamed (and for `inputs`, merged); an error when two would get the same name.
    public func arrange(_ files: [GeneratedFile]) -> (files: [GeneratedFile], diagnostics: [Diagnostic]) {
        let arranged = renamed(files)
        var seen: Set<String> = []
        var diagnostics: [Diagnostic] = []
        for file in arranged where !seen.insert(file.name).inserted {
            diagnostics.append(.error(
                .outputNameCollision, "two generated files would both be named '\(file.name)'; rename one of the schema files so their paths differ by more than '/' versus '_'",
                at: nil))
        }
        return (diagnostics.isEmpty ? arranged : [], diagnostics)
    }

    private func renamed(_ files: [GeneratedFile]) -> [GeneratedFile] {
        switch self {
        case .schemas:
            return files
        case .inputs:
            var arranged: [GeneratedFile] = []
            var aliases: [String] = []
            var plans: [String] = []
            for file in files {
                switch file.role {
                case .version(let input):
                    arranged.append(GeneratedFile(name: Self.fileName(forInput: input), contents: file.contents, role: file.role))
                case .currentAliases: aliases.append(file.contents)
                case .migrationPlan, .bridge: plans.append(file.contents)
                case .hooksScaffold, .upgradeTest: continue
                }
            }
            if !aliases.isEmpty {
                arranged.append(GeneratedFile(name: Self.aliasesFileName, contents: aliases.joined(separator: "\n"), role: .currentAliases(schema: "*")))
                arranged.append(GeneratedFile(name: Self.plansFileName, contents: plans.joined(separator: "\n"), role: .migrationPlan(schema: "*")))
            }
            return arranged
        }
    }
}
