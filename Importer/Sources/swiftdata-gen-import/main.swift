import Foundation
import SwiftDataGenCore
import SwiftDataGenImport

let usage = """
    OVERVIEW: Reads an app's SwiftData models (VersionedSchema enums with their @Model classes, or
    plain @Model classes) and writes the YAML history swiftdata-gen generates the same store from.

    USAGE: swiftdata-gen-import <swift-file-or-folder>... --output <schema-dir> [--schema <name>] [--version <x.y.z>]
                                [--draft <folder>]
           swiftdata-gen-import <Model.xcdatamodeld | Model.xcdatamodel> --output <schema-dir> [--schema <name>]
                                [--order <a,b,c>] [--draft <folder>]
           swiftdata-gen-import store <file.store> [--schema <schema-dir>] [--json] [--output <schema-dir>]

    OPTIONS:
      --output <schema-dir>  The folder to write swiftdata-gen.yaml and one <version>.yaml per version
                             into; a file already there is never overwritten.
      --schema <name>        The schema name for models that were never versioned (default: App).
      --version <x.y.z>      Their version number (default: 1.0.0).
      --draft <folder>       Where a refused import still writes what it read, every YAML file headed
                             as not proved, so the errors can be fixed there (never over a file).
      --order <a,b,c>        A Core Data bundle's version names, oldest first (default: by the numbers
                             in the names); the order used is printed either way.
      -h, --help             Show this help.

    store reads a SwiftData or Core Data SQLite store (copied from a simulator or a device) without
    writing to it, and prints its entities, tables and columns; with --schema, which version of that
    history it holds by stored shape (or the nearest and what differs) and what the plan runs on
    it; with --output and no history, the store's shape as a first version to check by hand. A store
    with a write-ahead log or a journal beside it, or open in another process, is refused. Exit
    codes: 0 read (and matched, with --schema), 3 matches no version, 1 not readable, 2 usage error.

    A Core Data model bundle becomes one YAML file per model version (1.0.0, 2.0.0, … in order, up
    to the current one) with the entities' names, so SwiftData opens the existing store; the schema
    is named after the bundle unless --schema says otherwise.

    Every VersionedSchema is a version, wherever it is declared (module scope, a namespace, an
    extension of one); names resolve as Swift resolves them. What the YAML cannot carry (methods,
    inits, computed properties, arguments without a DSL key) is listed as file:line:col notes;
    nothing is dropped silently. Each custom stage of the app's plan that runs code is carried: the
    version it leads to gets carriedFrom:, and <Schema>MigrationHooks.swift, written beside the
    YAML, holds its willMigrate/didMigrate code where the generated plan calls it (move that file
    into the app's target); the import ends with both plans side by side, step by step. Before
    writing, the history is generated and planned in memory, and each version's entity version
    hashes, renaming identifiers, delete rules and indexes are compared with the app's classes as
    read: a difference, a step the generator refuses, or a version that cannot be read is an error
    at the app's line and nothing is written (--draft writes it elsewhere, headed as unproved). Exit
    codes: 0 written, 1 errors, nothing to import or a file in the way, 2 usage error.
    """

/// Diagnostics as the generator prints them (each says `error:` itself), then exit 1.
func failWithDiagnostics(_ diagnostics: [Diagnostic]) -> Never {
    FileHandle.standardError.write(Data((diagnostics.map(\.rendered).joined(separator: "\n") + "\n").utf8))
    exit(1)
}

/// A line on standard output, written at once (not buffered), so in a log that joins both streams
/// each line stands where it was said.
func say(_ text: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
}

/// An error for a person: each line of it safe for a terminal, whatever a path or name held.
func fail(_ message: String, code: Int32) -> Never {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map {
        TerminalText.shown(String($0), limit: 1_000)
    }
    // A located error (`file:line:col: error: …`) says "error" itself.
    let prefix = lines.first?.contains(": error: ") == true ? "" : "error: "
    FileHandle.standardError.write(Data("\(prefix)\(lines.joined(separator: "\n"))\n".utf8))
    exit(code)
}

