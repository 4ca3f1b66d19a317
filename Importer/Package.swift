// swift-tools-version: 6.1
import PackageDescription

// `import`: reads an app's SwiftData models with swift-syntax and writes the YAML history. A
// package of its own, so the generator, its plugin and README's two commands never fetch or build
// swift-syntax. Without a network, run ../shared/vendor/use-offline-mirrors.sh first.
let package = Package(
    name: "SwiftDataGenImporter",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "swiftdata-gen-import", targets: ["swiftdata-gen-import"])
    ],
    dependencies: [
        .package(name: "SwiftDataGen", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.2"),
    ],
    targets: [
        // Store inspection reads Core Data's SQLite stores with the system's SQLite.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Zlib inflates the model Core Data keeps in a store (`Z_MODELCACHE`).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(
            name: "SwiftDataGenImport",
            dependencies: [
                "CSQLite", "CZlib",
                .product(name: "SwiftDataGenDSL", package: "SwiftDataGen"),
                .product(name: "SwiftDataGenCore", package: "SwiftDataGen"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "swiftdata-gen-import",
            dependencies: ["SwiftDataGenImport"]
        ),
        .testTarget(
            name: "SwiftDataGenImportTests",
            dependencies: [
                "SwiftDataGenImport", "CSQLite", "CZlib", .product(name: "SwiftDataGenCore", package: "SwiftDataGen"),
                .product(name: "SwiftDataGenDSL", package: "SwiftDataGen"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
