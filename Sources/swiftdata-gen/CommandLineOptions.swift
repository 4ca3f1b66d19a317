import SwiftDataGenCore

/// Every option of every command, each with its names, the commands it belongs to, its kind of value, the
/// sentence its help shows and what it sets: the parser, the help pages and the completion scripts
/// read this one list.
extension CommandLineArguments {
    static let all: [Option] = [
        Option(
            names: ["-o", "--output"], kind: .folder("dir"),
            help: "The folder for the generated sources (created when missing).", commands: writing
        ) { arguments, value throws(UsageError) in
            arguments.outputDirectory = value
        },
        Option(
            names: ["--layout"], kind: .choice("layout", OutputLayout.allCases.map(\.rawValue)),
            help:
                "schemas (default): files named after what they declare; inputs: named after the input files (the "
                + "build plugin's layout).",
            commands: writing
        ) { arguments, value throws(UsageError) in
            // The parser has checked the word against the choices above.
            arguments.layout = value.flatMap(OutputLayout.init(rawValue:)) ?? arguments.layout
        },
        Option(
            names: ["--templates"], kind: .folder("dir"),
            help: "A folder of .mustache files that replace the bundled ones by name.", commands: writing
        ) { arguments, value throws(UsageError) in
            arguments.templatesDirectory = value
        },
        Option(
            names: ["--hooks-output"], kind: .folder("dir"),
            help:
                "Create <Schema>MigrationHooks.swift there when the plan calls hooks and the file does not exist "
                + "yet (never overwritten). With generate, --output may then be left out.",
            commands: [.generate]
        ) { arguments, value throws(UsageError) in
            arguments.hooksDirectory = value
        },
        Option(
            names: ["--upgrade-tests"], kind: .folder("dir"),
            help: "Also write one Swift Testing upgrade test per older version there.", commands: writing
        ) { arguments, value throws(UsageError) in
            arguments.upgradeTestsDirectory = value
        },
        Option(
            names: ["--testable-import"], kind: .text("module"),
            help: "The module the upgrade tests import with @testable.", commands: writing
        ) { arguments, value throws(UsageError) in
            guard let value, Identifier.isValid(value), !Identifier.keywords.contains(value) else {
                throw UsageError(
                    message:
                        "--testable-import needs a module name (letters, digits and '_', not a Swift keyword); "
                        + "'\(value ?? "")' is not one",
                    command: arguments.command)
            }
            arguments.testableImport = value
        },
        Option(
            names: ["--format"], kind: .choice("format", ["text", "json", "markdown"]),
            help: "text (default) for people, json for tools, markdown for a pull request.", commands: [.plan]
        ) { arguments, value throws(UsageError) in
            arguments.planFormat = value ?? arguments.planFormat
        },
        Option(
            names: ["--format"], kind: .choice("format", ["mermaid", "dot"]),
            help: "mermaid (default): an erDiagram GitHub draws; dot: Graphviz.", commands: [.diagram]
        ) { arguments, value throws(UsageError) in
            arguments.diagramFormat = value ?? arguments.diagramFormat
        },
        Option(
            names: ["-o", "--output"], kind: .file("file"),
            help:
                "Write to this file instead of printing; a .md file gets Markdown. A file swiftdata-gen did not "
                + "write is never replaced.",
            commands: [.plan, .diagram]
        ) { arguments, value throws(UsageError) in
            arguments.reportFile = value
        },
        Option(
            names: ["--schema"], kind: .text("name"),
            help: "The schema to draw, plan or add a version to when the folder holds several.",
            commands: [.plan, .diagram, .newVersion]
        ) { arguments, value throws(UsageError) in
            arguments.schemaName = value
        },
        Option(
            names: ["--rename"], kind: .text("Model.old=new"),
            help:
                "Write the property under its new name with renamedFrom, so the step keeps its values; give it "
                + "once per property.",
            commands: [.newVersion]
        ) { arguments, value throws(UsageError) in
            guard let value, let rename = NextVersionFile.Rename(parsing: value) else {
                throw UsageError(
                    message: "--rename takes Model.old=new, each a Swift name, not '\(value ?? "")'",
                    command: arguments.command)
            }
            arguments.renames.append(rename)
        },
        Option(
            names: ["--version"], kind: .text("version"),
            help: "The version to draw (default: the current one).", commands: [.diagram]
        ) { arguments, value throws(UsageError) in
            guard let value, let version = SemanticVersion(parsing: value) else {
                throw UsageError(
                    message: "--version needs a version such as 2.0.0, not '\(value ?? "")'", command: arguments.command
                )
            }
            arguments.diagramVersion = version
        },
        Option(
            names: ["--changes"], kind: .optionalStep("A..B"),
            help: "Draw what a step changes: the last one, or A..B (consecutive versions).", commands: [.diagram]
        ) { arguments, value throws(UsageError) in
            guard let value else {
                arguments.changes = ChangeRequest(range: nil)
                return
            }
            guard let range = ChangeRequest.range(parsing: value) else {
                throw UsageError(
                    message: "--changes takes two versions as A..B, such as 1.0.0..2.0.0, not '\(value)'",
                    command: arguments.command)
            }
            arguments.changes = ChangeRequest(range: range)
        },
        Option(
            names: ["--through"], kind: .text("version"),
            help: "Lock the versions up to and including this one, which must exist (default: all).",
            commands: [.lock]
        ) { arguments, value throws(UsageError) in
            guard let value, let version = SemanticVersion(parsing: value) else {
                throw UsageError(
                    message: "--through needs a version such as 2.0.0, not '\(value ?? "")'", command: arguments.command
                )
            }
            arguments.lockThrough = version
        },
        Option(
            names: ["-q", "--quiet"], kind: .flag, help: "Print only diagnostics.",
            commands: writing + [.lock, .newVersion]
        ) {
            arguments, _ throws(UsageError) in
            arguments.quiet = true
        },
        Option(names: ["--version"], kind: .flag, help: "Show the version.", commands: []) {
            arguments, _ throws(UsageError) in
            arguments.showVersion = true
        },
        Option(names: ["-h", "--help"], kind: .flag, help: "Show help information.", commands: Command.allCases) {
            arguments, _ throws(UsageError) in
            arguments.showHelp = true
        },
        Option(
            names: ["--generate-completion-script"], kind: .choice("shell", ["bash", "zsh", "fish"]),
            help: "Print a completion script for bash, zsh or fish.",
            commands: []
        ) { arguments, value throws(UsageError) in
            arguments.completionShell = value
        },
    ]
}
