import Foundation
import XCTest

/// Where the documentation lives, for the tests that generate parts of it.
enum Documentation {
    static let catalog = "Sources/swiftdata-gen/SwiftDataGen.docc"
    static var catalogURL: URL { TestPaths.packageRoot.appendingPathComponent(catalog) }
}

/// The catalog cannot drift from the tool: every schema sample and every command in it is run
/// here. A page's fenced `yaml` block whose first line is `# <path>` is written to that path in a
/// sandbox (seeded with a copy of `examples/`), every schema folder a page writes must validate,
/// and every `swiftdata-gen` line of a shell block runs there and must succeed. A tutorial is
/// replayed the same way from its resource files, in the order of their numbers. Shell lines of
/// other tools are allowed only from the list below, each checked elsewhere.
final class DocumentationTests: XCTestCase {
    /// Shell commands a sample may show that are not this tool's, and where each is checked.
    static let otherTools = [
        "swift build", "swift test",  // scripts/check-plugin.sh builds and runs every example
        "swift package --allow-writing-to-package-directory swiftdata-gen",  // the command plugin: check-plugin.sh
        "swift run --package-path Importer swiftdata-gen-import",  // the importer package: DocumentedCommandTests
        "git add",
    ]

    enum Sample: Equatable {
        case file(path: String, contents: String)
        case command(String)
    }

    func testEverySchemaAndCommandInTheArticlesRuns() throws {
        var pages = 0
        var samples = 0
        for page in try Self.files(withExtension: "md") + [TestPaths.packageRoot.appendingPathComponent("README.md")] {
            let found = Self.samples(inMarkdown: try String(contentsOf: page, encoding: .utf8))
            guard !found.isEmpty else { continue }
            pages += 1
            samples += found.count
            try replay(found, seededWithExamples: true, page: page.lastPathComponent)
        }
        XCTAssertGreaterThanOrEqual(pages, 2)
        XCTAssertGreaterThanOrEqual(samples, 4)
    }

    /// The tutorial's resource files in step order, and the samples they hold: YAML files with a
    /// path, and each line of a shell file.
    static func tutorialSamples() throws -> (names: [String], samples: [Sample]) {
        let resources = Documentation.catalogURL.appendingPathComponent("Resources")
        let names = try FileManager.default.contentsOfDirectory(atPath: resources.path).filter {
            $0.hasPrefix("getting-started-")
        }.sorted()
        var samples: [Sample] = []
        for name in names {
            let text = try String(contentsOf: resources.appendingPathComponent(name), encoding: .utf8)
            if name.hasSuffix(".yaml"), let sample = file(text) {
                samples.append(sample)
            } else if name.hasSuffix(".sh") {
                samples += text.split(separator: "\n").map { .command(String($0)) }
            }
        }
        return (names, samples)
    }

