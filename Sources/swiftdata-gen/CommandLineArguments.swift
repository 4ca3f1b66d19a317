import SwiftDataGenCore

/// The command line, declared once: parsing, every help page and the shell completion scripts are
/// read from `Option.all` and `Command`, so an option cannot be parsed without being described.
/// Hand-written to swift-argument-parser's conventions: the tool is the build plugin's, compiled
/// in every user's clean build, and depends on nothing beyond the toolchain.
struct CommandLineArguments {
    enum Command: String, CaseIterable, Sendable {
        case generate, validate, check, plan, diagram, lock
        case newVersion = "new-version"

        var abstract: String {
            switch self {
            case .generate: return "Write the Swift sources into --output."
            case .validate: return "Check the schema files and print diagnostics; write nothing."
            case .check: return "Fail with a diff when the files in --output are stale."
            case .plan: return "Print the migration plan: changes, stages, generated code, what you write."
            case .diagram: return "Draw the models of a version, or what a step changes, as Mermaid or DOT."
            case .lock: return "Record the shipped versions in swiftdata-gen.lock so they cannot be edited."
            case .newVersion: return "Start the next version: write <version>.yaml from the latest version."
            }
        }

        /// What runs the command once its arguments are parsed: the only place a command is routed.
        var action: (CommandLineArguments, _ schemaDirectory: String) -> ExitCode {
            switch self {
            case .generate, .check: return Generation.run
            case .validate: return Validation.run
            case .plan: return Reports.plan
            case .diagram: return Reports.diagram
            case .lock: return Locking.run
            case .newVersion: return NextVersionDraft.run
            }
        }

        /// The arguments after the command's name, in order; the schema folder always comes first.
        var operands: [Operand] {
            switch self {
            case .generate, .check, .validate, .plan, .diagram, .lock: return [.schemaDirectory]
            case .newVersion: return [.schemaDirectory, .version]
            }
        }

        /// An option the usage line shows because the command cannot run without it.
        var requiredOption: String? {
            switch self {
            case .generate, .check: return "--output <dir>"
            case .validate, .plan, .diagram, .lock, .newVersion: return nil
            }
        }

        var discussion: String {
            switch self {
            case .generate:
                return """
                    Reads swiftdata-gen.yaml and every .yaml/.yml version file below <schema-dir> and writes one
                    file per version, the current-version typealiases and the migration plan. Only files whose
                    bytes change are written, all in one step; files the folder's manifest does not give to this
                    schema folder are never touched.
                    """
            case .validate:
                return "Runs every check of 'generate' and prints the diagnostics as path:line:col: error: … [SDGnnn]."
            case .check:
                return """
                    Exits 1 and prints a unified diff when the files in --output (and --upgrade-tests) differ
                    from what 'generate' would write: for CI, when generated sources are checked in.
                    """
            case .plan:
                return """
                    Prints, per step between consecutive versions, the changes, the stages, what is generated,
                    how each generated walk goes over the rows (batches, memory, a launch ended part way), what
                    the team must write and any data-loss warning. --format markdown writes it for a pull
                    request: what each step does to stored data, hazards and the change diagram.
                    """
            case .diagram:
                return """
                    Draws the current version (or --version X) as a Mermaid erDiagram, or Graphviz DOT with
                    --format dot: models, stored attributes, relationships with their cardinality and delete
                    rules, inheritance. --changes draws the last step instead (or --changes A..B), each change
                    marked, with the stages listed. Reads only <schema-dir>.
                    """
            case .lock:
                return """
                    Records the stored shape of every version (or every version up to --through) in
                    <schema-dir>/swiftdata-gen.lock. Run it when a version ships and commit the file: from then
                    on, editing that version is an error. Versions already locked are kept as they are.
                    """
            case .newVersion:
                return """
                    Writes <version>.yaml beside the latest version's file, as a copy of it with the new version
                    number and without the keys that describe only the step into the latest version (renamedFrom,
                    from, dedupe, acknowledgedRemovals, customMigration, carriedFrom, typeName); comments are kept.
                    Edit it:
                    a version that changes nothing is refused (SDG603). Writes nothing when the version is not
                    after the latest, the file exists, or the history does not validate.
                    """
            }
        }
    }

    /// A positional argument of a command.
    enum Operand: Sendable {
        case schemaDirectory
        case version

        var placeholder: String {
            switch self {
            case .schemaDirectory: return "<schema-dir>"
            case .version: return "<version>"
            }
        }

        var help: String {
            switch self {
            case .schemaDirectory: return "The folder with swiftdata-gen.yaml and one YAML file per version."
            case .version: return "The new version's number, after the latest: 2.1.0."
            }
        }
    }

    /// What an option's value is, for help and for shell completion.
    enum ValueKind: Sendable {
        case flag
        case folder(String)
        case file(String)
        case choice(String, [String])
        case text(String)
        /// A value that may be left out: given inline (`--changes=1.0.0..2.0.0`), or as the next
        /// argument only when it reads as a step, so a schema folder is never taken for one.
        case optionalStep(String)

        var placeholder: String? {
            switch self {
            case .flag: return nil
            case .folder(let name), .file(let name), .text(let name), .optionalStep(let name): return name
            case .choice(let name, _): return name
            }
        }
    }

