import SwiftDataGenCore

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
