import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Apple's version hashes, reproduced: SHA-256 against the standard's examples, the recipe against
/// every Apple-computed entity hash in `Fixtures/VersionHash/apple-vectors.json` (each with its
/// source), and the SwiftData vectors again from YAML through the resolver.
final class VersionHashTests: XCTestCase {
    func testSHA256MatchesTheStandardsExamples() {
        func digest(_ bytes: [UInt8]) -> String {
            var hasher = SHA256()
            hasher.update(bytes)
            return VersionHashRecipe.hex(hasher.finalize())
        }
        XCTAssertEqual(digest([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(digest(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Fed in pieces across block boundaries: the same digest.
        var pieces = SHA256()
        for chunk in stride(from: 0, to: 1000, by: 37) {
            pieces.update([UInt8](repeating: UInt8(ascii: "a"), count: min(37, 1000 - chunk)))
        }
        XCTAssertEqual(
            VersionHashRecipe.hex(pieces.finalize()), digest([UInt8](repeating: UInt8(ascii: "a"), count: 1000)))
    }

    /// Core Data sorts names as `NSString compare:` does, by UTF-16 code unit; the recipe compares
    /// UTF-8 bytes and turns round the one case where the two orders differ.
    func testNamesSortByUTF16CodeUnits() {
        let pieces = ["a", "b", "é", "z", "\u{D7FF}", "\u{E000}", "\u{FF5E}", "\u{FFFD}", "\u{10000}", "\u{1F600}"]
        var names = [""] + pieces
        for first in pieces {
            for second in pieces { names += [first + second, first + second + first] }
        }
        for a in names {
            for b in names {
                XCTAssertEqual(
                    VersionHashRecipe.precedes(a, b), a.utf16.lexicographicallyPrecedes(b.utf16),
                    "\(a.unicodeScalars.map(\.value)) against \(b.unicodeScalars.map(\.value))")
            }
        }
        XCTAssertTrue(VersionHashRecipe.precedes("\u{1F600}", "\u{E000}"), "a surrogate pair sorts before U+E000")
        XCTAssertFalse(VersionHashRecipe.precedes("\u{E000}", "\u{1F600}"))
        XCTAssertTrue(VersionHashRecipe.precedes("Z", "a"))
        let long = ["updatedAt", "updatedAtLocal", "updatedA", "updatedB", "updatedAt\u{E000}", "updatedAt\u{1F600}"]
        for group in [names, long, long.filter { $0.utf8.allSatisfy { $0 < 0x80 } }, long.reversed() + pieces] {
            XCTAssertEqual(VersionHashRecipe.inNameOrder(group) { $0 }, group.sorted(by: VersionHashRecipe.precedes))
        }
    }

    func testBase64AndHexRoundTrip() {
        XCTAssertEqual(VersionHashRecipe.base64(Array("".utf8)), "")
        XCTAssertEqual(VersionHashRecipe.base64(Array("f".utf8)), "Zg==")
        XCTAssertEqual(VersionHashRecipe.base64(Array("fo".utf8)), "Zm8=")
        XCTAssertEqual(VersionHashRecipe.base64(Array("foobar".utf8)), "Zm9vYmFy")
        let hash = (0..<32).map { UInt8($0 * 7) }
        XCTAssertEqual(VersionHashRecipe.hash(hex: VersionHashRecipe.hex(hash)), hash)
        XCTAssertNil(VersionHashRecipe.hash(hex: "zz" + String(repeating: "0", count: 62)))
    }

    /// Every Apple-computed entity hash of the vectors, from the Core Data model it was computed from.
    func testEveryAppleVectorIsReproducedAtTheCoreDataLevel() throws {
        let vectors = try Self.vectors()
        var reproduced = 0
        for vector in vectors {
            let identity = StoreIdentity(entities: vector.entities)
            for (entity, expected) in vector.expected {
                XCTAssertEqual(identity.entityHashes[entity], expected, "\(vector.source): \(entity)")
                reproduced += 1
            }
        }
        XCTAssertEqual(reproduced, 18, "the fixture holds 18 Apple-computed hashes")
    }

    /// A detail the recipe must get right changes an Apple vector's hash: the check above would
    /// catch a recipe that left it out.
    func testEachHashedDetailMovesAVectorsHash() throws {
        let vectors = try Self.vectors()
        let dogs = try XCTUnwrap(vectors.first { $0.expected["Dog"] != nil })
        let base = StoreIdentity(entities: dogs.entities).entityHashes
        func changed(_ edit: (inout [CoreDataEntity]) -> Void) -> [String: String] {
            var entities = dogs.entities
            edit(&entities)
            return StoreIdentity(entities: entities).entityHashes
        }
        // A parent's change reaches its child; a destination's does not reach the relationship's owner.
        let animal = changed { $0[0].properties[0].isOptional.toggle() }
        XCTAssertNotEqual(animal["Dog"], base["Dog"])
        XCTAssertEqual(animal["Person"], base["Person"])
        // Ordered, inverse and counts are hashed.
        let unordered = changed { entities in
            guard case .relationship(var r) = entities[1].properties[2].kind else { return }
            r.isOrdered = false
            entities[1].properties[2].kind = .relationship(r)
        }
        XCTAssertNotEqual(unordered["Dog"], base["Dog"])
        XCTAssertEqual(changed { $0[2].hashModifier = "x" }["Animal"], base["Animal"])
        XCTAssertNotEqual(changed { $0[2].hashModifier = "x" }["Person"], base["Person"])
        // Declaration order of properties does not matter; of a constraint's names it does.
        XCTAssertEqual(changed { $0[2].properties.reverse() }["Person"], base["Person"])
        let shielded = try XCTUnwrap(vectors.first { $0.expected["PersistentShieldedSyncState"] != nil })
        var reversed = shielded.entities
        reversed[0].uniquenessConstraints = reversed[0].uniquenessConstraints.map { $0.reversed() }
        XCTAssertNotEqual(
            StoreIdentity(entities: reversed).entityHashes["PersistentShieldedSyncState"],
            shielded.expected["PersistentShieldedSyncState"])
    }

    /// The SwiftData vectors written as YAML, the way an app team would: the resolver builds the
    /// Core Data model SwiftData would, and its hashes are Apple's, in both versions of the golden.
    func testSwiftDataVectorsFromYAML() throws {
        let expected = try Self.vectors().reduce(into: [String: String]()) { $0.merge($1.expected) { a, _ in a } }
        let history = try Self.dashpayHistory()
        XCTAssertEqual(history.versions.count, 2)
        for version in history.versions {
            let identity = StoreIdentity(version, naming: history.config.naming)
            for entity in Self.dashpayEntities {
                XCTAssertEqual(identity.entityHashes[entity], expected[entity], "\(version.version) \(entity)")
            }
            XCTAssertEqual(identity.versionChecksum.utf8.count, 44)
        }
    }

    /// A store SwiftData wrote in 2024, written as YAML the way its app declares the models: no
    /// relationship names an inverse, and SwiftData paired the two pairs that are each other's only
    /// candidate. The paired reading is the store's, hash for hash and checksum.
    func testAStoreSwiftDataWroteIsThePairedReadingOfItsModels() throws {
        let yaml = """
            schema: RM
            version: 1.0.0
            models:
              Item:
                properties:
                  name: { type: String, unique: true }
                  craftingRecipe: { type: CraftingRecipe?, inverse: false }
              Component:
                properties:
                  id: { type: UUID, expression: "UUID()" }
                  count: { type: Int, default: 1 }
                  item: { type: Item?, inverse: false }
                  craftingRecipe: { type: CraftingRecipe?, inverse: false }
              CraftingRecipe:
                properties:
                  requiredComponents: { type: "[Component]", inverse: false }
                  producedItemCount: { type: String, default: "1" }
                  producedItem: { type: Item?, inverse: false }

            """
        let sources = SchemaSources(
            config: nil,
            versions: [SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml.utf8))])
        let (histories, diagnostics) = Generator.validate(sources)
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        let history = try XCTUnwrap(histories.first)
        let identity = StoreIdentity(try XCTUnwrap(history.versions.first), naming: history.config.naming)
        let vector = try XCTUnwrap(try Self.vectors().first { $0.expected["CraftingRecipe"] != nil })
        // Plain, optional, each the other's only candidate: SwiftData's rule pairs both pairs.
        XCTAssertEqual(identity.entityHashes, vector.expected)
        XCTAssertEqual(identity.versionChecksum, "6T24D3nNvz6qsg0dO7y7IA3tlbZ0QpK/AwmP5KiXXgw=")
        XCTAssertNil(identity.pairedReading, "no pair here is one the evidence leaves open")
        XCTAssertFalse(identity.unprovedRows.contains(.undeclaredInversePair))
    }

    static let dashpayEntities = [
        "PersistentWalletManagerMetadata", "PersistentShieldedSyncState", "PersistentDashpayIgnoredSender",
    ]

    /// The golden `identity-apple-vectors`: the dashpay models as YAML. Being a golden, it is also
    /// generated, compiled against the stand-in and upgraded, and the stand-in's hashes of the
    /// compiled classes must equal the generator's (`SimulatorTests`): Apple's, by this test.
    static func dashpayHistory() throws -> SchemaHistory {
        let input = GoldenTests.folder("identity-apple-vectors").appendingPathComponent("input").path
        let (histories, diagnostics) = Generator.validate(try SchemaLoader.read(directory: input).get())
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        return try XCTUnwrap(histories.first)
    }

    struct UnknownKind: Error {
        var kind: String
    }

    struct Vector {
        var source: String
        var entities: [CoreDataEntity]
        var expected: [String: String]
    }

    /// The fixture's models in Core Data's terms.
    static func vectors() throws -> [Vector] {
        let url = TestPaths.fixtures.appendingPathComponent("VersionHash/apple-vectors.json")
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let list = try XCTUnwrap(root["vectors"] as? [[String: Any]])
        return try list.map { vector in
            let entities = try XCTUnwrap(vector["entities"] as? [[String: Any]]).map { entity in
                CoreDataEntity(
                    name: try XCTUnwrap(entity["name"] as? String), parent: entity["parent"] as? String,
                    properties: try XCTUnwrap(entity["properties"] as? [[String: Any]]).map(property),
                    uniquenessConstraints: entity["uniquenessConstraints"] as? [[String]] ?? [])
            }
            return Vector(
                source: try XCTUnwrap(vector["source"] as? String), entities: entities,
                expected: try XCTUnwrap(vector["expected"] as? [String: String]))
        }
    }

    private static func property(_ json: [String: Any]) throws -> CoreDataProperty {
        let name = try XCTUnwrap(json["name"] as? String)
        let optional = try XCTUnwrap(json["optional"] as? Bool)
        let transient = json["transient"] as? Bool ?? false
        switch json["kind"] as? String {
        case "attribute":
            let raw = try XCTUnwrap(json["attributeType"] as? Int)
            let type = try XCTUnwrap(CoreDataAttributeType(rawValue: UInt32(raw)), "attribute type \(raw)")
            return CoreDataProperty(
                name: name, isOptional: optional, isTransient: transient,
                kind: .attribute(type, externalStorage: false, preservedOnDeletion: false))
        case "relationship":
            return CoreDataProperty(
                name: name, isOptional: optional, isTransient: transient,
                kind: .relationship(
                    CoreDataRelationship(
                        destination: try XCTUnwrap(json["destination"] as? String), inverse: json["inverse"] as? String,
                        minCount: try XCTUnwrap(json["minCount"] as? Int),
                        maxCount: try XCTUnwrap(json["maxCount"] as? Int),
                        isOrdered: json["ordered"] as? Bool ?? false)))
        case let other:
            throw UnknownKind(kind: "\(other ?? "none")")
        }
    }
}
