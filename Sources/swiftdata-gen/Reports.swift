import SwiftDataGenCore
import SwiftDataGenDiagrams

/// `plan` and `diagram`: what the planned histories say, printed or written to `--output`.
enum Reports {
    /// The first line of every report file written, so a later run knows it may replace it.
    static func marker(forFile path: String, format: String) -> String {
        let words = "swiftdata-gen: generated; edits are replaced"
        if path.hasSuffix(".md") { return "<!-- \(words) -->" }
        return format == "dot" ? "// \(words)" : "%% \(words)"
    }

    static func plan(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        if arguments.planFormat != "markdown" && arguments.reportFile != nil {
            return usage("plan writes a file for --format markdown only; print text or json and redirect it", .plan)
        }
        guard let sources = readSchemas(schemaDirectory), let (histories, plans) = planned(sources) else {
            return .diagnostics
        }
        if arguments.planFormat != "markdown" {
            let report = PlanReport(plans: Array(zip(histories, plans)))
            print(arguments.planFormat == "json" ? report.json : report.text, terminator: "")
            return .success
        }
        let chosen: (history: SchemaHistory, plan: MigrationPlan)
        switch choose(Array(zip(histories, plans)), named: arguments.schemaName) {
        case .success(let one): chosen = one
        case .failure(let error): return usage(error.message, .plan)
        }
        return output(
            PlanMarkdown.render(history: chosen.history, plan: chosen.plan), format: "markdown", arguments: arguments)
    }

    static func diagram(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        if arguments.changes != nil && arguments.diagramVersion != nil {
            return usage("--changes draws a step and --version a version; give one of them", .diagram)
        }
        guard let sources = readSchemas(schemaDirectory), let (histories, plans) = planned(sources) else {
            return .diagnostics
        }
        let chosen: (history: SchemaHistory, plan: MigrationPlan)
        switch choose(Array(zip(histories, plans)), named: arguments.schemaName) {
        case .success(let one): chosen = one
        case .failure(let error): return usage(error.message, .diagram)
        }
        let picture: Result<SchemaPicture, PictureError>
        if let changes = arguments.changes {
            picture = SchemaPicture.step(changes.range, of: chosen.history, plan: chosen.plan)
        } else {
            picture = SchemaPicture.version(arguments.diagramVersion, of: chosen.history)
        }
        switch picture {
        case .success(let drawn):
            let markdown = arguments.reportFile?.hasSuffix(".md") == true
            return output(
                diagram(drawn, format: arguments.diagramFormat, markdown: markdown), format: arguments.diagramFormat,
                arguments: arguments)
        case .failure(let error): return usage(error.message, .diagram)
        }
    }

    /// Printed, or written to `--output` behind the marker that lets a later run replace it.
    private static func output(_ text: String, format: String, arguments: CommandLineArguments) -> ExitCode {
        guard let file = arguments.reportFile else {
            print(text, terminator: "")
            return .success
        }
        let marker = marker(forFile: file, format: format)
        if let problem = OutputWriter.writeReport(marker + "\n" + text, to: file, marker: marker) {
            report([problem])
            return .diagnostics
        }
        return .success
    }

    /// One picture as Mermaid or DOT, or in Markdown around it.
    static func diagram(_ picture: SchemaPicture, format: String, markdown: Bool) -> String {
        let dot = format == "dot"
        if markdown { return PlanMarkdown.diagram(picture, dot: dot) }
        return dot ? DOTDiagram.render(picture) : MermaidDiagram.render(picture)
    }

    private static func choose(
        _ planned: [(history: SchemaHistory, plan: MigrationPlan)], named name: String?
    ) -> Result<(history: SchemaHistory, plan: MigrationPlan), ChoiceError> {
        let names = planned.map(\.history.name).joined(separator: ", ")
        if let name {
            guard let match = planned.first(where: { $0.history.name == name }) else {
                return .failure(ChoiceError(message: "--schema \(name): the folder holds \(names)"))
            }
            return .success(match)
        }
        guard planned.count == 1, let only = planned.first else {
            return .failure(ChoiceError(message: "the folder holds the schemas \(names); name one with --schema"))
        }
        return .success(only)
    }

    struct ChoiceError: Error {
        var message: String
    }
}
