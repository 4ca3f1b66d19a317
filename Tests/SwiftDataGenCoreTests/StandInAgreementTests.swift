import Foundation
import XCTest

@testable import SwiftDataGenCore

/// The stand-in (Tests/StandIn) against Apple's SwiftData interface, both read by the toolchain's
/// `swift-api-digester`: every public declaration of the stand-in's own (not its underscored
/// simulator machinery) must be one Apple's SDK declares, of the same kind, with the same
/// signature, generic requirements and iOS availability, and no conformance Apple's lacks — so the
/// stand-in cannot accept what Xcode refuses through a declaration Apple does not have. It is
/// compared with the oldest SDK (17.4), 26.2 and the newest (27.0): with an older SDK a declaration
/// available only after its release (`#Unique` in 17.4, `.codable` in 26.2) is listed, not
/// compared; with 27.0 every declaration is compared.
/// What Apple declares and the stand-in leaves out is counted: generated code that used it would
/// fail the stand-in's type-check, which runs over the same files.
final class StandInAgreementTests: XCTestCase {
    /// Apple's SwiftData and the stand-in as the API digester reads them, side by side (made by the
    /// suite's prefetch when the whole suite runs).
    static let compared: [AppleSDK.Kind] = [.iOS17, .iOS26, .iOS27]

    static let dumps = SharedResult<(apple: [AppleSDK.Kind: (sdk: AppleSDK, dump: APIDump)], standIn: APIDump)> {
        let (sdks, absent) = try AppleSDK.readyAll(compared)
        guard absent.isEmpty else {
            throw XCTSkip(
                "the stand-in is compared with 17.4, 26.2 and 27.0 together: "
                    + absent.values.sorted().joined(separator: "; "))
        }
        let standInFolder = TestPaths.packageRoot.appendingPathComponent(".build/standin").path
        _ = try StandInTypeCheckTests.standInFlags()
        let jobs: [(kind: AppleSDK.Kind?, flags: [String])] =
            compared.compactMap { kind in
                sdks[kind].map { sdk in
                    let flags = sdk.flags.enumerated().filter { index, flag in
                        flag != "-load-plugin-library" && (index == 0 || sdk.flags[index - 1] != "-load-plugin-library")
                    }.map(\.element)
                    return (kind, flags + ["-target", sdk.kind.target(floor: sdk.major)])
                }
            } + [(nil, ["-I", standInFolder])]
        let dumps = jobs.parallelMap { job in Result { try APIDump.read(flags: job.flags) } }
        var apple: [AppleSDK.Kind: (sdk: AppleSDK, dump: APIDump)] = [:]
        for (job, dump) in zip(jobs, dumps) {
            if let kind = job.kind, let sdk = sdks[kind] { apple[kind] = (sdk, try dump.get()) }
        }
        return (apple, try dumps[dumps.count - 1].get())
    }

    override class func setUp() {
        super.setUp()
        SuitePrefetch.startForTheWholeSuite()
    }

    func testTheStandInDeclaresOnlyWhatApplesSwiftDataDeclares() throws {
        let (dumps, standIn) = try Self.dumps.get()
        let newest = try XCTUnwrap(dumps[.iOS27], "no dump of the newest SDK").dump
        for kind in Self.compared {
            let (sdk, apple) = try XCTUnwrap(dumps[kind], "no dump of \(kind)")
            compare(standIn, with: apple, of: sdk, newest: newest)
        }
    }

    /// The stand-in follows the newest SDK. Against an older one, an aspect in which it agrees with
    /// the newest is a change Apple made since (listed, not a difference): AppleSDKTypeCheckTests
    /// checks every floor-17 output against 17.4 itself, so the stand-in cannot let one through.
    private func compare(_ standIn: APIDump, with apple: APIDump, of sdk: AppleSDK, newest: APIDump) {
        var differences: [String] = []
        var changedSince: [String] = []
        var newer: [String] = []
        var compared = 0
        for (path, declaration) in standIn.declarations.sorted(by: { $0.key < $1.key }) {
            guard !declaration.isExternalType, !APIDump.isMachinery(path) else { continue }
            guard let real = apple.declarations[path] else {
                if let introduced = declaration.introducediOS, introduced > sdk.major {
                    newer.append("\(path) (iOS \(introduced))")
                } else {
                    differences.append("\(path): \(sdk.name)'s SwiftData declares no such \(declaration.kind)")
                }
                continue
            }
            compared += 1
            let sinceChanged = Set(
                newest.declarations[path].map { Self.mismatches(declaration, $0).map(\.aspect) } ?? [])
            for (aspect, message) in Self.mismatches(declaration, real) {
                if newest.declarations[path] != nil && !sinceChanged.contains(aspect) {
                    changedSince.append("\(path) (\(aspect))")
                } else {
                    differences.append("\(path): \(message) in \(sdk.name)'s SwiftData")
                }
            }
        }
        let appleOnly = apple.declarations.keys.filter { standIn.declarations[$0] == nil && !APIDump.isMachinery($0) }
        print(
            "stand-in agreement: \(compared) declarations compared with \(sdk.name), \(differences.count) differ; "
                + "newer than the SDK: \(newer.isEmpty ? "none" : newer.joined(separator: ", ")); "
                + "changed by Apple since: \(changedSince.isEmpty ? "none" : changedSince.joined(separator: ", ")); "
                + "\(appleOnly.count) of Apple's not in the stand-in")
        XCTAssertGreaterThanOrEqual(compared, 40, "the stand-in's declarations were not read")
        XCTAssertTrue(
            differences.isEmpty,
            "the stand-in differs from \(sdk.name)'s SwiftData:\n" + differences.joined(separator: "\n"))
    }

