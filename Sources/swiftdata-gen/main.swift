import SwiftDataGenCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

do {
    let arguments = try CommandLineArguments(Array(CommandLine.arguments.dropFirst()))
    exit(run(arguments).rawValue)
} catch {
    printError(CommandLineArguments.errorText(error))
    exit(ExitCode.usage.rawValue)
}
