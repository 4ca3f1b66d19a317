// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so the plugin's package is looked up by the
// name of the folder that holds this repository, whatever the clone was called.
let generatorFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "LibraryApp",
    platforms: [.iOS(.v18), .macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "LibraryApp",
            plugins: [.plugin(name: "SwiftDataGenPlugin", package: generatorFolder)]
        )
    ],
    swiftLanguageModes: [.v6]
)