    /// How the stand-in's declaration differs from Apple's, by aspect.
    static func mismatches(_ mine: APIDump.Declaration, _ real: APIDump.Declaration)
        -> [(aspect: String, message: String)]
    {
        var found: [(aspect: String, message: String)] = []
        if mine.kind != real.kind {
            found.append(("kind", "a \(mine.kind) here, a \(real.kind)"))
        }
        if mine.signature != real.signature {
            found.append(("signature", "`\(mine.signature)` here, `\(real.signature)`"))
        }
        if mine.genericSignature != real.genericSignature {
            found.append(
                (
                    "generic requirements",
                    "generic requirements `\(mine.genericSignature)` here, `\(real.genericSignature)`"
                ))
        }
        if mine.introducediOS != real.introducediOS {
            found.append(
                (
                    "availability",
                    "available from iOS \(mine.introducediOS.map(String.init) ?? "any") here, from iOS "
                        + "\(real.introducediOS.map(String.init) ?? "any")"
                ))
        }
        let extra = mine.conformances.subtracting(real.conformances)
        if !extra.isEmpty {
            found.append(("conformances", "conforms to \(extra.sorted().joined(separator: ", ")) here, not"))
        }
        return found
    }

    /// What a client sees by importing SwiftData alone: the modules each re-exports. The API
    /// comparison does not read imports, and a stand-in that re-exported Foundation accepted files
    /// that name `Date` without importing Foundation, which Xcode refuses.
    func testTheStandInReExportsWhatApplesSwiftDataReExports() throws {
        for kind in Self.compared { try checkReExports(of: try AppleSDK.shared(kind)) }
    }

    private func checkReExports(of sdk: AppleSDK) throws {
        guard let index = sdk.flags.firstIndex(of: "-sdk"), index + 1 < sdk.flags.count else {
            return XCTFail("the SDK's flags name no -sdk")
        }
        let module = URL(fileURLWithPath: sdk.flags[index + 1])
            .appendingPathComponent("System/Library/Frameworks/SwiftData.framework/Modules/SwiftData.swiftmodule")
        let interface = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: module.path).sorted().first {
                $0.hasSuffix(".swiftinterface") && !$0.hasSuffix(".private.swiftinterface")
            }, "no interface in \(module.path)")
        func reExports(_ text: String) -> Set<String> {
            Set(text.matches(of: /(?m)^@_exported (?:public )?import (\w+)/).map { String($0.1) })
        }
        let apple = reExports(try String(contentsOf: module.appendingPathComponent(interface), encoding: .utf8))
        let folder = TestPaths.packageRoot.appendingPathComponent("Tests/StandIn/SwiftData")
        var standIn: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            standIn.formUnion(reExports(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
        }
        XCTAssertFalse(apple.isEmpty, "Apple's interface re-exports nothing: the pattern no longer reads it")
        XCTAssertEqual(standIn, apple, "the stand-in re-exports other modules than \(sdk.name)'s SwiftData")
    }

    /// The comparison itself has teeth: a declaration Apple's SwiftData lacks, a wrong kind and an
    /// extra conformance are each found.
    func testADifferenceFromApplesSwiftDataIsFound() throws {
        let apple = APIDump(json: [
            "children": [
                ["kind": "TypeDecl", "declKind": "Struct", "printedName": "ModelConfiguration", "intro_iOS": "17"]
            ]
        ])
        let standIn = APIDump(json: [
            "children": [
                [
                    "kind": "TypeDecl", "declKind": "Class", "printedName": "ModelConfiguration", "intro_iOS": "17",
                    "conformances": [["name": "Sendable"]],
                ],
                ["kind": "TypeDecl", "declKind": "Struct", "printedName": "_StandInBacking"],
            ]
        ])
        let mine = try XCTUnwrap(standIn.declarations["ModelConfiguration"])
        let theirs = try XCTUnwrap(apple.declarations["ModelConfiguration"])
        XCTAssertNotEqual(mine.kind, theirs.kind)
        XCTAssertEqual(mine.conformances.subtracting(theirs.conformances), ["Sendable"])
        XCTAssertTrue(APIDump.isMachinery("_StandInBacking"))
        XCTAssertTrue(APIDump.isMachinery("String.init(_stored:)"))
        XCTAssertFalse(APIDump.isMachinery("ModelConfiguration.init(_:schema:url:allowsSave:cloudKitDatabase:)"))
    }
}

