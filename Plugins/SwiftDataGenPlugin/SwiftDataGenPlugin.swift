import Foundation
import PackagePlugin

/// Runs `swiftdata-gen` over the schema YAML of a target at build time. The folder holding the
/// target's one `swiftdata-gen.yaml` is the schema folder; every `.yaml`/`.yml` below it is a
/// version. Outputs are named after the inputs (the CLI's `inputs` layout), so the build system
/// knows them before the tool runs and skips the tool when no input changed.
@main
struct SwiftDataGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url)
        return try SchemaInputs.commands(
            target: target.name, files: files, tool: try context.tool(named: "swiftdata-gen").url,
            workDirectory: context.pluginWorkDirectoryURL)
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension SwiftDataGenPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            try SchemaInputs.commands(
                target: target.displayName, files: target.inputFiles.map(\.url),
                tool: try context.tool(named: "swiftdata-gen").url, workDirectory: context.pluginWorkDirectoryURL)
        }
    }
#endif

enum SchemaInputs {
    static let configName = "swiftdata-gen.yaml"
    /// Read by validation, so an input: declaring it also keeps SwiftPM from warning that the
    /// target has a file nothing handles.
    static let lockName = "swiftdata-gen.lock"

    struct PluginError: Error, CustomStringConvertible {
        var description: String
    }

    static func commands(target: String, files: [URL], tool: URL, workDirectory: URL) throws -> [Command] {
        let yaml = files.filter { ["yaml", "yml"].contains($0.pathExtension) }.sorted { $0.path < $1.path }
        let configs = yaml.filter { $0.lastPathComponent == configName }
        guard let config = configs.first else {
            if yaml.isEmpty { return [] }
            let message =
                "target '\(target)' has schema YAML but no \(configName); add one at the top of the schema folder "
                + "(it may be empty)"
            Diagnostics.error(message)
            throw PluginError(description: message)
        }
        guard configs.count == 1 else {
            let message =
                "target '\(target)' has \(configs.count) \(configName) files "
                + "(\(configs.map(\.path).joined(separator: ", "))); keep one, at the top of the schema folder"
            Diagnostics.error(message)
            throw PluginError(description: message)
        }
        let root = config.deletingLastPathComponent().standardizedFileURL.path
        let versions = yaml.filter { $0 != config && $0.standardizedFileURL.path.hasPrefix(root + "/") }
        let output = workDirectory.appendingPathComponent("GeneratedSources")
        // Must match OutputLayout.inputs in SwiftDataGenCore (plugins cannot link it).
        func outputName(_ file: URL) -> String {
            let relative = String(file.standardizedFileURL.path.dropFirst(root.count + 1))
            var stem = Substring(relative)
            if let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") { stem = stem[..<dot] }
            return "SwiftDataGen_" + stem.replacingOccurrences(of: "/", with: "_") + ".swift"
        }
        var outputs = versions.map { output.appendingPathComponent(outputName($0)) }
        if !versions.isEmpty {
            outputs.append(output.appendingPathComponent("SwiftDataGen_Aliases.swift"))
            outputs.append(output.appendingPathComponent("SwiftDataGen_MigrationPlans.swift"))
        }
        return [
            .buildCommand(
                displayName: "Generating SwiftData schemas for \(target)",
                executable: tool,
                arguments: ["generate", root, "--output", output.path, "--layout", "inputs", "--quiet"],
                inputFiles: [config] + versions
                    + files.filter {
                        $0.lastPathComponent == lockName
                            && $0.deletingLastPathComponent().standardizedFileURL.path == root
                    },
                outputFiles: outputs)
        ]
    }
}
