import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory swiftdata-gen [--target T …]`: writes the
/// generated sources into each target's `Generated/` folder, for teams that commit them.
@main
struct SwiftDataGenCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let tool = try context.tool(named: "swiftdata-gen").url
        var ran = 0
        for case let target as SourceModuleTarget in targets {
            let configs = target.sourceFiles.map(\.url).filter { $0.lastPathComponent == "swiftdata-gen.yaml" }
            guard let config = configs.first else { continue }
            guard configs.count == 1 else {
                Diagnostics.error("target '\(target.name)' has \(configs.count) swiftdata-gen.yaml files; keep one")
                continue
            }
            let output = target.directoryURL.appendingPathComponent("Generated")
            let process = try Process.run(tool, arguments: ["generate", config.deletingLastPathComponent().path, "--output", output.path])
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                Diagnostics.error("swiftdata-gen failed for target '\(target.name)'")
                continue
            }
            ran += 1
        }
        if ran == 0 { Diagnostics.warning("no target with a swiftdata-gen.yaml was found") }
    }
}