/// A module's public declarations by path (`Schema.Attribute.Option.unique`), as
/// `swift-api-digester -dump-sdk` reports them.
struct APIDump {
    struct Declaration {
        var kind: String
        var signature: String
        var genericSignature: String
        var introducediOS: Int?
        var conformances: Set<String>
        var isExternalType: Bool
    }

    var declarations: [String: Declaration] = [:]

    /// Conformances every type has or the compiler adds by itself.
    static let implicitConformances: Set<String> = [
        "Copyable", "Escapable", "SendableMetatype", "BitwiseCopyable",
    ]

    static func read(flags: [String]) throws -> APIDump {
        let output = try AppleSDK.scratchFolder("api").appendingPathComponent("\(UUID().uuidString).json")
        let arguments =
            ["-dump-sdk", "-module", "SwiftData", "-o", output.path] + flags
            + (flags.contains("-module-cache-path") ? [] : ["-module-cache-path", AppleSDK.moduleCache.path])
        #if os(macOS)
            let result = try StandInTypeCheckTests.run("/usr/bin/xcrun", ["swift-api-digester"] + arguments)
        #else
            let result = try StandInTypeCheckTests.runTool(["swift-api-digester"] + arguments)
        #endif
        guard result.status == 0 else {
            throw AppleSDK.CheckError("swift-api-digester failed:\n\(result.output)")
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        guard let root = json?["ABIRoot"] as? [String: Any] else {
            throw AppleSDK.CheckError("swift-api-digester wrote no ABIRoot")
        }
        return APIDump(json: root)
    }

    init(json root: [String: Any]) {
        walk(root, prefix: "", introduced: nil)
    }

    /// A member without availability of its own has its type's.
    private mutating func walk(_ node: [String: Any], prefix: String, introduced inherited: Int?) {
        for child in node["children"] as? [[String: Any]] ?? [] {
            guard let kind = child["declKind"] as? String, kind != "Import",
                let name = child["printedName"] as? String
            else { continue }
            let path = prefix + name + (child["static"] as? Bool == true ? " (static)" : "")
            let types = (child["children"] as? [[String: Any]] ?? []).first {
                ["TypeFunc", "TypeNominal", "TypeNameAlias"].contains($0["kind"] as? String ?? "")
            }
            let introduced = (child["intro_iOS"] as? String).flatMap { Int($0.prefix { $0 != "." }) } ?? inherited
            let declaration = Declaration(
                kind: kind,
                signature: Self.normalised(types?["printedName"] as? String ?? ""),
                genericSignature: Self.normalised(child["genericSig"] as? String ?? ""),
                introducediOS: introduced,
                conformances: Set(
                    (child["conformances"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                ).subtracting(Self.implicitConformances),
                isExternalType: child["isExternal"] as? Bool == true)
            record(declaration, at: path)
            walk(child, prefix: prefix + name + ".", introduced: introduced)
        }
    }

    /// Overloads that share a path (`#Index`'s two forms) are each kept under the path and their
    /// signature, so that each is compared with its own.
    private mutating func record(_ declaration: Declaration, at path: String) {
        if let first = declarations[path], first.signature != declaration.signature {
            declarations[path] = nil
            declarations["\(path) #\(first.signature)"] = first
        }
        if declarations[path] == nil, declarations.keys.contains(where: { $0.hasPrefix(path + " #") }) {
            declarations["\(path) #\(declaration.signature)"] = declaration
        } else {
            declarations[path] = declaration
        }
    }

    /// Foundation's types live in `FoundationEssentials` and `FoundationInternationalization` on
    /// Linux and in `Foundation` in Apple's SDK: one spelling for both.
    static func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: "FoundationEssentials.", with: "Foundation.")
            .replacingOccurrences(of: "FoundationInternationalization.", with: "Foundation.")
    }

    /// The stand-in's own machinery: a name, or an argument label, that starts with `_` or `$`.
    static func isMachinery(_ path: String) -> Bool {
        path.split(separator: ".").contains { component in
            component.hasPrefix("_") || component.hasPrefix("$") || component.firstMatch(of: /[(:]_[A-Za-z$]/) != nil
        }
    }
}
