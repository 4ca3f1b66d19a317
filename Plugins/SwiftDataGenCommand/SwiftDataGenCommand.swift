import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory swiftdata-gen [--target T …]`: writes the
/// generated sources into each target's `Generated/` folder, for teams that commit them.
@main
struct SwiftDataGenCommand: CommandPlugin {
    static let help = """
        OVERVIEW: Write the generated SwiftData sources into each target's Generated/ folder.

        USAGE: swift package --allow-writing-to-package-directory swiftdata-gen [--target <target> ...]
                 [--plan-markdown <file>] [--diagram <file>] [--new-version <version>]

        OPTIONS:
          --target <target>       A target to generate for (repeatable; default: every target with a
                                  swiftdata-gen.yaml).
          --plan-markdown <file>  Instead of generating, write the migration plan as Markdown (steps,
                                  what each does to stored data, hazards, change diagrams) to this
                                  file, relative to each target's folder (../../ reaches the
                                  package root): for a pull request.
          --diagram <file>        Instead of generating, write the current version's Mermaid diagram
                                  (Markdown for a .md file) to this file, relative to each target's
                                  folder.
          --new-version <version> Instead of generating, start the next version: write <version>.yaml
                                  beside the latest version file of each target's schema, without
                                  the keys that describe only the step into the latest one.
          -h, --help              Show help information.

        A target that already uses the SwiftDataGenPlugin build-tool plugin is refused: its build
        generates the same declarations, and both together would declare everything twice.
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(Self.help)
            return
        }
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let planFiles = extractor.extractOption(named: "plan-markdown")
        let diagramFiles = extractor.extractOption(named: "diagram")
        let newVersions = extractor.extractOption(named: "new-version")
        guard extractor.remainingArguments.isEmpty, planFiles.count <= 1, diagramFiles.count <= 1,
            newVersions.count <= 1
        else {
            let message =
                "unknown argument '\(extractor.remainingArguments.joined(separator: " "))'; the command takes "
                + "--target <target>, --plan-markdown <file>, --diagram <file> and --new-version <version> (each "
                + "once). See 'swift package swiftdata-gen --help'"
            Diagnostics.error(message)
            throw UsageError(description: message)
        }
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let tool = try context.tool(named: "swiftdata-gen").url
        let manifest =
            (try? String(
                contentsOf: context.package.directoryURL.appendingPathComponent("Package.swift"), encoding: .utf8))
            ?? ""
        var ran = 0
        for case let target as SourceModuleTarget in targets {
            let configs = target.sourceFiles.map(\.url).filter { $0.lastPathComponent == "swiftdata-gen.yaml" }
            guard let config = configs.first else { continue }
            guard configs.count == 1 else {
                Diagnostics.error("target '\(target.name)' has \(configs.count) swiftdata-gen.yaml files; keep one")
                continue
            }
            // The next version's YAML is the team's to edit, whichever way the target generates.
            if let version = newVersions.first {
                let arguments = ["new-version", config.deletingLastPathComponent().path, version]
                if try Self.run(tool, arguments, for: target.name) { ran += 1 }
                continue
            }
            // Reports read the schema and write one file each; they generate nothing, so a target
            // that uses the build-tool plugin may have them too.
            let reports =
                planFiles.map { ["plan", "--format", "markdown", "--output", $0] }
                + diagramFiles.map { ["diagram", "--output", $0] }
            if !reports.isEmpty {
                for report in reports {
                    let file = target.directoryURL.appendingPathComponent(report[report.count - 1]).path
                    let arguments =
                        [report[0], config.deletingLastPathComponent().path] + report.dropFirst().dropLast() + [file]
                    if try Self.run(tool, arguments, for: target.name) { ran += 1 }
                }
                continue
            }
            if Self.usesBuildPlugin(target.name, manifest: manifest) {
                Diagnostics.error(
                    "target '\(target.name)' uses the SwiftDataGenPlugin build-tool plugin, which already "
                        + "generates these sources at every build; writing them into Generated/ as well would declare "
                        + "everything twice. Either keep the build-tool plugin and do not run this command, or remove "
                        + "the plugin from the target in Package.swift and commit Generated/"
                )
                continue
            }
            let output = target.directoryURL.appendingPathComponent("Generated")
            let arguments = ["generate", config.deletingLastPathComponent().path, "--output", output.path]
            if try Self.run(tool, arguments, for: target.name) { ran += 1 }
        }
        if ran == 0 {
            Diagnostics.warning(
                "no target was generated for; see the errors above, or add a swiftdata-gen.yaml to a target's "
                    + "schema folder"
            )
        }
    }

    /// Runs the tool for one target; a failure is an error that names the command and the target
    /// (the tool has printed its diagnostics), and the other targets still run.
    static func run(_ tool: URL, _ arguments: [String], for target: String) throws -> Bool {
        let process = try Process.run(tool, arguments: arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("swiftdata-gen \(arguments[0]) failed for target '\(target)'")
            return false
        }
        return true
    }

    /// Whether the manifest's declaration of `target` applies the build-tool plugin. Plugins
    /// cannot ask SwiftPM which plugins a target uses, so the manifest is read: the text from
    /// each `.target(`, `.executableTarget(` or `.testTarget(` to the next, whose first `name:`
    /// is `target`.
    static func usesBuildPlugin(_ target: String, manifest: String) -> Bool {
        var starts: [String.Index] = []
        for kind in [".target(", ".executableTarget(", ".testTarget(", ".macro("] {
            var from = manifest.startIndex
            while let found = manifest.range(of: kind, range: from..<manifest.endIndex) {
                starts.append(found.lowerBound)
                from = found.upperBound
            }
        }
        starts.sort()
        for (index, start) in starts.enumerated() {
            let declaration = manifest[start..<(index + 1 < starts.count ? starts[index + 1] : manifest.endIndex)]
            guard let name = declaration.range(of: "name:") else { continue }
            let value = declaration[name.upperBound...].drop { $0 == " " }
            guard value.hasPrefix("\"\(target)\"") else { continue }
            return declaration.contains("SwiftDataGenPlugin")
        }
        return false
    }
}
