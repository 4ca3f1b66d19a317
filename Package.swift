// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SwiftDataGen",
    // The tool runs on the developer's Mac; string algorithms of the standard library need 13.
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SwiftDataGenCore", targets: ["SwiftDataGenCore"]),
        .library(name: "SwiftDataGenDSL", targets: ["SwiftDataGenDSL"]),
        .library(name: "SwiftDataGenDiagrams", targets: ["SwiftDataGenDiagrams"]),
        .executable(name: "swiftdata-gen", targets: ["swiftdata-gen"]),
        .plugin(name: "SwiftDataGenPlugin", targets: ["SwiftDataGenPlugin"]),
        .plugin(name: "SwiftDataGenCommand", targets: ["SwiftDataGenCommand"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The DSL's key declarations, shared with the importer's package: a key added here does not
        // compile until the generator and the importer have each decided what it means.
        .target(name: "SwiftDataGenDSL"),
        .target(
            name: "SwiftDataGenCore",
            dependencies: ["CYaml", "SwiftDataGenDSL"]
        ),
        // Mermaid and DOT pictures of a version or a step, and the plan as Markdown: a renderer of
        // its own beside the core, built into the CLI.
        .target(
            name: "SwiftDataGenDiagrams",
            dependencies: ["SwiftDataGenCore"]
        ),
        .executableTarget(
            name: "swiftdata-gen",
            dependencies: ["SwiftDataGenCore", "SwiftDataGenDiagrams"]
        ),
        .executableTarget(
            name: "swiftdata-gen-bench",
            dependencies: ["SwiftDataGenCore", "SwiftDataGenDiagrams", "CYaml"]
        ),
        .plugin(
            name: "SwiftDataGenPlugin",
            capability: .buildTool(),
            dependencies: ["swiftdata-gen"]
        ),
        .plugin(
            name: "SwiftDataGenCommand",
            capability: .command(
                intent: .custom(verb: "swiftdata-gen", description: "Write the generated SwiftData sources into each target's Generated folder"),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated SwiftData sources into Generated/ inside each target")]
            ),
            dependencies: ["swiftdata-gen"]
        ),
        .testTarget(
            name: "SwiftDataGenCoreTests",
            dependencies: ["SwiftDataGenCore", "SwiftDataGenDSL", "SwiftDataGenDiagrams"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
