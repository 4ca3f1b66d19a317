// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SwiftDataGen",
    products: [
        .library(name: "SwiftDataGenCore", targets: ["SwiftDataGenCore"]),
        .executable(name: "swiftdata-gen", targets: ["swiftdata-gen"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(
            name: "SwiftDataGenTemplates",
            path: "Templates",
            resources: [.copy("mustache")]
        ),
        .target(
            name: "SwiftDataGenCore",
            dependencies: ["CYaml", "SwiftDataGenTemplates"]
        ),
        .executableTarget(
            name: "swiftdata-gen",
            dependencies: ["SwiftDataGenCore"]
        ),
        .testTarget(
            name: "SwiftDataGenCoreTests",
            dependencies: ["SwiftDataGenCore"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