    func testTheTutorialReplays() throws {
        let (names, samples) = try Self.tutorialSamples()
        XCTAssertGreaterThanOrEqual(samples.count, 8, "the tutorial lost its steps")
        let tutorial = try String(
            contentsOf: Documentation.catalogURL.appendingPathComponent("Tutorials/GettingStarted.tutorial"),
            encoding: .utf8)
        for name in names {
            XCTAssertTrue(tutorial.contains("file: \"\(name)\""), "\(name) is in no step of the tutorial")
        }
        let sandbox = try replay(samples, seededWithExamples: false, page: "GettingStarted.tutorial")
        // The tutorial's promises: the plan converts through a bridge and loses nothing, and one
        // upgrade test per older version is written.
        let plan = try Self.run("swiftdata-gen plan Sources/Trips/Schema", in: sandbox)
        XCTAssertTrue(plan.output.contains("Trip.title renamed to name"), plan.output)
        XCTAssertTrue(plan.output.contains("willMigrate: convert Trip.budget"), plan.output)
        XCTAssertTrue(plan.output.contains("data loss: none"), plan.output)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sandbox.appendingPathComponent("Tests/TripsTests/Upgrade/TripsUpgradeFromV1Tests.swift").path))
        // The tutorial's app code compiles with what the tutorial generated (against the stand-in:
        // its `#Predicate` needs Foundation's macros, which Apple's SDK does not bring to Linux).
        let preview = sandbox.appendingPathComponent(".build/swiftdata-gen-preview")
        let generated = try FileManager.default.contentsOfDirectory(atPath: preview.path).filter {
            $0.hasSuffix(".swift")
        }
        .sorted().map { preview.appendingPathComponent($0).path }
        XCTAssertFalse(generated.isEmpty)
        let appCode = names.filter { $0.hasSuffix(".swift") && !$0.hasSuffix("Package.swift") }.map {
            Documentation.catalogURL.appendingPathComponent("Resources/\($0)").path
        }
        XCTAssertFalse(appCode.isEmpty, "the tutorial lost its app code")
        let compiled = try StandInTypeCheckTests.typeCheck(generated + appCode)
        XCTAssertEqual(compiled.status, 0, "the tutorial's app code does not compile:\n\(compiled.output)")
        // What the tutorial generates, against each of Apple's SDKs its floor is built with.
        let floor = try AppleSDKTypeCheckTests.iOSFloor(
            ofInput: sandbox.appendingPathComponent("Sources/Trips/Schema").path)
        let models = generated.filter { !AppleSDKTypeCheckTests.isUpgradeTest($0) }
        try checkAgainstAppleSDKs(models, floor: floor, "the tutorial's output")
    }

    /// `files` against each of Apple's SDKs that a floor of `floor` is built with, where present.
    private func checkAgainstAppleSDKs(_ files: [String], floor: Int, _ what: String) throws {
        for (kind, target) in AppleSDK.Kind.checking(iOSFloor: floor) {
            let sdk: AppleSDK
            switch try AppleSDK.ifPresent(kind) {
            case .success(let found): sdk = found
            case .failure(let skip):
                print("\(what): not checked against \(kind.rawValue): \(skip.reason)")
                continue
            }
            let apple = try sdk.typeCheck(files, floor: target)
            XCTAssertEqual(
                apple.status, 0, "\(what) does not compile against \(sdk.name) at iOS \(target):\n\(apple.output)")
        }
    }

    /// The migration article's sample for a large store is the tested file; built with the Trips
    /// example's generated code, it opens a store of 1 200 trips written at 1.0.0 off the main
    /// thread and migrates it (in the stand-in), and it type-checks against Apple's SDKs.
    func testTheSampleThatOpensTheStoreOffTheLaunchPathMigratesAnOldStore() throws {
        let output = try runArticleSample(
            "opening-the-store-off-the-launch-path.swift", trips: 1_200,
            then: """
                let container = try await TripsStore.open(at: url)
                print("ready", try ModelContext(container).fetchCount(FetchDescriptor<Trip>()))
                """)
        XCTAssertTrue(output.contains("ready 1200"), output)
    }

    /// The migration article's sample for a widget or an extension is the tested file: on a store
    /// at 1.0.0 it opens nothing, and once the app has migrated the store it reads its rows; it
    /// type-checks against Apple's SDKs.
    func testTheExtensionSampleOpensOnlyAMigratedStore() throws {
        let output = try runArticleSample(
            "opening-the-store-in-an-extension.swift", trips: 3,
            then: """
                print("before the app", TripsExtensionStore.open(at: url) == nil ? "nothing" : "opened")
                _ = try ModelContainer(
                    for: Schema(versionedSchema: TripsSchema.self), migrationPlan: TripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: url))
                guard let opened = TripsExtensionStore.open(at: url) else { fatalError("the migrated store did not open") }
                print("after the app", try ModelContext(opened).fetchCount(FetchDescriptor<Trip>()))
                """)
        XCTAssertTrue(output.contains("before the app nothing\nafter the app 3\n"), output)
    }

    /// Runs a sample of the migration article (checked to be the article's text) with the Trips
    /// example's generated code, after writing `trips` trips at 1.0.0 to the store at `url`, and
    /// type-checks it against Apple's SDKs; returns what it printed.
    private func runArticleSample(_ name: String, trips: Int, then statements: String) throws -> String {
        let sample = Documentation.catalogURL.appendingPathComponent("Resources/" + name)
        let text = try String(contentsOf: sample, encoding: .utf8)
        let article = try String(
            contentsOf: Documentation.catalogURL.appendingPathComponent("Articles/MigrationPlanning.md"),
            encoding: .utf8)
        XCTAssertTrue(article.contains("```swift\n" + text + "```\n"), "the article's \(name) is not the tested file")
        let folder = TestPaths.packageRoot.appendingPathComponent("examples/TripsApp/Generated")
        let generated = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".swift")
        }
        .sorted().map { folder.appendingPathComponent($0).path }
        let main = """
            import Foundation
            import SwiftData

            let url = FileManager.default.temporaryDirectory.appendingPathComponent("sample-\\(UUID().uuidString).store")
            _ = try ModelContainer(
                for: Schema(versionedSchema: TripsSchema.self), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            do {
                let old = ModelContext(
                    try ModelContainer(for: Schema(versionedSchema: TripsSchemaV1.self), configurations: ModelConfiguration(url: url)))
                for index in 0..<\(trips) {
                    old.insert(TripsSchemaV1.Trip(remoteID: "r\\(index)", title: "t\\(index)", startDate: Date(timeIntervalSince1970: 0)))
                }
                try old.save()
            }
            \(statements)
            try? FileManager.default.removeItem(at: url)
            """
        let result = try StandInTypeCheckTests.compileAndRun(generated + [sample.path], main: main)
        XCTAssertEqual(result.status, 0, result.output)
        try checkAgainstAppleSDKs(generated + [sample.path], floor: 18, "the article's \(name)")
        return result.output
    }

    /// `ModelContainer.deleteAllData()` is marked for deprecation in favour of `erase()` (iOS 18):
    /// no template, generated file, example or page of the documentation calls it.
    func testNothingWrittenCallsTheDeprecatedDeleteAllData() throws {
        let roots = [
            "Templates", "Tests/SwiftDataGenCoreTests/Fixtures/Golden", "examples", Documentation.catalog, "docs",
        ]
        var found: [String] = []
        for root in roots {
            let url = TestPaths.packageRoot.appendingPathComponent(root)
            let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard !file.path.contains("/.build/"), ["swift", "md", "mustache"].contains(file.pathExtension),
                    let text = try? String(contentsOf: file, encoding: .utf8)
                else { continue }
                if text.contains("deleteAllData(") { found.append(file.path) }
            }
        }
        XCTAssertEqual(found, [], "use erase() (iOS 18) instead")
    }

    /// README's plan excerpt is what `plan` prints for the example's last step.
    func testTheREADMEQuotesTheExamplesPlan() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let excerpt = try XCTUnwrap(readme.firstMatch(of: /```\n(Trips [\s\S]*?)```/)?.1)
        let plan = try Self.run(
            "swiftdata-gen plan examples/TripsApp/Sources/TripsApp/Schema", in: TestPaths.packageRoot)
        XCTAssertEqual(plan.status, 0, plan.output)
        let printed = plan.output.split(separator: "\n").map(String.init)
        for line in excerpt.split(separator: "\n") {
            XCTAssertTrue(printed.contains(String(line)), "README's plan says '\(line)', the tool does not")
        }
    }

    /// The tutorial's pictures are what the tool draws for the tutorial's schema.
    func testTheTutorialsDiagramsAreTodays() throws {
        let resources = Documentation.catalogURL.appendingPathComponent("Resources")
        let files = try Self.tutorialSamples().samples.filter {
            if case .file = $0 { return true }
            return false
        }
        let sandbox = try replay(files, seededWithExamples: false, page: "GettingStarted.tutorial")
        for (file, arguments) in [
            ("tutorial-changes.mmd", "--changes"), ("tutorial.mmd", ""),
        ] {
            let drawn = try Self.run("swiftdata-gen diagram Sources/Trips/Schema \(arguments)", in: sandbox)
            XCTAssertEqual(drawn.status, 0, drawn.output)
            XCTAssertEqual(
                try String(contentsOf: resources.appendingPathComponent(file), encoding: .utf8), drawn.output,
                "\(file) is stale: swiftdata-gen diagram … \(arguments) > Resources/\(file), then scripts/check-mermaid.sh --pictures"
            )
        }
    }

    /// Each picture of the catalog is a screenshot of mermaid.js drawing the `.mmd` beside it today:
    /// `scripts/check-mermaid.sh --pictures` writes the text it drew into the PNG, and a picture whose
    /// text is not its `.mmd` is stale.
    func testEveryPictureIsDrawnFromTodaysDiagram() throws {
        let resources = Documentation.catalogURL.appendingPathComponent("Resources")
        let names = try FileManager.default.contentsOfDirectory(atPath: resources.path)
        let diagrams = names.filter { $0.hasSuffix(".mmd") }.sorted()
        XCTAssertEqual(diagrams.count, 4, "the tutorial's and the diagrams article's pictures: \(diagrams)")
        XCTAssertEqual(
            names.filter { $0.hasSuffix(".svg") || $0.hasSuffix(".dot") }, [], "a picture not drawn by mermaid.js")
        for diagram in diagrams {
            let picture = String(diagram.dropLast(4)) + "@2x.png"
            let bytes = try [UInt8](Data(contentsOf: resources.appendingPathComponent(picture)))
            let text = try String(contentsOf: resources.appendingPathComponent(diagram), encoding: .utf8)
            let drawn = try XCTUnwrap(Self.drawnText(ofPNG: bytes), "\(picture) does not say what it was drawn from")
            XCTAssertEqual(drawn, text, "\(picture) is stale: run scripts/check-mermaid.sh --pictures")
        }
    }

    /// The text of the PNG's `swiftdata-gen mermaid source` iTXt chunk, or nil.
    static func drawnText(ofPNG bytes: [UInt8]) -> String? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        let keyword = Array("swiftdata-gen mermaid source".utf8) + [0, 0, 0, 0, 0]
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let kind = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard start + length + 4 <= bytes.count else { return nil }
            let data = bytes[start..<start + length]
            if kind == "iTXt", data.starts(with: keyword) {
                return String(decoding: data.dropFirst(keyword.count), as: UTF8.self)
            }
            offset = start + length + 4
        }
        return nil
    }

    /// The synopsis of every command names only options its help describes.
    func testTheCommandLineReferenceNamesRealOptions() throws {
        let page = try String(
            contentsOf: Documentation.catalogURL.appendingPathComponent("Reference/CommandLineReference.md"),
            encoding: .utf8)
        let synopsis = try XCTUnwrap(page.firstMatch(of: /```\n(swiftdata-gen [\s\S]*?)```/)?.1)
        var checked = 0
        for line in synopsis.split(separator: "\n") where line.hasPrefix("swiftdata-gen ") {
            let words = line.split(separator: " ")
            guard words.count > 1, !words[1].hasPrefix("-"), words[1] != "help" else { continue }
            let help = try Self.run("swiftdata-gen help \(words[1])", in: TestPaths.packageRoot)
            XCTAssertEqual(help.status, 0, help.output)
            for option in line.matches(of: /--[a-z-]+/).map({ String($0.output) }) {
                XCTAssertTrue(help.output.contains(option), "\(words[1]) \(option) is not in its help")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 15)

        // And the other way: every command the tool lists, with every option its help names, is in
        // the synopsis, so a new command or option cannot ship undocumented.
        let overview = try Self.run("swiftdata-gen --help", in: TestPaths.packageRoot).output
        let commands = try XCTUnwrap(overview.firstMatch(of: /SUBCOMMANDS:\n([\s\S]*?)\n\n/)?.1)
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertGreaterThanOrEqual(commands.count, 7)
        for command in commands {
            let lines = synopsis.split(separator: "\n").filter { $0.hasPrefix("swiftdata-gen \(command) ") }
            XCTAssertFalse(lines.isEmpty, "swiftdata-gen \(command) is not in the command line reference")
            let help = try Self.run("swiftdata-gen help \(command)", in: TestPaths.packageRoot).output
            for option in Set(help.matches(of: /--[a-z][a-z-]+/).map { String($0.output) }) where option != "--help" {
                XCTAssertTrue(
                    synopsis.contains(option) || page.contains("`\(option)"),
                    "swiftdata-gen \(command) \(option) is not in the command line reference")
            }
        }
    }

    /// Commands quoted inline in prose (`` `swiftdata-gen plan Schema` ``) name a real command and
    /// only options its help describes, and a path into this repository that they name exists;
    /// placeholders (`<schema-dir>`, `…`, `a | b`) are read as such, not run.
    func testEveryCommandQuotedInProseIsReal() throws {
        let overview = try Self.run("swiftdata-gen --help", in: TestPaths.packageRoot).output
        let commands = Set(
            try XCTUnwrap(overview.firstMatch(of: /SUBCOMMANDS:\n([\s\S]*?)\n\n/)?.1)
                .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        var helps: [String: String] = [:]
        var checked = 0
        let pages =
            try Self.files(withExtension: "md")
            + ["README.md", "SKILL.md", "llms.txt"].map { TestPaths.packageRoot.appendingPathComponent($0) }
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for quoted in text.matches(of: /`(swiftdata-gen [^`\n]+)`/) {
                let line = String(quoted.1)
                let words = line.split(separator: " ").map(String.init)
                let command = words[1].hasPrefix("-") || words[1].hasPrefix("<") ? "" : words[1]
                XCTAssertTrue(
                    command.isEmpty || commands.contains(command),
                    "\(page.lastPathComponent): `\(line)` names no command of the tool")
                if helps[command] == nil {
                    helps[command] = try Self.run("swiftdata-gen \(command) --help", in: TestPaths.packageRoot).output
                }
                for option in line.matches(of: /--[a-z][a-z-]*/).map({ String($0.output) }) {
                    XCTAssertTrue(
                        helps[command]?.contains(option) == true,
                        "\(page.lastPathComponent): `\(line)`: \(option) is not in its help")
                }
                for path in words.dropFirst(2)
                where path.hasPrefix("Sources/swiftdata-gen/") || path.hasPrefix("examples/") {
                    let known = path.split(separator: "/").prefix { !$0.contains("…") && !$0.hasPrefix("<") }
                        .joined(separator: "/")
                    XCTAssertTrue(
                        FileManager.default.fileExists(
                            atPath: TestPaths.packageRoot.appendingPathComponent(known).path),
                        "\(page.lastPathComponent): `\(line)` names \(known), which is not in the repository")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 20, "the inline commands were not found")
    }

    /// The skill file agents read and the documentation index: the skill file says its name and
    /// when to use it in its front matter, and every page either links to is in the repository
    /// (their commands and options are checked with the other pages' above).
    func testTheSkillFileAndTheIndexLinkRealPages() throws {
        let skill = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("SKILL.md"), encoding: .utf8)
        let front = try XCTUnwrap(skill.firstMatch(of: /\A---\n([\s\S]*?)\n---\n/)?.1)
        XCTAssertTrue(front.contains("\nname: swiftdata-gen\n") || front.hasPrefix("name: swiftdata-gen\n"), "\(front)")
        XCTAssertTrue(front.contains("\ndescription: "), "\(front)")
        var linked = 0
        for name in ["SKILL.md", "llms.txt"] {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(name), encoding: .utf8)
            for link in text.matches(of: /\]\(([^)\s]+)\)/) where !link.1.contains("://") {
                XCTAssertTrue(
                    FileManager.default.fileExists(
                        atPath: TestPaths.packageRoot.appendingPathComponent(String(link.1)).path),
                    "\(name) links to \(link.1), which is not in the repository")
                linked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(linked, 20)
        // Every article and reference page of the catalog is in the index.
        let index = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("llms.txt"), encoding: .utf8)
        for page in try Self.files(withExtension: "md") where !page.path.contains("/Tutorials/") {
            guard page.path.contains("/Articles/") || page.path.contains("/Reference/") else { continue }
            XCTAssertTrue(index.contains(page.lastPathComponent), "llms.txt does not index \(page.lastPathComponent)")
        }
    }

    /// Writes each file sample into a sandbox and runs each command; then every schema folder a
    /// sample wrote validates.
    @discardableResult
    private func replay(_ samples: [Sample], seededWithExamples: Bool, page: String) throws -> URL {
        let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: sandbox, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: sandbox) }
        if seededWithExamples {
            try FileManager.default.copyItem(
                at: TestPaths.packageRoot.appendingPathComponent("examples"),
                to: sandbox.appendingPathComponent("examples"))
        }
        var folders: Set<String> = []
        for sample in samples {
            switch sample {
            case .file(let path, let contents):
                let url = sandbox.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: url, atomically: true, encoding: .utf8)
                folders.insert(url.deletingLastPathComponent().path)
            case .command(let line):
                let command = line.trimmingCharacters(in: .whitespaces)
                guard !command.isEmpty else { continue }
                if Self.otherTools.contains(where: { command.hasPrefix($0) }) { continue }
                XCTAssertTrue(
                    command.hasPrefix("swiftdata-gen ") || command.hasPrefix("swift run swiftdata-gen "),
                    "\(page): '\(command)' is neither this tool nor a command checked elsewhere")
                let result = try Self.run(command, in: sandbox)
                XCTAssertEqual(result.status, 0, "\(page): '\(command)' failed:\n\(result.output)")
            }
        }
        for folder in folders.sorted() {
            let result = try Self.run("swiftdata-gen validate '\(folder)'", in: sandbox)
            XCTAssertEqual(
                result.status, 0, "\(page): the schema folder its samples make does not validate:\n\(result.output)")
        }
        return sandbox
    }

    /// Runs a documented command line with the built tool in its place.
    static func run(_ line: String, in folder: URL) throws -> StandInTypeCheckTests.CompileResult {
        let tool = CLITests.executable.path
        var command = line
        for prefix in ["swift run swiftdata-gen ", "swiftdata-gen "] where command.hasPrefix(prefix) {
            command = "'\(tool)' " + command.dropFirst(prefix.count)
            break
        }
        return try StandInTypeCheckTests.run("/bin/sh", ["-c", "cd '\(folder.path)' && " + command])
    }

    /// A YAML sample with its path on its first line (`# Sources/Trips/Schema/1.0.0.yaml`).
    static func file(_ text: String) -> Sample? {
        guard let first = text.split(separator: "\n").first, first.hasPrefix("# "), first.hasSuffix(".yaml") else {
            return nil
        }
        return .file(path: String(first.dropFirst(2)), contents: text)
    }

    /// The samples of a Markdown page, in page order: YAML files with a path, shell commands.
    static func samples(inMarkdown text: String) -> [Sample] {
        text.matches(of: /```(\w*)\n([\s\S]*?)```/).flatMap { match -> [Sample] in
            let body = String(match.2)
            switch match.1 {
            case "yaml": return file(body).map { [$0] } ?? []
            case "sh", "bash", "shell": return body.split(separator: "\n").map { .command(String($0)) }
            default: return []
            }
        }
    }

    static func files(withExtension pathExtension: String) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: Documentation.catalogURL, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == pathExtension { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }
}