/// The value after an option, taken from the arguments left; a usage error when there is none.
func optionValue(_ option: String, from arguments: inout [String]) -> String {
    guard !arguments.isEmpty else { fail("\(option) needs a value\n\nSee 'swiftdata-gen-import --help'", code: 2) }
    return arguments.removeFirst()
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    say(usage)
    exit(arguments.isEmpty ? 2 : 0)
}
if arguments.first == "store" {
    inspectStore(Array(arguments.dropFirst()))
}
var inputs: [String] = []
var output: String?
var draft: String?
var options = HistoryTranslator.Options()
var schemaGiven = false
var order: [String]?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String { optionValue(argument, from: &arguments) }
    switch argument {
    case "--output": output = value()
    case "--draft": draft = value()
    case "--schema":
        options.schema = value()
        schemaGiven = true
    case "--order": order = value().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    case "--version":
        let parts = value().split(separator: ".").map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
            fail("--version takes major.minor.patch, such as 1.0.0", code: 2)
        }
        let numbers = parts.compactMap { $0 } + Array(repeating: 0, count: 3 - parts.count)
        options.version = (numbers[0], numbers[1], numbers[2])
    default:
        if argument.hasPrefix("-") {
            fail("unknown option '\(argument)'\n\nSee 'swiftdata-gen-import --help'", code: 2)
        }
        inputs.append(argument)
    }
}
guard let output else { fail("missing --output <schema-dir>\n\nSee 'swiftdata-gen-import --help'", code: 2) }
guard !inputs.isEmpty else {
    fail("name the Swift files or folders that declare the models\n\nSee 'swiftdata-gen-import --help'", code: 2)
}

let project: ImportedProject
let trimmed = inputs.count == 1 ? String(inputs[0].reversed().drop { $0 == "/" }.reversed()) : ""
let bundlePath = trimmed.hasSuffix(".xcdatamodeld") || trimmed.hasSuffix(".xcdatamodel") ? trimmed : nil
if let bundlePath {
    let extracted: CoreDataExtractor.Result
    do {
        extracted = try CoreDataExtractor.extract(CoreDataBundle.read(bundlePath), order: order)
    } catch let error as CoreDataExtractor.Failure {
        fail(error.description, code: 1)
    } catch {
        fail("\(error)", code: 1)
    }
    if !schemaGiven {
        let stem = URL(fileURLWithPath: bundlePath).deletingPathExtension().lastPathComponent
        options.schema = stem.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        if options.schema.first?.isLetter != true { options.schema = "App" }
    }
    options.cloudKit = extracted.cloudKit
    let numbered = extracted.order.enumerated().map { "\($1) → \($0 + 1).0.0" }
    say(
        TerminalText.shown(
            "versions, oldest first\(order == nil ? " (by the numbers in their names)" : ""): "
                + numbered.joined(separator: ", ") + (extracted.current.map { "; current: \($0)" } ?? ""),
            limit: 2_000))
    project = extracted.project
} else {
    guard order == nil else { fail("--order is for a .xcdatamodeld bundle", code: 2) }
    do {
        project = ModelExtractor.extract(try SwiftSourceLoader.read(inputs))
    } catch {
        fail(error.description, code: 1)
    }
}
var translated = HistoryTranslator.translate(project, options: options)
// The history is generated in memory and its stores compared with the app's before anything is written.
let proof = translated.files.isEmpty ? [] : ImportProof.check(translated)
var said = translated.notes + proof
// Where Apple's SwiftData is (a Mac with Xcode), it proves the import too: its model of the app's
// classes and of the generated ones must hash alike.
var appleProof = AppleProof.Outcome.readingOnly(why: "Apple's SwiftData is only on a Mac with Xcode")
if bundlePath != nil {
    appleProof = .readingOnly(why: "a Core Data bundle has no Swift classes to compile")
} else if proof.isEmpty, let xcode = AppleProof.xcode, let history = ImportProof.validated(translated).0.first {
    appleProof = proveByApple(project, translated, history, inputs: inputs, toolchain: xcode)
    if case .differs = appleProof {
        if let place = project.versions.first?.location {
            said.append(ImportNote(position: place, message: appleProof.summary, severity: .error))
        }
    }
}
// The app's custom stages: their code goes into the hooks file the generated plan calls.
var comparison: [String] = []
if proof.isEmpty, let history = ImportProof.validated(translated).0.first {
    said += CarriedStages.unresolvedNames(translated, history: history, moduleNames: project.moduleNames)
    if project.migrationPlan != nil {
        comparison = CarriedStages.comparison(project.stages, output: translated, history: history)
    }
    if let hooks = CarriedStages.hooksFile(translated, history: history) { translated.files.append(hooks) }
}
// Notes and errors in one stream, in the order they were found, each written as it comes, so an
// error's cause stands beside it in any log; a note quotes names from the sources or the bundle,
// shown safe for a terminal.
for note in said { FileHandle.standardError.write(Data((TerminalText.shown("\(note)", limit: 2_000) + "\n").utf8)) }
let errors = said.filter(\.isError)
if !errors.isEmpty {
    guard let draft, !translated.files.isEmpty else {
        fail(
            "\(errors.count) error(s) above: the history would not reproduce the app's stores; nothing was written"
                + " (--draft <folder> writes what was read, headed as unproved)",
            code: 1)
    }
    // What was read, for the user to see and fix: every file says it is not a proved import.
    let header =
        "# DRAFT, NOT PROVED: swiftdata-gen-import refused this import with \(errors.count) error(s) (printed with "
        + "it).\n# Fix them here, then run swiftdata-gen validate on this folder before generating from it.\n"
    writeAll(translated.files.map { ($0.name, $0.name.hasSuffix(".yaml") ? header + $0.text : $0.text) }, into: draft)
    fail(
        "\(errors.count) error(s) above: the history would not reproduce the app's stores; the unproved draft is in "
            + "\(draft)",
        code: 1)
}
guard !translated.files.isEmpty else { fail("nothing to import", code: 1) }
writeAll(translated.files, into: output)
if !comparison.isEmpty {
    say("The app's migration plan and the generated one, step by step:")
    for line in comparison { say(TerminalText.shown("  " + line, limit: 2_000)) }
}
say(
    "swiftdata-gen-import: wrote \(translated.files.count) file(s) to \(output); each version, generated, has the "
        + "entity version hashes, renaming identifiers, delete rules and indexes of the app's classes as the "
        + "importer read them; \(appleProof.summary); \(said.count) note(s) above. Next: swiftdata-gen validate "
        + "\(output)"
)

