// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Trips",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/<owner>/SwiftDataGen", from: "0.1.0")
    ],
    targets: [
        .target(
            name: "Trips",
            plugins: [.plugin(name: "SwiftDataGenPlugin", package: "SwiftDataGen")]
        ),
        .testTarget(name: "TripsTests", dependencies: ["Trips"]),
    ]
)
