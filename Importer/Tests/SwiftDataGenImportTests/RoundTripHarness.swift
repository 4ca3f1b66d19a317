import Foundation
import SwiftDataGenCore
import SwiftDataGenDSL
import SwiftDataGenImport
import XCTest

/// Import a fixture, generate it, and compare what SwiftData's checksum sees of every entity of
/// every version: the app's own Swift and the generated Swift are each compiled against the
/// SwiftData stand-in. Equal, or the test names the entity and property.
extension XCTestCase {
    func roundTrip(
        _ name: String, versions expected: Int, schema: String = "App", module: String = "main",
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sdg-roundtrip-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let fixture = RoundTripTests.fixtures.appendingPathComponent(name)
        let sources = try SwiftSourceLoader.read([fixture.path])
        let project = ModelExtractor.extract(sources)
        let translated = HistoryTranslator.translate(project, options: .init(schema: schema))
        let yaml = work.appendingPathComponent("Schema")
        try FileManager.default.createDirectory(at: yaml, withIntermediateDirectories: true)
        for output in translated.files {
            try output.text.write(to: yaml.appendingPathComponent(output.name), atomically: true, encoding: .utf8)
        }

        let read = try SchemaLoader.read(directory: yaml.path).get()
        let generated = Generator.generate(read, templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        XCTAssertFalse(
            generated.diagnostics.hasErrors, generated.diagnostics.map(\.rendered).joined(separator: "\n"), file: file,
            line: line)
        let history = try XCTUnwrap(generated.histories.first, file: file, line: line)
        XCTAssertEqual(history.versions.count, expected, file: file, line: line)
        let swift = work.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: swift, withIntermediateDirectories: true)
        for output in generated.files {
            try output.contents.write(to: swift.appendingPathComponent(output.name), atomically: true, encoding: .utf8)
        }
        // The app's custom stages, carried: the generated plan calls their code.
        if let hooks = CarriedStages.hooksFile(translated, history: history) {
            try hooks.text.write(to: swift.appendingPathComponent(hooks.name), atomically: true, encoding: .utf8)
        }

        // The original's schemas, oldest first: its VersionedSchema types, or its plain models.
        let ordered = project.versions.sorted { a, b in
            let x = a.version.map { [$0.major, $0.minor, $0.patch] } ?? []
            let y = b.version.map { [$0.major, $0.minor, $0.patch] } ?? []
            return x.lexicographicallyPrecedes(y)
        }
        let originalSchemas =
            ordered.isEmpty
            ? ["Schema([\(project.unversioned?.models.map { "\($0.name).self" }.joined(separator: ", ") ?? "")])"]
            : ordered.compactMap { $0.qualifiedName ?? $0.typeName }.map { "Schema(versionedSchema: \($0).self)" }
        let names = GeneratedNames(history: history)
        let generatedSchemas = history.versions.map {
            "Schema(versionedSchema: \(names.versionedSchema($0.version)).self)"
        }
        XCTAssertEqual(originalSchemas.count, generatedSchemas.count, file: file, line: line)

        // What the compiler resolved each version's `models` to, beside what the importer did.
        let typeLists = ordered.compactMap { $0.qualifiedName ?? $0.typeName }.map {
            "\($0).models.map { String(reflecting: $0) }.joined(separator: \", \")"
        }
        var original = try checksums(
            of: sources.map(\.path), schemas: originalSchemas, typeLists: typeLists, swiftVersion: "5", module: module,
            work: work.appendingPathComponent("original"))
        for (index, version) in ordered.enumerated() where index < original.count && !typeLists.isEmpty {
            let lines = original[index].split(separator: "\n", maxSplits: 1).map(String.init)
            XCTAssertEqual(
                lines.first, "types " + version.listedModels.map { "\(module).\($0)" }.joined(separator: ", "),
                "\(name): what \(version.qualifiedName ?? "-").models lists, by the compiler and by the importer",
                file: file, line: line)
            original[index] = lines.count > 1 ? lines[1] : ""
        }
        let regenerated = try checksums(
            of: try FileManager.default.contentsOfDirectory(atPath: swift.path).sorted().map {
                swift.appendingPathComponent($0).path
            },
            schemas: generatedSchemas, swiftVersion: "6", module: "main", work: work.appendingPathComponent("generated")
        )
        for (index, version) in history.versions.enumerated() where index < original.count && index < regenerated.count
        {
            for problem in RoundTripTests.differences(original[index], regenerated[index]) {
                XCTFail("\(name) \(version.version): \(problem)", file: file, line: line)
            }
        }
    }

