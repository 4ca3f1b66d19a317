import Foundation
import SwiftDataGenCore
import SwiftParser
import SwiftSyntax

/// The app's custom stages carried into the adopted history: the version each leads to says
/// where the stage was (`carriedFrom:`, which makes its step a custom one), and a hooks file
/// holds the stage's code in the functions the generated plan calls in the same phases.
public enum CarriedStages {
    /// `Plan.swift:42`: where a stage is, as the version file and the hooks file say it.
    static func place(_ position: SourcePosition) -> String {
        "\(URL(fileURLWithPath: position.file).lastPathComponent):\(position.line)"
    }

    /// The custom stages that run code, by the qualified name of the schema each leads to. A stage
    /// the generated plan cannot run at the same step is an error at its line.
    static func byTarget(_ stages: [ImportedStage], order: [ImportedVersion], notes: inout [ImportNote])
        -> [String: ImportedStage]
    {
        let names = order.compactMap(\.qualifiedName)
        var carried: [String: ImportedStage] = [:]
        for stage in stages where stage.kind == .custom {
            guard stage.willMigrate != nil || stage.didMigrate != nil else {
                notes.append(
                    .init(
                        position: stage.location,
                        message: "the app's custom stage from \(stage.from) to \(stage.to) runs no code; its step is "
                            + "planned from the schemas alone"))
                continue
            }
            guard let target = names.firstIndex(of: stage.to), target > 0, names[target - 1] == stage.from else {
                let step = names.firstIndex(of: stage.to).flatMap { $0 > 0 ? "\(names[$0 - 1]) → \(stage.to)" : nil }
                notes.append(
                    .init(
                        position: stage.location,
                        message: "the app's custom stage goes from \(stage.from) to \(stage.to), but the versions read "
                            + "step \(step.map { "through \($0)" } ?? "to \(stage.to) from none"); the generated plan "
                            + "migrates one version at a time, so its code cannot run where the app ran it: make the "
                            + "stage go from the version just before \(stage.to), or add the versions' files",
                        isError: true))
                continue
            }
            if let earlier = carried[stage.to] {
                notes.append(
                    .init(
                        position: stage.location,
                        message:
                            "a second custom stage into \(stage.to) (the first is at \(earlier.location)); SwiftData "
                            + "runs one stage per step: keep one", isError: true))
                continue
            }
            carried[stage.to] = stage
        }
        return carried
    }

    /// The hooks file: each carried phase's code in the function the generated plan calls, under a
    /// line saying where it came from; a phase the app's stage left empty is an empty function.
    public static func hooksFile(_ output: HistoryTranslator.Output, history: SchemaHistory) -> (
        name: String, text: String
    )? {
        guard !output.carried.isEmpty else { return nil }
        let names = GeneratedNames(history: history)
        var functions: [String] = []
        for (number, stage) in output.carried {
            guard let version = history.versions.first(where: { "\($0.version)" == number }) else { continue }
            let suffix = names.versionSuffix(version.version)
            let before = history.versions.last { $0.version < version.version }.map { "\($0.version)" } ?? number
            for (phase, code, schema) in [
                ("willMigrate", stage.willMigrate, "the \(before) schema, before the upgrade"),
                ("didMigrate", stage.didMigrate, "the \(number) schema, after the upgrade"),
            ] {
                let name = "\(phase)To\(suffix)"
                guard let code else {
                    functions.append(
                        "    /// On \(schema): the app's stage (\(place(stage.location))) ran no \(phase).\n"
                            + "    static func \(name)(_ context: ModelContext) throws {}")
                    continue
                }
                let header =
                    "    /// On \(schema): the app's \(phase), carried from \(place(code.location)).\n"
                let body: String
                switch code.parameter {
                case nil:
                    // The closure reads `$0`, which a function's body cannot: it is kept as a closure.
                    body =
                        "    static func \(name)(_ context: ModelContext) throws {\n"
                        + "        let carried: (ModelContext) throws -> Void = "
                        + "{\n\(indented(code.statements, by: 12))\n"
                        + "        }\n        try carried(context)\n    }"
                case let parameter?:
                    let label = parameter == "_" ? "context" : parameter
                    body =
                        "    static func \(name)(_ \(label): ModelContext) throws {\n"
                        + "\(indented(code.statements, by: 8))\n    }"
                }
                functions.append(header + body)
            }
        }
        let text =
            "// swiftdata-gen-import wrote this file from the app's own migration stages: it is yours to edit and\n"
            + "// commit, and swiftdata-gen never changes it. Each function holds the code of one phase of the\n"
            + "// app's stage, from the place its comment names; the generated plan calls it in the same phase.\n\n"
            + "import Foundation\nimport SwiftData\n\nextension \(names.hooks) {\n"
            + functions.joined(separator: "\n\n") + "\n}\n"
        return ("\(names.hooks).swift", text)
    }

