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

/// `validate`: every check, nothing written.
enum Validation {
    static func run(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        guard let sources = readSchemas(schemaDirectory) else { return .diagnostics }
        return planned(sources) == nil ? .diagnostics : .success
    }
}

/// `generate` and `check`: render every file, then write them all or compare them with the folder.
enum Generation {
    static func run(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        guard let command = arguments.command else { return .usage }
        // Hooks alone need no output folder: the build plugin writes the sources.
        let hooksOnly = command == .generate && arguments.outputDirectory == nil && arguments.hooksDirectory != nil
        if arguments.outputDirectory == nil && !hooksOnly {
            return usage("\(command.rawValue) needs --output <dir>", command)
        }
        // Each folder holds one kind of file: generated sources, upgrade tests, or the team's hooks.
        let folders = [
            ("--output", arguments.outputDirectory), ("--upgrade-tests", arguments.upgradeTestsDirectory),
            ("--hooks-output", arguments.hooksDirectory),
        ]
        .compactMap { option, path in path.map { (option, $0) } }
        for (index, first) in folders.enumerated() {
            for second in folders.dropFirst(index + 1) where OutputWriter.sameFolder(first.1, second.1) {
                return usage(
                    "\(first.0) and \(second.0) name the same folder '\(second.1)'; give each its own folder", command)
            }
        }
        guard let sources = readSchemas(schemaDirectory) else { return .diagnostics }
        let templates: TemplateSet
        switch SchemaLoader.templates(overrideDirectory: arguments.templatesDirectory) {
        case .success(let set): templates = set
        case .failure(let diagnostic):
            report([diagnostic])
            return .diagnostics
        }
        if hooksOnly, let hooksDirectory = arguments.hooksDirectory {
            return writeHooksOnly(sources, templates: templates, into: hooksDirectory, quiet: arguments.quiet)
        }
        guard let outputDirectory = arguments.outputDirectory else { return .usage }
        return generate(
            sources, templates: templates, into: outputDirectory, from: schemaDirectory, check: command == .check,
            arguments: arguments)
    }

    private static func generate(
        _ sources: consuming SchemaSources, templates: TemplateSet, into outputDirectory: String,
        from schemaDirectory: String, check: Bool, arguments: CommandLineArguments
    ) -> ExitCode {
        let options = Generator.Options(
            upgradeTests: arguments.upgradeTestsDirectory != nil, testableImport: arguments.testableImport)
        let mode: FolderUpdate.Mode = check ? .check : .write
        // Each file is compared (and staged) as it is rendered and then let go; nothing in a folder
        // changes until every file of every folder is staged without a problem.
        // Runs on one folder take turns; say so while this one waits.
        func update(_ directory: String) -> FolderUpdate {
            FolderUpdate(
                directory: directory, owner: OutputWriter.owner(schema: schemaDirectory, output: directory), mode: mode
            ) {
                if !arguments.quiet {
                    printError(
                        "swiftdata-gen: another swiftdata-gen run is writing into '\(directory)'; waiting for "
                            + "it to finish"
                    )
                }
            }
        }
        var output = update(outputDirectory)
        var tests = arguments.upgradeTestsDirectory.map(update)
        var arrangement = OutputArrangement(layout: arguments.layout)
        var scaffolds: [GeneratedFile] = []
        var changes: [(folder: String, change: OutputChange)] = []
        let (_, diagnostics) = Generator.generate(consume sources, templates: templates, options: options) { file in
            switch file.role {
            case .hooksScaffold: scaffolds.append(file)
            case .upgradeTest:
                if let change = tests?.add(file) { changes.append((tests?.directory ?? "", change)) }
            case .version, .bridge, .currentAliases, .migrationPlan:
                if let placed = arrangement.place(file), let change = output.add(placed) {
                    changes.append((outputDirectory, change))
                }
            case .nextVersion: break
            }
        }
        for file in arrangement.finish() {
            if let change = output.add(file) { changes.append((outputDirectory, change)) }
        }
        changes += output.finish().map { (outputDirectory, $0) }
        if let testsDirectory = tests?.directory { changes += (tests?.finish() ?? []).map { (testsDirectory, $0) } }
        var updates = [output] + (tests.map { [$0] } ?? [])
        report(diagnostics + arrangement.collisions + updates.flatMap(\.warnings))
        guard !diagnostics.hasErrors, arrangement.collisions.isEmpty else {
            for index in updates.indices { updates[index].abandon() }
            return .diagnostics
        }
        if check {
            let problems = updates.flatMap(\.problems)
            report(problems)
            guard problems.isEmpty else { return .diagnostics }
            for (folder, change) in changes {
                let path = folder + "/" + change.name
                print(
                    UnifiedDiff.diff(
                        old: change.old ?? "", new: change.new ?? "", oldName: change.old == nil ? "/dev/null" : path,
                        newName: change.new == nil ? "/dev/null" : path), terminator: "")
            }
            guard changes.isEmpty else {
                let again = arguments.upgradeTestsDirectory.map { " --upgrade-tests \($0)" } ?? ""
                printError(
                    "error: \(changes.count) generated file(s) are stale; run: swiftdata-gen generate "
                        + "\(schemaDirectory) --output \(outputDirectory)\(again)"
                )
                return .diagnostics
            }
            return .success
        }
        var failures = FolderUpdate.commit(&updates)
        if failures.isEmpty, let hooksDirectory = arguments.hooksDirectory {
            for scaffold in scaffolds {
                let (created, problem) = OutputWriter.createIfMissing(scaffold, in: hooksDirectory)
                if let problem { failures.append(problem) }
                if created && !arguments.quiet {
                    print("swiftdata-gen: created \(hooksDirectory)/\(scaffold.name); write its functions")
                }
            }
        }
        report(failures)
        if failures.isEmpty && !arguments.quiet {
            print(
                "swiftdata-gen: \(updates[0].changed.count) file(s) changed, \(updates[0].unchanged.count) unchanged "
                    + "in \(outputDirectory)"
            )
        }
        return failures.isEmpty ? .success : .diagnostics
    }
}

