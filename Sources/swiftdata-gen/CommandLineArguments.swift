import SwiftDataGenCore

/// The parsed command line. Hand-written: the tool may depend on nothing beyond the toolchain.
struct CommandLineArguments {
    enum Command: String, CaseIterable {
        case generate, validate, check, plan, lock
    }

    struct UsageError: Error {
        var message: String
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
    var lockThrough: SemanticVersion?
    var showHelp = false
    var quiet = false

    init(_ arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        if let first = remaining.first, !first.hasPrefix("-") {
            guard let command = Command(rawValue: first) else {
                throw UsageError(message: "unknown command '\(first)'; use one of: \(Command.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.command = command
            remaining = remaining.dropFirst()
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": showHelp = true
            case "-q", "--quiet": quiet = true
            case "-o", "--output": outputDirectory = try Self.value(for: argument, from: &remaining)
            case "--templates": templatesDirectory = try Self.value(for: argument, from: &remaining)
            case "--hooks-output": hooksDirectory = try Self.value(for: argument, from: &remaining)
            case "--upgrade-tests": upgradeTestsDirectory = try Self.value(for: argument, from: &remaining)
            case "--testable-import":
                let module = try Self.value(for: argument, from: &remaining)
                guard Identifier.isValid(module), !Identifier.keywords.contains(module) else {
                    throw UsageError(message: "--testable-import needs a module name (letters, digits and '_', not a Swift keyword); '\(module)' is not one")
                }
                testableImport = module
            case "--format":
                planFormat = try Self.value(for: argument, from: &remaining)
                guard ["text", "json"].contains(planFormat) else { throw UsageError(message: "--format is text or json") }
            case "--through":
                let text = try Self.value(for: argument, from: &remaining)
                guard let version = SemanticVersion(parsing: text) else { throw UsageError(message: "--through needs a version such as 2.0.0") }
                lockThrough = version
            case "--layout":
                let name = try Self.value(for: argument, from: &remaining)
                guard let layout = OutputLayout(rawValue: name) else {
                    throw UsageError(message: "unknown layout '\(name)'; use one of: \(OutputLayout.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                self.layout = layout
            default:
                if argument.hasPrefix("-") { throw UsageError(message: "unknown option '\(argument)'") }
                guard schemaDirectory == nil else { throw UsageError(message: "unexpected argument '\(argument)'; give one schema folder") }
                schemaDirectory = argument
            }
        }
    }

    private static func value(for option: String, from remaining: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("-") else {
            throw UsageError(message: "\(option) needs a value")
        }
        return value
    }

    static let overview = """
        OVERVIEW: Generate SwiftData versioned schemas, models and a migration plan from YAML.

        USAGE: swiftdata-gen <command> <schema-dir> [options]

        COMMANDS:
          generate    Write the Swift sources into --output
          validate    Check the schema files and print diagnostics; write nothing
          check       Fail with a diff when the files in --output are stale
          plan        Print the migration plan: changes, stages, generated code, what you write
          lock        Record the shipped versions in swiftdata-gen.lock so they can't be edited

        Run 'swiftdata-gen <command> --help' for a command's options.
        Exit codes: 0 success, 1 diagnostics or stale output, 2 usage error.
        """

    static func help(for command: Command) -> String {
        switch command {
        case .generate:
            return """
                USAGE: swiftdata-gen generate <schema-dir> --output <dir> [--layout schemas|inputs] [--hooks-output <dir>]
                                              [--upgrade-tests <dir> [--testable-import <module>]] [--templates <dir>] [--quiet]

                Reads swiftdata-gen.yaml and every .yaml/.yml version file below <schema-dir> and writes
                one file per version, the current-version typealiases and the migration plan into <dir>.
                Only files whose bytes change are written; generated files no longer produced are removed;
                files without the generator's header are never touched.

                OPTIONS:
                  -o, --output <dir>    Folder for the generated sources (created when missing)
                  --layout <layout>     schemas (default): files named after what they declare;
                                        inputs: named after the input files (the build plugin's layout)
                  --templates <dir>     Folder of .mustache files that replace bundled ones by name
                  --hooks-output <dir>  Create <Schema>MigrationHooks.swift there when the plan calls
                                        hooks and the file does not exist yet (it is never overwritten)
                  --upgrade-tests <dir> Also write one Swift Testing upgrade test per older version there
                  --testable-import <module>
                                        The module the upgrade tests import with @testable
                  -q, --quiet           Print only diagnostics
                  -h, --help            Show this help
                """
        case .validate:
            return """
                USAGE: swiftdata-gen validate <schema-dir>

                Runs every check of 'generate' and prints the diagnostics as path:line:col: error: … [SDGnnn].
                Writes nothing.
                """
        case .plan:
            return """
                USAGE: swiftdata-gen plan <schema-dir> [--format text|json]

                Prints, per step between consecutive versions, the changes, the stages, what is generated,
                what the team must write and any data-loss warning. Writes nothing.
                """
        case .lock:
            return """
                USAGE: swiftdata-gen lock <schema-dir> [--through <version>]

                Records the persisted shape of every version (or every version up to --through) in
                <schema-dir>/swiftdata-gen.lock. Run it when a version ships and commit the file: from then
                on, editing that version is an error. Versions already locked are kept as they are.
                """
        case .check:
            return """
                USAGE: swiftdata-gen check <schema-dir> --output <dir> [--layout schemas|inputs] [--templates <dir>]

                Exits 1 and prints a unified diff when the files in <dir> differ from what 'generate'
                would write (for CI, when generated sources are checked in). Writes nothing.
                """
        }
    }
}
