import SwiftDataGenCore

/// `validate`: every check, nothing written.
enum Validation {
    static func run(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        guard let sources = readSchemas(schemaDirectory) else { return .diagnostics }
        return planned(sources) == nil ? .diagnostics : .success
    }
}