/// `generate --hooks-output` without `--output`: renders everything, keeps only the hook scaffolds.
func writeHooksOnly(_ sources: consuming SchemaSources, templates: TemplateSet, into directory: String, quiet: Bool)
    -> ExitCode
{
    var scaffolds: [GeneratedFile] = []
    let (_, diagnostics) = Generator.generate(sources, templates: templates) { file in
        if case .hooksScaffold = file.role { scaffolds.append(file) }
    }
    report(diagnostics)
    guard !diagnostics.hasErrors else { return .diagnostics }
    var failures: [Diagnostic] = []
    for scaffold in scaffolds {
        let (created, problem) = OutputWriter.createIfMissing(scaffold, in: directory)
        if let problem { failures.append(problem) }
        if created && !quiet { print("swiftdata-gen: created \(directory)/\(scaffold.name); write its functions") }
    }
    report(failures)
    if scaffolds.isEmpty && !quiet { print("swiftdata-gen: the plan calls no hooks; nothing to write") }
    return failures.isEmpty ? .success : .diagnostics
}

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

/// `lock`: adds the versions not yet locked; entries already in the file are kept as they are.
enum Locking {
    static func run(_ arguments: CommandLineArguments, schemaDirectory: String) -> ExitCode {
        guard let sources = readSchemas(schemaDirectory) else { return .diagnostics }
        let lockFile = sources.lock
        guard let (histories, _) = planned(sources) else { return .diagnostics }
        return lock(
            histories, in: schemaDirectory, through: arguments.lockThrough, existing: lockFile, quiet: arguments.quiet)
    }

    private static func lock(
        _ histories: [SchemaHistory], in directory: String, through: SemanticVersion?, existing: SourceFile?,
        quiet: Bool
    ) -> ExitCode {
        if let through, !histories.contains(where: { $0.versions.contains { $0.version == through } }) {
            let known = histories.flatMap { $0.versions.map { "\($0.version)" } }
            return usage(
                "--through \(through): no schema has that version; it is one of: \(known.joined(separator: ", "))",
                .lock)
        }
        var shipped = ShippedVersions(entries: [])
        if let existing {
            // A damaged lock is never rewritten: what it protected would be lost with it.
            let (parsed, problems) = ShippedVersions.parse(
                String(decoding: existing.bytes, as: UTF8.self), file: existing.displayPath)
            guard !problems.hasErrors else {
                report(problems)
                return .diagnostics
            }
            shipped = parsed
        }
        let before = shipped.entries.count
        for entry in ShippedVersions(histories: histories, through: through).entries {
            if let index = shipped.entries.firstIndex(where: {
                $0.kind == entry.kind && $0.schema == entry.schema && $0.version == entry.version
            }) {
                // A format 2 entry gains the identity its (validated, so unchanged) schema has.
                if shipped.entries[index].identity == nil { shipped.entries[index].identity = entry.identity }
            } else {
                shipped.entries.append(entry)
            }
        }
        let path = directory + "/" + ShippedVersions.fileName
        if let problem = OutputWriter.writeAtomically(Array(shipped.text.utf8), to: path) {
            report([problem])
            return .diagnostics
        }
        let added = shipped.entries.dropFirst(before)
        let bridges = added.filter { $0.kind == .bridge }.count
        let bridgeText = bridges == 0 ? "" : " and \(bridges) bridge schema(s)"
        if !quiet { print("swiftdata-gen: locked \(added.count - bridges) new version(s)\(bridgeText) in \(path)") }
        return .success
    }
}

do {
    let arguments = try CommandLineArguments(Array(CommandLine.arguments.dropFirst()))
    exit(run(arguments).rawValue)
} catch {
    printError(CommandLineArguments.errorText(error))
    exit(ExitCode.usage.rawValue)
}