    /// Names the carried code uses that the files read declare at module scope and the generated
    /// code does not: each is said, so the team keeps that declaration or writes the new name.
    public static func unresolvedNames(
        _ output: HistoryTranslator.Output, history: SchemaHistory, moduleNames: Set<String>
    ) -> [ImportNote] {
        let names = GeneratedNames(history: history)
        var generated = Set([names.currentSchema, names.migrationPlan, names.hooks])
        generated.formUnion(history.versions.map { names.versionedSchema($0.version) })
        if let latest = history.versions.last {
            generated.formUnion(latest.models.map(\.name) + latest.enums.map(\.name) + latest.structs.map(\.name))
        }
        var notes: [ImportNote] = []
        for (_, stage) in output.carried {
            for code in [stage.willMigrate, stage.didMigrate].compactMap({ $0 }) {
                let used = identifiers(in: code.statements).filter {
                    moduleNames.contains($0) && !generated.contains($0)
                }
                for name in used {
                    notes.append(
                        .init(
                            position: code.location,
                            message:
                                "the carried code uses \(name), which the files read declare and the generated code "
                                + "does not: keep its declaration in the app, or write the generated name"))
                }
            }
        }
        return notes
    }

    /// The names Swift text uses, in first-use order, read by Swift's own parser (so words in
    /// strings and comments are not names).
    static func identifiers(in text: String) -> [String] {
        var seen: Set<String> = []
        return Parser.parse(source: text).tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier = token.tokenKind else { return nil }
            let name = SyntaxReading.unescaped(token)
            return seen.insert(name).inserted ? name : nil
        }
    }

    static func indented(_ text: String, by spaces: Int) -> String {
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }
            .joined(separator: "\n")
    }

    /// The app's plan and the generated one, step by step: what each runs, and what either loses
    /// that the other keeps.
    public static func comparison(
        _ stages: [ImportedStage], output: HistoryTranslator.Output, history: SchemaHistory
    ) -> [String] {
        let report = PlanReport(histories: [history])
        let qualified = output.versions.map { $0.qualifiedName ?? $0.typeName ?? "" }
        var lines: [String] = []
        for (index, step) in report.steps.enumerated() where index + 1 < qualified.count {
            let (from, to) = (qualified[index], qualified[index + 1])
            let app = stages.first { $0.from == from && $0.to == to }
            let appRuns: String
            switch app {
            case nil: appRuns = "no stage"
            case let stage? where stage.kind == .lightweight: appRuns = "lightweight (\(place(stage.location)))"
            case let stage?:
                let phases = [("willMigrate", stage.willMigrate), ("didMigrate", stage.didMigrate)].compactMap {
                    phase, code in code.map { "\(phase) at \(place($0.location))" }
                }
                appRuns =
                    "custom (\(place(stage.location))\(phases.isEmpty ? "" : "; " + phases.joined(separator: ", ")))"
            }
            lines.append(
                "\(step.from) → \(step.to): the app runs \(appRuns); the generated plan runs "
                    + "\(step.stages.joined(separator: ", then "))"
            )
            if !step.carriedFromApp.isEmpty {
                lines.append(
                    "    its hooks hold the app's code: "
                        + "\(step.carriedFromApp.map { $0.components(separatedBy: " — ")[0] }.joined(separator: ", "))"
                )
            }
            if !step.teamMustWrite.isEmpty {
                lines.append(
                    "    the generated plan needs code the app's stage does not give: "
                        + "\(step.teamMustWrite.joined(separator: "; "))"
                )
            }
            let losses = step.dataLoss.isEmpty ? "nothing" : step.dataLoss.joined(separator: "; ")
            // The same schema step runs in both, so it drops in the app's plan what it drops in the generated one.
            lines.append(
                app == nil
                    ? "    the app's plan has no stage for this step; the generated one drops \(losses)"
                    : "    the schema step drops, in both: \(losses)")
            if app?.didMigrate != nil {
                lines.append(
                    "    the app's didMigrate runs after the store records \(step.to): in both, a launch ended "
                        + "during it does not run it again (move work whose loss loses data into willMigrate)")
            }
        }
        for stage in stages
        where !zip(qualified, qualified.dropFirst()).contains(where: { $0 == (stage.from, stage.to) }) {
            lines.append(
                "the app's stage \(stage.from) → \(stage.to) (\(place(stage.location))) is no step of the "
                    + "versions read: "
                    + "the generated plan goes one version at a time")
        }
        return lines
    }
}
