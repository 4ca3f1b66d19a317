import Foundation

/// libFuzzer entry: the input is split at 0x01 bytes into a config file and up to seven version
/// files, then taken through load → decode → validate → plan → render. Any crash, trap or
/// sanitizer report is a bug; diagnostics are the expected outcome for garbage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = bytes.split(separator: 0x01, maxSplits: 8, omittingEmptySubsequences: false).map(Array.init)
    let config = parts.first.map {
        SourceFile(displayPath: "swiftdata-gen.yaml", relativePath: "swiftdata-gen.yaml", bytes: $0)
    }
    let versions = parts.dropFirst().enumerated().map { index, part in
        SourceFile(displayPath: "v\(index).yaml", relativePath: "v\(index).yaml", bytes: part)
    }
    let output = Generator.generate(
        SchemaSources(config: config, versions: versions), templates: FuzzTemplates.set,
        options: .init(upgradeTests: true))
    if !output.diagnostics.hasErrors && output.files.isEmpty && !versions.isEmpty {
        fatalError("no error and no output")
    }
    for diagnostic in output.diagnostics { _ = diagnostic.rendered }
    _ = PlanReport(histories: output.histories).json
    return 0
}

enum FuzzTemplates {
    /// Read once from the folder the build script passes in SDG_TEMPLATES.
    static let set: TemplateSet = {
        let folder = ProcessInfo.processInfo.environment["SDG_TEMPLATES"] ?? "Templates/mustache"
        var sources: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasSuffix(".mustache") {
            sources[String(name.dropLast(".mustache".count))] = try? String(
                contentsOfFile: folder + "/" + name, encoding: .utf8)
        }
        precondition(sources.count >= TemplateSet.requiredNames.count, "templates not found in \(folder)")
        return TemplateSet(sources: sources)
    }()
}