/// Compiles the app's files and the generated versions with Apple's SwiftData, each with a probe, in
/// a scratch folder that is removed after.
func proveByApple(
    _ project: ImportedProject, _ translated: HistoryTranslator.Output, _ history: SchemaHistory, inputs: [String],
    toolchain: AppleProof.Toolchain
) -> AppleProof.Outcome {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "swiftdata-gen-import-apple-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    guard let templates = try? SchemaLoader.templates(overrideDirectory: nil).get() else {
        return .readingOnly(why: "the bundled templates could not be read")
    }
    let read = SchemaSources(
        config: translated.files.first { $0.name == "swiftdata-gen.yaml" }.map(ImportProof.source),
        versions: translated.files.filter { $0.name.hasSuffix(".yaml") && $0.name != "swiftdata-gen.yaml" }.map(
            ImportProof.source))
    let generated = Generator.generate(read, templates: templates)
    var paths: [String] = []
    do {
        let folder = scratch.appendingPathComponent("generated")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in generated.files {
            guard case .version = file.role else { continue }
            let url = folder.appendingPathComponent(file.name)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
    } catch {
        return .readingOnly(why: "the generated versions could not be written: \(error)")
    }
    let names = GeneratedNames(history: history)
    let appFiles = (try? SwiftSourceLoader.read(inputs).map(\.path)) ?? []
    return AppleProof.prove(
        app: AppleProof.Side(
            files: appFiles, schemas: project.versions.compactMap { $0.qualifiedName ?? $0.typeName }),
        generated: AppleProof.Side(files: paths, schemas: history.versions.map { names.versionedSchema($0.version) }),
        toolchain: toolchain, scratch: scratch.appendingPathComponent("probe"))
}