    /// The stand-in's checksum text of each schema expression, compiled with the sources.
    private func checksums(
        of files: [String], schemas: [String], typeLists: [String] = [], swiftVersion: String, module: String,
        work: URL
    ) throws -> [String] {
        let separator = "-----"
        let main =
            "import SwiftData\n" + Self.agreementText + "\n"
            + schemas.enumerated().map { index, schema in
                (index < typeLists.count ? "print(\"types \" + \(typeLists[index]))\n" : "")
                    + "print(agreementText(\(schema)))\nprint(\"\(separator)\")"
            }.joined(separator: "\n") + "\n"
        guard
            let printed = try compiledAgainstStandIn(
                files, main: main, swiftVersion: swiftVersion, module: module, work: work)
        else { return [] }
        return printed.components(separatedBy: separator + "\n").dropLast().map {
            $0.trimmingCharacters(in: .newlines)
        }
    }

    /// Swift that prints what the stand-in reads of a compiled schema: its identity text (each
    /// entity's and property's version hash), each entity line followed by its uniqueness and
    /// indexes, each property line by what the hashes leave out but a migration reads (renaming
    /// identifier, delete rule, counts).
    static let agreementText = """
        func agreementText(_ schema: Schema) -> String {
            var entities: [String: String] = [:]
            var properties: [String: String] = [:]
            for model in schema._models {
                let entity = model._$entity
                entities[entity.name] =
                    "unique=\\(entity.unique.map { $0.sorted() }.sorted { "\\($0)" < "\\($1)" }) "
                    + "indexes=\\(entity.indexes.map { $0.sorted() }.sorted { "\\($0)" < "\\($1)" })"
                for property in entity.properties {
                    var text = "original=\\(property.originalName ?? "-")"
                    // A relationship without `@Relationship` has the defaults: nullify, no counts.
                    if let relationship = property.relationship {
                        let counts = (relationship.minimumModelCount ?? 0, relationship.maximumModelCount ?? 0)
                        if relationship.deleteRule != "nullify" { text += " delete=\\(relationship.deleteRule)" }
                        if counts != (0, 0) { text += " min=\\(counts.0) max=\\(counts.1)" }
                    }
                    properties["\\(entity.name).\\(property.name)"] = text
                }
            }
            var entity = ""
            return schema._identityText.split(separator: "\\n").map { line -> String in
                let words = line.split(separator: " ")
                if line.hasPrefix("entity "), words.count > 1 {
                    entity = String(words[1])
                    return line + " " + (entities[entity] ?? "")
                }
                if line.hasPrefix("  "), let name = words.first {
                    return line + " " + (properties["\\(entity).\\(name)"] ?? "")
                }
                return String(line)
            }.joined(separator: "\\n")
        }
        """

    /// What `main` prints, compiled with `files` against the SwiftData stand-in and run with
    /// `arguments`; nil, with the failure reported, when it does not compile or run.
    func compiledAgainstStandIn(
        _ files: [String], main: String, swiftVersion: String, module: String, work: URL, arguments: [String] = []
    ) throws -> String? {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let standIn = RoundTripTests.packageRoot.appendingPathComponent("../.build/standin").standardizedFileURL.path
        let built = try RoundTripTests.run(
            "/bin/bash",
            [
                RoundTripTests.packageRoot.appendingPathComponent("../scripts/build-standin.sh").standardizedFileURL
                    .path, standIn,
            ])
        if built.status == 3 { throw XCTSkip("the toolchain cannot build the stand-in macros: \(built.output)") }
        guard built.status == 0, let flagLine = built.output.split(separator: "\n").last else {
            XCTFail("building the stand-in failed:\n\(built.output)")
            return nil
        }
        let mainFile = work.appendingPathComponent("main.swift")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)
        let binary = work.appendingPathComponent("probe").path
        let compiled = try RoundTripTests.run(
            "/usr/bin/env",
            ["swiftc", "-swift-version", swiftVersion, "-module-name", module]
                + flagLine.split(separator: " ").map(String.init)
                + ["-Xlinker", "-rpath", "-Xlinker", standIn, "-o", binary] + files + [mainFile.path])
        guard compiled.status == 0 else {
            XCTFail("compiling against the stand-in failed:\n\(compiled.output)")
            return nil
        }
        let printed = try RoundTripTests.run(binary, arguments)
        guard printed.status == 0 else {
            XCTFail("the probe failed (\(printed.status)):\n\(printed.output)")
            return nil
        }
        return printed.output
    }

    /// What the importer reads from one Swift file holding `source`, in a folder of its own.
    func extracted(_ source: String, file name: String) throws -> ImportedProject {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try source.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return ModelExtractor.extract(try SwiftSourceLoader.read([folder.path]))
    }
}