    struct Option: Sendable {
        var names: [String]
        var kind: ValueKind
        var help: String
        var commands: [Command]
        /// Stores a value (nil for a flag) into the arguments; throws when it is not valid.
        var apply: @Sendable (inout CommandLineArguments, String?) throws(UsageError) -> Void

        var longName: String { names.last ?? "" }

        /// `-o, --output <dir>`; `--changes [<A..B>]` when the value may be left out.
        var synopsis: String {
            let value = kind.placeholder.map { " <\($0)>" } ?? ""
            if case .optionalStep = kind { return names.joined(separator: ", ") + " [" + value.dropFirst() + "]" }
            return names.joined(separator: ", ") + value
        }
    }

    struct UsageError: Error {
        var message: String
        /// The command whose usage line follows the message, when one was named.
        var command: Command?
    }

    var command: Command?
    var schemaDirectory: String?
    var outputDirectory: String?
    var templatesDirectory: String?
    var layout: OutputLayout = .schemas
    var hooksDirectory: String?
    var upgradeTestsDirectory: String?
    var testableImport: String?
    var planFormat = "text"
    var diagramFormat = "mermaid"
    /// `--output` of plan and diagram: a file, not a folder.
    var reportFile: String?
    var schemaName: String?
    var diagramVersion: SemanticVersion?
    /// `--changes`: nil for a version's picture; `.some(nil)` for the last step.
    var changes: ChangeRequest?
    var lockThrough: SemanticVersion?
    /// new-version's second argument.
    var newVersion: SemanticVersion?
    /// new-version's `--rename Model.old=new`, in the order given.
    var renames: [NextVersionFile.Rename] = []
    var showHelp = false
    var showVersion = false
    var quiet = false
    /// `--generate-completion-script <shell>`.
    var completionShell: String?

    static let writing: [Command] = [.generate, .check]

    init(_ arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        if let first = remaining.first, !first.hasPrefix("-") {
            remaining = remaining.dropFirst()
            if first == "help" {
                // `help <command>` is `<command> --help`.
                showHelp = true
                if let name = remaining.popFirst() { command = try Self.command(named: name) }
                guard remaining.isEmpty else { throw UsageError(message: "help takes one command name") }
                return
            }
            command = try Self.command(named: first)
        }
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                if command?.operands.contains(.version) == true, schemaDirectory != nil, newVersion == nil {
                    guard let version = SemanticVersion(parsing: argument) else {
                        throw UsageError(
                            message: "'\(argument)' is not a version; write it like 2.1.0", command: command)
                    }
                    newVersion = version
                    continue
                }
                guard schemaDirectory == nil else {
                    throw UsageError(
                        message: "unexpected argument '\(argument)'; give one schema folder", command: command)
                }
                guard command != nil else { throw UsageError(message: "name a command before '\(argument)'") }
                schemaDirectory = argument
                continue
            }
            // `--option=value` or `--option value`.
            let (name, inline) =
                argument.hasPrefix("--") && argument.contains("=")
                ? (String(argument.prefix { $0 != "=" }), String(argument.drop { $0 != "=" }.dropFirst()))
                : (argument, nil)
            // The command's own meaning of a name first (`diagram --version 2.0.0`), then any.
            guard
                let option = Self.options(for: command).first(where: { $0.names.contains(name) })
                    ?? Self.all.first(where: { $0.names.contains(name) })
            else {
                let candidates = Self.options(for: command).flatMap(\.names).filter { $0.hasPrefix("--") }
                let guess = Identifier.suggestion(for: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "unknown option '\(name)'\(guess)", command: command)
            }
            // Options of no command (`--version`, completion scripts) are accepted anywhere.
            if let command, !option.commands.isEmpty, !option.commands.contains(command) {
                throw UsageError(message: "\(command.rawValue) does not take \(option.longName)", command: command)
            }
            var value: String?
            if case .flag = option.kind {
                guard inline == nil else {
                    throw UsageError(message: "\(option.longName) takes no value", command: command)
                }
            } else if case .optionalStep = option.kind, inline == nil {
                if let next = remaining.first, ChangeRequest.range(parsing: next) != nil {
                    value = remaining.popFirst()
                }
            } else if let inline {
                value = inline
            } else {
                guard let next = remaining.popFirst(), !next.hasPrefix("-") || next == "-" else {
                    throw UsageError(
                        message: "\(option.longName) needs a value <\(option.kind.placeholder ?? "value")>",
                        command: command)
                }
                value = next
            }
            // A choice's words are declared once, with the option, and checked here.
            if case .choice(_, let choices) = option.kind, let value, !choices.contains(value) {
                throw UsageError(
                    message: "\(option.longName) is \(Self.alternatives(choices)), not '\(value)'", command: command)
            }
            try option.apply(&self, value)
        }
    }

    private static func command(named name: String) throws(UsageError) -> Command {
        if let command = Command(rawValue: name) { return command }
        let guess =
            Identifier.suggestion(for: name, in: Command.allCases.map(\.rawValue) + ["help"]).map {
                "; did you mean '\($0)'?"
            } ?? ""
        throw UsageError(message: "unknown command '\(name)'\(guess)")
    }

    /// `text, json or markdown`.
    static func alternatives(_ words: [String]) -> String {
        guard words.count > 1, let last = words.last else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }

    static func options(for command: Command?) -> [Option] {
        guard let command else { return all.filter { $0.commands.isEmpty || $0.longName == "--help" } }
        return all.filter { $0.commands.contains(command) }
    }
}