/// Writes every file into `folder`, all or nothing: each under a temporary name first, then linked
/// to its own name (which fails rather than replace a file); on any failure what was placed is
/// taken back. A file already there is never overwritten.
func writeAll(_ files: [(name: String, text: String)], into folder: String) {
    let existing = files.map { folder + "/" + $0.name }.filter { FileManager.default.fileExists(atPath: $0) }
    guard existing.isEmpty else {
        fail(
            "\(existing.joined(separator: ", ")) already exist; import into an empty folder (nothing is overwritten)",
            code: 1)
    }
    let created = !FileManager.default.fileExists(atPath: folder)
    var temporaries: [String] = []
    var placed: [String] = []
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in files {
            let temporary =
                folder + "/.swiftdata-gen-import.\(ProcessInfo.processInfo.processIdentifier).\(file.name).tmp"
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
            temporaries.append(temporary)
        }
        for (file, temporary) in zip(files, temporaries) {
            try FileManager.default.linkItem(atPath: temporary, toPath: folder + "/" + file.name)
            placed.append(folder + "/" + file.name)
        }
        for temporary in temporaries { try? FileManager.default.removeItem(atPath: temporary) }
    } catch {
        for path in placed + temporaries { try? FileManager.default.removeItem(atPath: path) }
        if created { try? FileManager.default.removeItem(atPath: folder) }
        fail("cannot write into \(folder): \(error.localizedDescription); nothing was written", code: 1)
    }
}

/// `store <file> [--schema <dir>] [--json] [--output <dir>]`: reads the store, compares it with the
/// history when one is named, and writes the shape as YAML only into a file that does not exist.
func inspectStore(_ given: [String]) -> Never {
    var arguments = given
    var store: String?
    var history: String?
    var output: String?
    var json = false
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        func value() -> String { optionValue(argument, from: &arguments) }
        switch argument {
        case "--schema": history = value()
        case "--output": output = value()
        case "--json": json = true
        default:
            guard !argument.hasPrefix("-"), store == nil else {
                fail("unexpected '\(argument)' for store\n\nSee 'swiftdata-gen-import --help'", code: 2)
            }
            store = argument
        }
    }
    guard let store else {
        fail("name the store file: store <file.store>\n\nSee 'swiftdata-gen-import --help'", code: 2)
    }
    if let output {
        guard !output.isEmpty else { fail("--output needs a folder's name, not an empty one", code: 2) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), !isFolder.boolValue {
            fail(
                "--output \(TerminalText.shown(output)) is a file; name the folder to write 1.0.0.yaml into", code: 2)
        }
    }
    guard output == nil || history == nil else {
        fail("--output writes the store's shape for an app without a history; with --schema there is one", code: 2)
    }
    var histories: [SchemaHistory]?
    if let history {
        let sources: SchemaSources
        switch SchemaLoader.read(directory: history) {
        case .success(let read): sources = read
        case .failure(let diagnostic): failWithDiagnostics([diagnostic])
        }
        let (validated, diagnostics) = Generator.validate(sources)
        guard !diagnostics.hasErrors else { failWithDiagnostics(diagnostics.filter(\.isError)) }
        histories = validated
    }
    let contents: StoreContents
    do {
        contents = try StoreFile.read(store)
    } catch {
        fail(error.description, code: 1)
    }
    let report = StoreReport(contents, histories: histories)
    say(json ? report.json : report.text, terminator: "")
    if let output {
        let stem = URL(fileURLWithPath: store).deletingPathExtension().lastPathComponent
        let letters = stem.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        let schema = letters.first?.isLetter == true ? letters.prefix(1).uppercased() + letters.dropFirst() : "App"
        let file = output + "/1.0.0.yaml"
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            try Data(report.versionYAML(schema: schema).utf8).write(
                to: URL(fileURLWithPath: file), options: .withoutOverwriting)
        } catch {
            fail(
                "cannot write \(TerminalText.shown(file)): \(error.localizedDescription); nothing is overwritten",
                code: 1)
        }
        FileHandle.standardError.write(Data("wrote \(file): check every name and type against the app\n".utf8))
    }
    exit(report.match.map { $0.opens ? 0 : 3 } ?? 0)
}
