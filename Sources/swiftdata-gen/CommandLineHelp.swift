import SwiftDataGenCore

/// The help pages, the usage line and the version, rendered from the declarations.
extension CommandLineArguments {
    static let toolVersion = "0.1.0"

    /// `--changes`: a step to draw, the last one when `range` is nil.
    struct ChangeRequest {
        var range: (from: SemanticVersion, to: SemanticVersion)?

        /// `1.0.0..2.0.0`.
        static func range(parsing text: String) -> (from: SemanticVersion, to: SemanticVersion)? {
            guard let dots = text.firstRange(of: ".."),
                let from = SemanticVersion(parsing: String(text[..<dots.lowerBound])),
                let to = SemanticVersion(parsing: String(text[dots.upperBound...]))
            else { return nil }
            return (from, to)
        }
    }

    static func usageLine(_ command: Command?) -> String {
        guard let command else { return "swiftdata-gen <command> <schema-dir> [<options>]" }
        let words = command.operands.map(\.placeholder) + (command.requiredOption.map { [$0] } ?? [])
        return "swiftdata-gen \(command.rawValue) \(words.joined(separator: " ")) [<options>]"
    }

    /// `Error: …`, the usage line, and where the help is: not the whole help page.
    static func errorText(_ error: UsageError) -> String {
        let helpCommand = error.command.map { "swiftdata-gen \($0.rawValue) --help" } ?? "swiftdata-gen --help"
        return
            "Error: \(error.message)\nUsage: \(usageLine(error.command))\n  See '\(helpCommand)' for more information."
    }

    /// `text` with spaces after it up to `width` characters (help columns).
    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static var overview: String {
        let commands = Command.allCases.map { "  " + padded($0.rawValue, to: 12) + $0.abstract }
        let options = options(for: nil).map(row)
        return """
            OVERVIEW: Generate SwiftData versioned schemas, models and a migration plan from YAML.

            USAGE: \(usageLine(nil))

            OPTIONS:
            \(options.joined(separator: "\n"))

            SUBCOMMANDS:
            \(commands.joined(separator: "\n"))

              See 'swiftdata-gen help <subcommand>' for detailed help.

            \(exitCodes)
            """
    }

    static let exitCodes = "EXIT CODES: 0 success (warnings allowed), 1 diagnostics or stale output, 2 usage error."

    static func help(for command: Command) -> String {
        """
        OVERVIEW: \(command.abstract)

        \(command.discussion)

        USAGE: \(usageLine(command))

        ARGUMENTS:
        \(command.operands.map { "  " + padded($0.placeholder, to: 24) + $0.help }.joined(separator: "\n"))

        OPTIONS:
        \(options(for: command).map(row).joined(separator: "\n"))

        \(exitCodes)
        """
    }

    /// Two columns, the description wrapped at 100 characters.
    private static func row(_ option: Option) -> String {
        let left = "  " + option.synopsis
        var lines: [String] = []
        var line = ""
        for word in option.help.split(separator: " ") {
            if !line.isEmpty && line.count + word.count + 1 > 74 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        let indent = String(repeating: " ", count: 26)
        let first = left.count < 25 ? padded(left, to: 26) + lines[0] : left + "\n" + indent + lines[0]
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }
}
