import Foundation
import SwiftDataGenCore
import XCTest

@testable import SwiftDataGenImport

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Amplification, races and terminal tricks in stores and their property lists: each is read
/// within `ReadingBudget` or refused in words, never a crash, a hang or text that reaches the
/// terminal raw. Time and memory are measured by `scripts/hostile-inputs.sh`, not here.
final class HostileStoreTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: work) }

    /// A store with one entity table and the given `Z_METADATA` bytes.
    func store(_ name: String, metadata: [UInt8], extraSQL: String = "") throws -> String {
        let path = work.appendingPathComponent(name).path
        var database: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &database), SQLITE_OK)
        defer { sqlite3_close(database) }
        let sql = """
            CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Trip', 0, 0);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            \(extraSQL)
            """
        XCTAssertEqual(sqlite3_exec(database, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(database)))
        var statement: OpaquePointer?
        XCTAssertEqual(
            sqlite3_prepare_v2(database, "INSERT INTO Z_METADATA VALUES (1, 'u', ?)", -1, &statement, nil), SQLITE_OK)
        _ = metadata.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32(metadata.count), nil) }
        XCTAssertEqual(sqlite3_step(statement), SQLITE_DONE)
        sqlite3_finalize(statement)
        return path
    }

    /// Metadata naming Trip's hash, plus whatever `extra` adds to the top dictionary.
    func metadata(_ extra: (inout PropertyListBuilder) -> [(Int, Int)] = { _ in [] }) -> [UInt8] {
        var list = PropertyListBuilder()
        let hash = list.data([UInt8](repeating: 7, count: 32))
        let trip = list.string("Trip")
        let hashes = list.dictionary([(trip, hash)])
        let key = list.string("NSStoreModelVersionHashes")
        let more = extra(&list)
        let top = list.dictionary([(key, hashes)] + more)
        return list.bytes(top: top)
    }

    func testAnObjectReferredToManyTimesIsReadOnceAndShared() throws {
        var list = PropertyListBuilder()
        let large = list.data([UInt8](repeating: 1, count: 4 << 20))
        let top = list.array([Int](repeating: large, count: 2_000))
        let items = try XCTUnwrap(BinaryPropertyList.parse(list.bytes(top: top))?.array)
        XCTAssertEqual(items.count, 2_000)
        // 2,000 copies would be 8 GiB; one buffer is shared by every reference.
        let addresses = Set(
            items.map { item -> Int in
                guard case .data(let bytes) = item else { return 0 }
                return bytes.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
            })
        XCTAssertEqual(addresses.count, 1)
    }

    func testMetadataOfThreeLevelsOfThousandsOfReferencesIsReadOnce() throws {
        let bytes = metadata { list in
            let leaf = list.string(String(repeating: "x", count: 1_000))
            let third = list.array([Int](repeating: leaf, count: 3_000))
            let second = list.array([Int](repeating: third, count: 3_000))
            let first = list.array([Int](repeating: second, count: 3_000))
            return [(list.string("Bomb"), first)]
        }
        XCTAssertLessThan(bytes.count, 40_000)
        let contents = try StoreFile.read(try store("bomb.store", metadata: bytes))
        XCTAssertEqual(contents.metadata.versionHashes.keys.sorted(), ["Trip"])
    }

    /// Objects read once are reused only where they fit under the depth limit, so sharing cannot
    /// build a value nested deeper than a property list may be.
    func testSharingNeverNestsDeeperThanTheLimit() throws {
        var list = PropertyListBuilder()
        var chain = list.string("leaf")
        var links: [Int] = []
        for _ in 0..<(ReadingBudget.propertyListDepth - 2) {
            chain = list.array([chain])
            links.append(chain)
        }
        // The middle of the chain is read first (and kept), then reached again from the whole chain
        // under a wrapper: the second reading would pass the limit.
        let middle = links[links.count / 2]
        let top = list.array([middle, list.array([list.array([chain])])])
        XCTAssertNil(BinaryPropertyList.parse(list.bytes(top: top)))
        let fits = list.array([middle, chain])
        XCTAssertNotNil(BinaryPropertyList.parse(list.bytes(top: fits)))
    }

    /// A keyed archive of a model, `entities` references to one entity of `properties` attributes.
    func modelArchive(entities: Int, properties: Int) -> [UInt8] {
        var list = PropertyListBuilder()
        let null = list.string("$null")
        let className = list.string("NSAttributeDescription")
        let classKey = list.string("$classname")
        let attributeClass = list.dictionary([(classKey, className)])
        let name = list.string("title")
        let type = list.integer(700)
        let keys = [
            "NSPropertyName", "$class", "NSAttributeType", "NS.objects", "NSEntityName", "NSProperties",
            "NSEntities", "$objects", "$top", "root",
        ].map { list.string($0) }
        // $objects: 0 null, 1 root, 2 entity list, 3 entity, 4 entity name, 5 property list,
        // 6 property, 7 property name, 8 its class.
        let propertyObject = list.dictionary([(keys[0], list.uid(7)), (keys[1], list.uid(8)), (keys[2], type)])
        let propertyList = list.dictionary([(keys[3], list.array([Int](repeating: list.uid(6), count: properties)))])
        let entity = list.dictionary([(keys[4], list.uid(4)), (keys[5], list.uid(5))])
        let entityList = list.dictionary([(keys[3], list.array([Int](repeating: list.uid(3), count: entities)))])
        let root = list.dictionary([(keys[6], list.uid(2))])
        let objects = list.array([
            null, root, entityList, entity, list.string("Trip"), propertyList, propertyObject, name, attributeClass,
        ])
        let top = list.dictionary([(keys[7], objects), (keys[8], list.dictionary([(keys[9], list.uid(1))]))])
        return list.bytes(top: top)
    }

    func testAModelArchiveIsWalkedWithinItsBudget() throws {
        let within = try XCTUnwrap(BinaryPropertyList.parse(modelArchive(entities: 100, properties: 9_000)))
        XCTAssertEqual(StoreModel(archive: within)?.entities.count, 100)
        XCTAssertEqual(StoreModel(archive: within)?.entities.first?.attributes.count, 9_000)
        // 2,000 × 2,000 references: four million members from a few kilobytes.
        let amplified = try XCTUnwrap(BinaryPropertyList.parse(modelArchive(entities: 2_000, properties: 2_000)))
        XCTAssertNil(StoreModel(archive: amplified))
    }

    func testAFrameworkVersionThatIsNoWholeNumberIsNotOne() throws {
        let bytes = metadata { list in [(list.string("NSPersistenceFrameworkVersion"), list.real(1e300))] }
        XCTAssertNil(try StoreFile.read(try store("real.store", metadata: bytes)).metadata.frameworkVersion)
        let whole = metadata { list in [(list.string("NSPersistenceFrameworkVersion"), list.real(1341))] }
        XCTAssertEqual(try StoreFile.read(try store("whole.store", metadata: whole)).metadata.frameworkVersion, 1341)
    }

    func testLinksAndCompanionsSayWhatTheyAre() throws {
        let real = try store("real.store", metadata: metadata())
        let link = work.appendingPathComponent("link.store").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        XCTAssertEqual(try StoreFile.read(link).metadata.versionHashes.count, 1, "a link to a store is read")
        let fifo = work.appendingPathComponent("fifo.store").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try StoreFile.read(fifo)) {
            XCTAssertEqual($0 as? StoreFailure, .notAFile(fifo, kind: .pipe))
        }
        XCTAssertThrowsError(try StoreFile.read(work.path)) {
            XCTAssertTrue("\($0)".contains("a folder, not a file"), "\($0)")
        }
        try FileManager.default.createDirectory(atPath: real + "-wal", withIntermediateDirectories: false)
        XCTAssertThrowsError(try StoreFile.read(real)) {
            XCTAssertEqual($0 as? StoreFailure, .companionNotAFile(real + "-wal", kind: .folder))
        }
        try FileManager.default.removeItem(atPath: real + "-wal")
        try FileManager.default.createSymbolicLink(atPath: real + "-wal", withDestinationPath: work.path + "/nowhere")
        XCTAssertThrowsError(try StoreFile.read(real)) {
            XCTAssertEqual($0 as? StoreFailure, .companionNotAFile(real + "-wal", kind: .link))
        }
        try FileManager.default.removeItem(atPath: real + "-wal")
        let log = work.appendingPathComponent("log").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: log))
        try FileManager.default.createSymbolicLink(atPath: real + "-wal", withDestinationPath: log)
        XCTAssertThrowsError(try StoreFile.read(real)) { XCTAssertEqual($0 as? StoreFailure, .writeAheadLog(real)) }
    }

    func testStoreTextReachesTheTerminalEscaped() throws {
        let hostile = "ZEVIL\n  warning: forged\u{1b}]0;retitled\u{7}"
        let path = try store(
            "evil\u{1b}[2J.store", metadata: metadata(),
            extraSQL: "CREATE TABLE \"\(hostile)\" (Z_PK INTEGER PRIMARY KEY, \"ZCOL\u{1b}[31m\" VARCHAR);")
        let report = StoreReport(try StoreFile.read(path), histories: nil)
        XCTAssertFalse(report.text.contains("\u{1b}"), report.text)
        XCTAssertFalse(report.text.split(separator: "\n").contains { $0.hasPrefix("  warning: forged") }, report.text)
        XCTAssertTrue(report.text.contains("ZEVIL\\n  warning: forged\\u{1b}]0;retitled\\u{7}"), report.text)
        XCTAssertTrue(report.json.contains("\\u001b"), "JSON escapes on its own")
        XCTAssertEqual(
            TerminalText.shown(String(repeating: "n", count: 5_000), limit: 10), "nnnnnnnnnn… (5000 characters)")
    }

    /// Each store limit of `ReadingBudget`, just over: a clear refusal, or (for the kept model,
    /// which is optional) a store read without it.
    func testJustOverEachStoreLimitIsRefusedInWords() throws {
        func blob(_ path: String, _ sql: String, _ bytes: [UInt8]) {
            var database: OpaquePointer?
            XCTAssertEqual(sqlite3_open(path, &database), SQLITE_OK)
            defer { sqlite3_close(database) }
            var statement: OpaquePointer?
            XCTAssertEqual(sqlite3_prepare_v2(database, sql, -1, &statement, nil), SQLITE_OK)
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32(bytes.count), nil) }
            XCTAssertEqual(sqlite3_step(statement), SQLITE_DONE)
            sqlite3_finalize(statement)
        }
        func refusal(_ path: String) -> String {
            do {
                _ = try StoreFile.read(path)
                return "read"
            } catch { return error.description }
        }
        let tables = (0...ReadingBudget.storeTables).map { "CREATE TABLE ZT\($0) (Z_PK INTEGER PRIMARY KEY);" }
        let manyTables = try store(
            "tables.store", metadata: metadata(), extraSQL: "BEGIN;" + tables.joined() + "COMMIT;")
        XCTAssertTrue(refusal(manyTables).contains("tables is beyond what a store's schema holds"), refusal(manyTables))
        let rows = (0..<ReadingBudget.queryRows).map { "INSERT INTO Z_PRIMARYKEY VALUES (\($0 + 2), 'T', 0, 0);" }
        let manyRows = try store("rows.store", metadata: metadata(), extraSQL: "BEGIN;" + rows.joined() + "COMMIT;")
        XCTAssertTrue(refusal(manyRows).contains("a schema query's answer is beyond"), refusal(manyRows))
        let large = try store("large.store", metadata: [0])
        blob(
            large, "UPDATE Z_METADATA SET Z_PLIST = ?", [UInt8](repeating: 0, count: ReadingBudget.storeValueBytes + 1))
        XCTAssertTrue(refusal(large).contains("-byte Z_METADATA value is beyond"), refusal(large))
        let inflated = try store(
            "inflated.store", metadata: metadata(), extraSQL: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);")
        let bomb = try XCTUnwrap(
            StoreModelTests.deflated([UInt8](repeating: 0, count: ReadingBudget.inflatedModelBytes + 1)))
        blob(inflated, "INSERT INTO Z_MODELCACHE VALUES (?)", bomb)
        let contents = try StoreFile.read(inflated)
        XCTAssertNil(contents.model)
        XCTAssertTrue(contents.modelCacheUnreadable)
        let elements = "<model>" + String(repeating: "<a/>", count: ReadingBudget.xmlElements) + "</model>"
        guard case .failure(let error) = XMLReader.parse(Array(elements.utf8), file: "contents") else {
            return XCTFail("read")
        }
        XCTAssertTrue("\(error)".contains("more than \(ReadingBudget.xmlElements) elements"), "\(error)")
    }

    /// The draft `store --output` writes for a store without a kept model, over random entity and
    /// column names (line breaks, `#`, quotes, colons, control characters, non-ASCII): it always
    /// parses back to exactly the models and properties the store has, nothing added by a name.
    func testTheDraftOfAStoreParsesBackToItsOwnNamesWhateverTheyHold() throws {
        var random = SystemRandomNumberGenerator()
        let pool: [Character] = [
            "a", "B", "z", "_", "1", "\n", "#", ":", "\"", "'", " ", "-", "{", "[", "\u{1b}", "\t", "é", "?",
        ]
        func name() -> String {
            "A"
                + String(
                    (0..<Int.random(in: 1...8, using: &random)).map { _ in pool.randomElement(using: &random) ?? "a" })
        }
        for round in 0..<40 {
            let entities = Array(Set((0..<3).map { _ in name() }))
            var sql = ""
            var expected: [String: Set<String>] = [:]
            for (number, entity) in entities.enumerated() {
                let table = "Z" + entity.uppercased()
                let columns = Array(Set((0..<3).map { _ in "Z" + name().uppercased() }))
                expected[entity] = Set(columns.map { String($0.dropFirst()).lowercased() })
                let quoted = { (text: String) in "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
                sql +=
                    "CREATE TABLE \(quoted(table)) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"
                    + columns.map { ", \(quoted($0)) VARCHAR" }.joined() + ");"
                sql +=
                    "INSERT INTO Z_PRIMARYKEY VALUES (\(number + 2), '\(entity.replacingOccurrences(of: "'", with: "''"))', 0, 0);"
            }
            let path = try store("s\(round)\n# x: y.store", metadata: metadata(), extraSQL: sql)
            let draft = StoreReport(try StoreFile.read(path), histories: nil).versionYAML(schema: "Recovered")
            let (root, problems) = YAMLParser.parse(Array(draft.utf8), file: "draft")
            XCTAssertFalse(problems.hasErrors, draft)
            guard case .mapping(let top)? = root?.content else { return XCTFail(draft) }
            XCTAssertEqual(top.compactMap(\.key.scalar?.value), ["schema", "version", "models"], draft)
            guard case .mapping(let models)? = top.last?.value.content else { return XCTFail(draft) }
            var read: [String: Set<String>] = [:]
            for model in models {
                guard case .mapping(let keys) = model.value.content,
                    case .mapping(let properties)? = keys.first(where: { $0.key.scalar?.value == "properties" })?.value
                        .content
                else { return XCTFail(draft) }
                read[model.key.scalar?.value ?? ""] = Set(properties.compactMap(\.key.scalar?.value))
            }
            // Trip is the store's own entity of `store(_:metadata:)`.
            read["Trip"] = nil
            XCTAssertEqual(read, expected, draft)
        }
    }

    /// A pipe where a Swift file or a bundle's model file stands is refused once opened, not waited
    /// on (named directly, so no check on the path comes before the open).
    func testPipesInPlaceOfSourcesAndModelFilesAreRefusedNotWaitedOn() throws {
        let swift = work.appendingPathComponent("Models.swift").path
        XCTAssertEqual(mkfifo(swift, 0o600), 0)
        XCTAssertThrowsError(try SwiftSourceLoader.read([swift])) {
            XCTAssertTrue("\($0)".contains("a named pipe, not a Swift file"), "\($0)")
        }
        let model = work.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(model.appendingPathComponent("contents").path, 0o600), 0)
        XCTAssertThrowsError(try CoreDataBundle.read(model.path)) {
            XCTAssertTrue("\($0)".contains("a named pipe, not a model file"), "\($0)")
        }
    }

    func testAnElementWithTooManyAttributesIsRefusedInOnePass() {
        let attributes = (0..<(ReadingBudget.xmlAttributes + 1)).map { " a\($0)=\"x\"" }.joined()
        let result = XMLReader.parse(Array("<model\(attributes)/>".utf8), file: "contents")
        guard case .failure(let error) = result else { return XCTFail("read") }
        XCTAssertTrue("\(error)".contains("more than \(ReadingBudget.xmlAttributes) attributes"), "\(error)")
        guard case .failure(let twice) = XMLReader.parse(Array("<m a=\"1\" b=\"2\" a=\"3\"/>".utf8), file: "c") else {
            return XCTFail("read")
        }
        XCTAssertTrue("\(twice)".contains("given twice"), "\(twice)")
    }
}
