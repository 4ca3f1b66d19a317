import SwiftDataGenCore

/// `new-version`: writes the next version's file beside the latest one; never over a file that is there.
enum NextVersionDraft {
    static func run(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        guard let version = arguments.newVersion else { return usage("missing <version>", .newVersion) }
        guard let sources = readSchemas(schemaDirectory) else { return .diagnostics }
        return write(version, sources: sources, in: schemaDirectory, arguments: arguments)
    }

    private static func write(
        _ version: SemanticVersion, sources: SchemaSources, in schemaDirectory: String, arguments: CommandLineArguments
    ) -> ExitCode {
        let (draft, diagnostics) = Generator.nextVersion(
            sources, version: version, schema: arguments.schemaName, renaming: arguments.renames)
        report(diagnostics)
        guard let draft, !diagnostics.hasErrors else { return .diagnostics }
        let path = schemaDirectory + "/" + draft.name
        let (created, problem) = OutputWriter.createIfMissing(draft, in: schemaDirectory)
        if let problem {
            report([problem])
            return .diagnostics
        }
        guard created else {
            report([
                .error(
                    .newVersionFileExists, "'\(path)' appeared while the draft was made; nothing was written", at: nil)
            ])
            return .diagnostics
        }
        if !arguments.quiet {
            print(
                "swiftdata-gen: wrote \(path) from the latest version; edit it (a version that changes nothing "
                    + "is refused)"
            )
        }
        return .success
    }
}
