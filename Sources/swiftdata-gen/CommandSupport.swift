import SwiftDataGenCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum ExitCode: Int32 {
    case success = 0
    case diagnostics = 1
    case usage = 2
}

/// Writes a line to standard error (file descriptor 2; the C `stderr` global is not
/// concurrency-safe in Swift 6).
func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count, let start = buffer.baseAddress {
            let count = write(2, start + written, buffer.count - written)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            written += count
        }
    }
}

func report(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics.sortedForDisplay() { printError(diagnostic.rendered) }
}

func usage(_ message: String, _ command: CommandLineArguments.Command?) -> ExitCode {
    printError(CommandLineArguments.errorText(.init(message: message, command: command)))
    return .usage
}

func run(_ arguments: CommandLineArguments) -> ExitCode {
    if arguments.showVersion {
        print(CommandLineArguments.toolVersion)
        return .success
    }
    if let shell = arguments.completionShell {
        print(CompletionScript.text(for: shell), terminator: "")
        return .success
    }
    guard let command = arguments.command else {
        if arguments.showHelp {
            print(CommandLineArguments.overview)
            return .success
        }
        return usage(
            "name a command: \(CommandLineArguments.Command.allCases.map(\.rawValue).joined(separator: ", "))", nil)
    }
    if arguments.showHelp {
        print(CommandLineArguments.help(for: command))
        return .success
    }
    guard let schemaDirectory = arguments.schemaDirectory else { return usage("missing <schema-dir>", command) }
    return command.action(arguments, schemaDirectory)
}

/// The schema folder's files, or nil when it cannot be read (the diagnostic printed).
func readSchemas(_ directory: String) -> SchemaSources? {
    switch SchemaLoader.read(directory: directory) {
    case .success(let read): return read
    case .failure(let diagnostic):
        report([diagnostic])
        return nil
    }
}

/// Every history of the folder validated and planned, or nil when any diagnostic is an error
/// (all of them printed).
func planned(_ sources: consuming SchemaSources) -> (histories: [SchemaHistory], plans: [MigrationPlan])? {
    let (histories, validation) = Generator.validate(sources)
    let results = validation.hasErrors ? [] : histories.map(MigrationPlanner.plan)
    let diagnostics = validation + results.flatMap(\.diagnostics)
    report(diagnostics)
    guard !diagnostics.hasErrors else { return nil }
    return (histories, results.map(\.plan))
}
