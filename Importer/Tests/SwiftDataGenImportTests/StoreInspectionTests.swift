import Foundation
import SwiftDataGenCore
import XCTest

@testable import SwiftDataGenImport

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// `swiftdata-gen-import store`: stores made here in Core Data's SQLite layout (as an Apple-written
/// store has it: `Z<ENTITY>` tables with `Z_PK`, `Z_ENT`, `Z_OPT` and `Z<ATTRIBUTE>` columns, an
/// indexed `Z<RELATIONSHIP>` column per to-one, `Z_PRIMARYKEY`, and `Z_METADATA` with a binary
/// property list), compared with a history, and hostile files that must be refused untouched.
final class StoreInspectionTests: XCTestCase {
    static let history = [
        """
        schema: Trips
        version: 1.0.0
        models:
          Trip:
            properties:
              name: String
              startDate: Date
        """,
        """
        schema: Trips
        version: 2.0.0
        models:
          Trip:
            properties:
              name: String
              startDate: Date
              notes: String?
              stops: { type: "[Stop]", inverse: trip }
              tags: { type: "[Tag]", inverse: trips }
          Stop:
            properties:
              place: String
              trip: Trip?
          Tag:
            properties:
              label: String
              trips: "[Trip]"
        """,
    ]

    /// A store at 1.0.0 and one at 2.0.0, made here in Core Data's layout.
    static let version1 = """
        CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTARTDATE TIMESTAMP, ZNAME VARCHAR);
        INSERT INTO ZTRIP VALUES (1, 1, 1, 700000000, 'Bergen');
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Trip', 0, 1);
        """
    static let version2 = """
        CREATE TABLE ZSTOP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTRIP INTEGER, ZPLACE VARCHAR);
        CREATE INDEX ZSTOP_ZTRIP_INDEX ON ZSTOP (ZTRIP);
        CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR);
        CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTARTDATE TIMESTAMP, ZNAME VARCHAR, ZNOTES VARCHAR);
        CREATE TABLE Z_2TRIPS (Z_2TAGS INTEGER, Z_3TRIPS INTEGER, PRIMARY KEY (Z_2TAGS, Z_3TRIPS));
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Stop', 0, 0), (2, 'Tag', 0, 0), (3, 'Trip', 0, 0);
        CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, ZCHANGETYPE INTEGER);
        """

    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// Writes `sql` and a `Z_METADATA` row hashing `entities` into a new store file.
    func makeStore(
        _ name: String, _ sql: String, entities: [String]? = nil, metadataRow: Bool = true,
        hashes: [String: [UInt8]]? = nil
    ) throws -> String {
        let path = work.appendingPathComponent(name).path
        try Self.writeStore(at: path, sql, entities: entities, metadataRow: metadataRow, hashes: hashes)
        return path
    }

    /// The entity version hashes SwiftData computes for version `number` of `history`, as a store
    /// at that version keeps them.
    static func hashes(ofVersion number: Int) throws -> [String: [UInt8]] {
        let files = history.enumerated().map { index, text in
            SourceFile(
                displayPath: "\(index + 1).0.0.yaml", relativePath: "\(index + 1).0.0.yaml", bytes: Array(text.utf8))
        }
        let history = try XCTUnwrap(Generator.validate(SchemaSources(config: nil, versions: files)).histories.first)
        let identity = StoreIdentity(history.versions[number - 1], naming: history.config.naming)
        return try identity.entityHashes.mapValues { try XCTUnwrap(VersionHashText.bytes(hex: $0)) }
    }

    /// Without `hashes`, each entity's hash is 32 bytes of 7: a store no schema of a history is.
    static func writeStore(
        at path: String, _ sql: String, entities: [String]? = nil, metadataRow: Bool = true,
        hashes: [String: [UInt8]]? = nil
    ) throws {
        var database: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &database), SQLITE_OK)
        defer { sqlite3_close(database) }
        XCTAssertEqual(sqlite3_exec(database, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(database)))
        XCTAssertEqual(
            sqlite3_exec(
                database, "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                nil, nil, nil), SQLITE_OK)
        guard metadataRow else { return }
        let names = entities ?? Self.entityNames(in: sql)
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1335, "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""], "NSStoreUUID": "5E0C1A52-7D1B-4A8A-9C53-2F9F4E6B1D00",
            "NSStoreModelVersionHashes": Dictionary(
                uniqueKeysWithValues: names.map { ($0, Data(hashes?[$0] ?? [UInt8](repeating: 7, count: 32))) }),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        var statement: OpaquePointer?
        XCTAssertEqual(
            sqlite3_prepare_v2(database, "INSERT INTO Z_METADATA VALUES (1, 'uuid', ?)", -1, &statement, nil), SQLITE_OK
        )
        _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32(data.count), nil) }
        XCTAssertEqual(sqlite3_step(statement), SQLITE_DONE)
        sqlite3_finalize(statement)
    }

    static func entityNames(in sql: String) -> [String] {
        sql.matches(of: /\(\d+, '(\w+)', \d+, \d+\)/).map { String($0.1) }
    }

    func histories() throws -> [SchemaHistory] {
        let files = Self.history.enumerated().map { index, text in
            SourceFile(
                displayPath: "\(index + 1).0.0.yaml", relativePath: "\(index + 1).0.0.yaml", bytes: Array(text.utf8))
        }
        let (histories, diagnostics) = Generator.validate(SchemaSources(config: nil, versions: files))
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        return histories
    }

    func testAStoreAtEachVersionMatchesItAndTheRestOfThePlanIsWhatRuns() throws {
        let histories = try histories()
        let old = StoreReport(try StoreFile.read(try makeStore("old.store", Self.version1)), histories: histories)
        XCTAssertEqual(old.match?.matched.map { "\($0.version)" }, ["1.0.0"])
        XCTAssertEqual(old.match?.steps.map { "\($0.from) → \($0.to)" }, ["1.0.0 → 2.0.0"])
        XCTAssertTrue(old.text.contains("the plan runs on it, in order:"), old.text)

        let current = StoreReport(try StoreFile.read(try makeStore("new.store", Self.version2)), histories: histories)
        XCTAssertEqual(current.match?.matched.map { "\($0.version)" }, ["2.0.0"])
        XCTAssertEqual(current.match?.steps.count, 0)
        XCTAssertEqual(current.shape.joinTables, [["TRIPS"]])
        XCTAssertEqual(current.shape.tables.first { $0.name == "ZSTOP" }?.columns["ZTRIP"], .reference(to: "?"))
        XCTAssertTrue(current.text.contains("it is at the latest version"), current.text)
        XCTAssertEqual(StoreShape.unclaimedTables(current.contents, shape: current.shape), [])
    }

    /// SwiftData keeps a to-many that nothing points back to as a `Z<n><REL>` column in the
    /// destination's table, not a join table (docs/version-hash-recipe.md, "Names in the SQLite
    /// file"): such a store is named by its version, with no table said to be missing.
    func testAToManyWithNoInverseIsAColumnOfItsDestination() throws {
        let version =
            "schema: Shop\nversion: 1.0.0\nmodels:\n  Shelf:\n    properties:\n      name: String\n"
            + "      items: \"[Item]\"\n  Item:\n    properties:\n      name: String\n"
        let files = [SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(version.utf8))]
        let (histories, diagnostics) = Generator.validate(SchemaSources(config: nil, versions: files))
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        let history = try XCTUnwrap(histories.first)
        let identity = StoreIdentity(try XCTUnwrap(history.versions.first), naming: history.config.naming)
        let hashes = try identity.entityHashes.mapValues { try XCTUnwrap(VersionHashText.bytes(hex: $0)) }
        let sql = """
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, Z2ITEMS INTEGER);
            CREATE INDEX ZITEM_Z2ITEMS_INDEX ON ZITEM (Z2ITEMS);
            CREATE TABLE ZSHELF (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, 0), (2, 'Shelf', 0, 0);
            """
        let report = StoreReport(
            try StoreFile.read(try makeStore("shelf.store", sql, hashes: hashes)), histories: histories)
        XCTAssertEqual(report.match?.matched.map { "\($0.version)" }, ["1.0.0"], report.text)
        XCTAssertEqual(report.shape.joinTables, [])
        XCTAssertFalse(report.text.contains("not the ones"), report.text)
        XCTAssertFalse(report.text.contains("join table"), report.text)
    }

    /// A store that keeps its model (`Z_MODELCACHE`) is compared by it too: a version whose shape
    /// is the store's but whose property is required where the store's model has it optional
    /// does not match, and the version written from the store has the model's own spelling.
    func testTheModelAStoreKeepsDecidesWhatTheShapeCannot() throws {
        let sql = """
            CREATE TABLE ZSTOP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTRIP INTEGER);
            CREATE INDEX ZSTOP_ZTRIP_INDEX ON ZSTOP (ZTRIP);
            CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZSTARTDATE TIMESTAMP);
            CREATE UNIQUE INDEX Z_Trip_UNIQUE_name ON ZTRIP (ZNAME COLLATE BINARY ASC);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Stop', 0, 0), (2, 'Trip', 0, 0);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            """
        let store = try makeStore("Trips.store", sql)
        let cache = try XCTUnwrap(StoreModelTests.deflated(StoreModelTests.write(StoreModelTests.tripsArchive())))
        try insert(store, "INSERT INTO Z_MODELCACHE VALUES (?)", blob: cache)
        func history(_ startDate: String, unique: String = "[name]") throws -> [SchemaHistory] {
            let text = """
                schema: Trips
                version: 1.0.0
                models:
                  Trip:
                    unique: \(unique)
                    properties:
                      name: String
                      startDate: \(startDate)
                      stops: { type: "[Stop]", inverse: trip }
                  Stop:
                    properties:
                      trip: Trip?
                """
            let file = SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(text.utf8))
            return Generator.validate(SchemaSources(config: nil, versions: [file])).histories
        }
        let contents = try StoreFile.read(store)
        XCTAssertNotNil(contents.model)
        XCTAssertEqual(StoreReport(contents, histories: try history("Date?")).match?.matched.count, 1)
        let required = StoreReport(contents, histories: try history("Date"))
        XCTAssertEqual(required.match?.nearest?.differences, ["Trip.startDate is optional in the store's model"])
        let withoutUnique = StoreReport(contents, histories: try history("Date?", unique: "[]"))
        XCTAssertEqual(
            withoutUnique.match?.nearest?.differences,
            ["ZTRIP is unique by ZNAME; this version by none", "Trip's uniqueness differs in the store's model"])

        let output = work.appendingPathComponent("Recovered").path
        XCTAssertEqual(try run(["store", store, "--output", output]).status, 0)
        let written = try String(contentsOfFile: output + "/1.0.0.yaml", encoding: .utf8)
        for line in [
            "    unique: [[name]]", "      startDate: Date?", "      name: String",
            "      stops: { type: \"[Stop]\", inverse: trip }",
        ] {
            XCTAssertTrue(written.contains(line + "\n"), "expected '\(line)' in:\n\(written)")
        }
        let recovered = Generator.validate(try SchemaLoader.read(directory: output).get())
        XCTAssertFalse(recovered.diagnostics.hasErrors, recovered.diagnostics.map(\.rendered).joined(separator: "\n"))
        XCTAssertEqual(StoreReport(contents, histories: recovered.histories).match?.matched.count, 1)
    }

    /// A store a migration stopped in the middle of holds a bridge schema: it matches "the bridge
    /// into" its version, and what runs is the rest of that step and every step after it.
    func testAStoreAtABridgeSchemaIsNamedSoAndTheRestOfThePlanRuns() throws {
        let input = DocumentedCommandTests.packageRoot.appendingPathComponent(
            "Tests/SwiftDataGenCoreTests/Fixtures/Golden/upgrade-conversions/input")
        let (histories, _) = Generator.validate(try SchemaLoader.read(directory: input.path).get())
        let history = try XCTUnwrap(histories.first)
        let plan = MigrationPlanner.plan(history).plan
        let bridge = try XCTUnwrap(plan.bridges.first)
        // The bridge's tables, written from its shape: what this test checks is the naming and
        // the steps, not the layout, which the tests above check against stores written by hand.
        let shape = StoreShape(bridge.schema, naming: history.config.naming)
        var sql =
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);\n"
        for (number, table) in shape.tables.enumerated() {
            let columns = table.columns.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.declared)" }
            sql +=
                "CREATE TABLE \(table.name) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"
                + columns.map { ", " + $0 }.joined() + ");\n"
            sql += "INSERT INTO Z_PRIMARYKEY VALUES (\(number + 1), '\(table.entities[0])', 0, 0);\n"
        }
        let store = try makeStore("bridge.store", sql)
        let report = StoreReport(try StoreFile.read(store), histories: histories)
        let matched = try XCTUnwrap(report.match?.matched)
        XCTAssertEqual(matched.map(\.label), ["bridge into \(bridge.into)"], report.text)
        XCTAssertEqual(
            report.match?.steps.map(\.to), plan.steps.filter { $0.to >= bridge.into }.map { "\($0.to)" })
        XCTAssertTrue(report.text.contains("matches Shop bridge into \(bridge.into)"), report.text)
    }

    func insert(_ path: String, _ sql: String, blob: [UInt8]) throws {
        var database: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &database), SQLITE_OK)
        defer { sqlite3_close(database) }
        var statement: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(database, sql, -1, &statement, nil), SQLITE_OK)
        _ = blob.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32(blob.count), nil) }
        XCTAssertEqual(sqlite3_step(statement), SQLITE_DONE)
        sqlite3_finalize(statement)
    }

    /// A store no version matches names the nearest and every difference, and the exit code says so.
    func testAStoreNoVersionMatchesNamesTheNearestAndWhatDiffers() throws {
        let drifted = Self.version1.replacingOccurrences(of: "ZNAME VARCHAR", with: "ZNAME VARCHAR, ZCOLOR VARCHAR")
            .replacingOccurrences(of: "ZSTARTDATE TIMESTAMP", with: "ZSTARTDATE FLOAT")
            .replacingOccurrences(of: "'Bergen')", with: "'Bergen', 'red')")
        let report = StoreReport(
            try StoreFile.read(try makeStore("drifted.store", drifted)), histories: try histories())
        XCTAssertEqual(report.match?.matched.count, 0)
        XCTAssertEqual("\(report.match?.nearest?.version.description ?? "")", "1.0.0")
        XCTAssertEqual(
            report.match?.nearest?.differences,
            [
                "ZTRIP.ZCOLOR (VARCHAR) is not a property of this version",
                "ZTRIP.ZSTARTDATE is FLOAT; this version stores TIMESTAMP",
            ])
        XCTAssertTrue(report.text.contains("Cannot use staged migration with an unknown model version"))
        let cli = try run(["store", work.appendingPathComponent("drifted.store").path, "--schema", try writeHistory()])
        XCTAssertEqual(cli.status, 3, cli.output)
        XCTAssertTrue(cli.output.contains("ZTRIP.ZCOLOR (VARCHAR) is not a property of this version"), cli.output)
    }

    /// SwiftData knows a store by the entity version hashes it keeps: a store whose hashes are a
    /// version's is at that version, whatever else matches by shape; one whose hashes are no
    /// schema's will not open, and the nearest says which entity's hash differs.
    func testAStoreIsKnownByItsEntityVersionHashesFirst() throws {
        let histories = try histories()
        let at2 = StoreReport(
            try StoreFile.read(try makeStore("v2.store", Self.version2, hashes: try Self.hashes(ofVersion: 2))),
            histories: histories)
        XCTAssertEqual(at2.match?.identityMatched.map(\.label), ["2.0.0"])
        XCTAssertTrue(at2.text.contains("this store is at Trips 2.0.0: all 3 entity version hashes equal"), at2.text)
        XCTAssertEqual(at2.match?.opens, true)

        var edited = try Self.hashes(ofVersion: 2)
        edited["Stop"] = [UInt8](repeating: 1, count: 32)
        let off = StoreReport(
            try StoreFile.read(try makeStore("off.store", Self.version2, hashes: edited)), histories: histories)
        XCTAssertEqual(off.match?.identityMatched.count, 0)
        XCTAssertEqual(off.match?.matched.map(\.label), ["2.0.0"], "its shape is still 2.0.0's")
        XCTAssertEqual(off.match?.opens, false)
        XCTAssertEqual(off.match?.nearestByIdentity?.label, "2.0.0")
        XCTAssertEqual(off.match?.nearestByIdentity?.hashDifferences?.count, 1)
        XCTAssertTrue(
            off.match?.nearestByIdentity?.hashDifferences?.first?.hasPrefix("Stop's version hash differs") == true,
            off.text)
        XCTAssertTrue(off.text.contains("so SwiftData will not open it with this plan"), off.text)
        let history = try writeHistory()
        XCTAssertEqual(
            try run(["store", work.appendingPathComponent("off.store").path, "--schema", history]).status, 3)
        XCTAssertEqual(try run(["store", work.appendingPathComponent("v2.store").path, "--schema", history]).status, 0)

        // A store at 1.0.0 whose Trip carries 2.0.0's hash: the metadata decides, and names what
        // explains the difference.
        var mixed = try Self.hashes(ofVersion: 1)
        mixed["Trip"] = try Self.hashes(ofVersion: 2)["Trip"]
        let wrong = StoreReport(
            try StoreFile.read(try makeStore("mixed.store", Self.version1, hashes: mixed)), histories: histories)
        XCTAssertEqual(wrong.match?.identityMatched.count, 0)
        XCTAssertEqual(wrong.match?.nearestByIdentity?.label, "1.0.0")
    }

    /// In a case the evidence leaves open (here `@Relationship` on the to-one end only), a store
    /// whose hashes are the reading where SwiftData paired the two is at that version, and the
    /// report says by which reading.
    func testAStoreWithPairedInversesIsKnownByThatReading() throws {
        let yaml = """
            schema: Pairs
            version: 1.0.0
            models:
              Shelf:
                properties:
                  books: { type: "[Book]", inverse: false }
              Book:
                properties:
                  title: String
                  shelf: { type: Shelf?, inverse: false, deleteRule: cascade }
            """
        let (histories, diagnostics) = Generator.validate(
            SchemaSources(
                config: nil,
                versions: [SourceFile(displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml", bytes: Array(yaml.utf8))]))
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        let version = try XCTUnwrap(histories.first?.versions.first)
        let identity = StoreIdentity(version, naming: NamingConfig())
        let paired = try XCTUnwrap(identity.pairedReading)
        let match = StoreMatch(
            StoreShape(version, naming: NamingConfig()), model: nil, histories: histories,
            versionHashes: try paired.entityHashes.mapValues { try XCTUnwrap(VersionHashText.bytes(hex: $0)) })
        XCTAssertEqual(match.identityMatched.map(\.label), ["1.0.0"])
        XCTAssertEqual(match.identityMatched.first?.byPairedReading, true)
        let unpaired = StoreMatch(
            StoreShape(version, naming: NamingConfig()), model: nil, histories: histories,
            versionHashes: try identity.entityHashes.mapValues { try XCTUnwrap(VersionHashText.bytes(hex: $0)) })
        XCTAssertEqual(unpaired.identityMatched.first?.byPairedReading, false)
    }

    func testJSONNamesTheMatchAndTheSteps() throws {
        let store = try makeStore("old.store", Self.version1, hashes: try Self.hashes(ofVersion: 1))
        let cli = try run(["store", store, "--schema", try writeHistory(), "--json"])
        XCTAssertEqual(cli.status, 0, cli.output)
        let json = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(cli.output.utf8)) as? [String: Any], cli.output)
        let matched = try XCTUnwrap(json["matched"] as? [[String: Any]])
        XCTAssertEqual(matched.map { $0["version"] as? String }, ["1.0.0"])
        let steps = try XCTUnwrap(json["steps"] as? [[String: Any]])
        XCTAssertEqual(steps.map { $0["from"] as? String }, ["1.0.0"])
        XCTAssertEqual(steps.map { $0["to"] as? String }, ["2.0.0"])
        let trip = try XCTUnwrap(try Self.hashes(ofVersion: 1)["Trip"])
        XCTAssertEqual(
            (json["versionHashes"] as? [String: String])?["Trip"], VersionHashText.hex(trip))
        XCTAssertEqual((json["identityMatched"] as? [[String: Any]])?.map { $0["version"] as? String }, ["1.0.0"])
    }

    /// Without a history the store's shape is written as a first version, which validates, and a
    /// file already there is left as it was.
    func testTheShapeIsWrittenAsAVersionThatValidatesAndNothingIsOverwritten() throws {
        let store = try makeStore("Trips.store", Self.version2)
        let output = work.appendingPathComponent("Recovered").path
        let first = try run(["store", store, "--output", output])
        XCTAssertEqual(first.status, 0, first.output)
        let written = try String(contentsOfFile: output + "/1.0.0.yaml", encoding: .utf8)
        XCTAssertTrue(written.contains("schema: Trips"), written)
        XCTAssertTrue(written.contains("      startdate: Date?  # ZSTARTDATE TIMESTAMP"), written)
        let validation = Generator.validate(try SchemaLoader.read(directory: output).get()).diagnostics
        XCTAssertFalse(validation.hasErrors, validation.map(\.rendered).joined(separator: "\n"))

        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: output + "/1.0.0.yaml"))
        let again = try run(["store", store, "--output", output])
        XCTAssertEqual(again.status, 1, again.output)
        XCTAssertEqual(try String(contentsOfFile: output + "/1.0.0.yaml", encoding: .utf8), "mine\n")
    }

    /// Each hostile or damaged file gets one error naming it, exit 1, and is left byte for byte
    /// as it was with nothing created beside it.
    func testHostileAndDamagedStoresAreRefusedAndNeverWritten() throws {
        let good = try makeStore("good.store", Self.version1)
        let notSQLite = work.appendingPathComponent("notes.store").path
        try Data(
            "this is not a database, only text that is long enough to have a header".utf8
                + Array(repeating: 0x20, count: 100)
        )
        .write(to: URL(fileURLWithPath: notSQLite))
        let withWAL = try makeStore("wal.store", Self.version1)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: withWAL + "-wal"))
        let withJournal = try makeStore("journal.store", Self.version1)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: withJournal + "-journal"))
        let noMetadataRow = try makeStore("empty-metadata.store", Self.version1, metadataRow: false)
        let noPrimaryKeys = try makeStore(
            "no-keys.store", "CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);", entities: ["Trip"])
        let truncated = work.appendingPathComponent("truncated.store").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(1024)).write(
            to: URL(fileURLWithPath: truncated))
        let fifo = work.appendingPathComponent("pipe.store").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let badPlist = try makeStore("bad-plist.store", Self.version1, metadataRow: false)
        try execute(badPlist, "INSERT INTO Z_METADATA VALUES (1, 'uuid', x'00010203')")

        let cases: [(String, String)] = [
            (notSQLite, "not an SQLite database"), (withWAL, "-wal holds changes not yet in"),
            (withJournal, "-journal is beside the store"), (noMetadataRow, "Z_METADATA row"),
            (noPrimaryKeys, "without Core Data's Z_PRIMARYKEY table"), (truncated, "SQLite cannot read it"),
            (badPlist, "Z_METADATA's property list cannot be read"),
            (work.appendingPathComponent("missing.store").path, "no such file"),
            (work.path, "not a file"), (fifo, "not a file"),
        ]
        for (path, expected) in cases {
            let before = try snapshot()
            let result = try run(["store", path])
            XCTAssertEqual(result.status, 1, "\(path): \(result.output)")
            XCTAssertTrue(result.output.hasPrefix("error: \(path)"), "\(path): \(result.output)")
            XCTAssertTrue(result.output.contains(expected), "\(path): expected '\(expected)' in \(result.output)")
            XCTAssertEqual(result.output.split(separator: "\n").count, 1, result.output)
            XCTAssertEqual(try snapshot(), before, "\(path): inspecting it changed the folder")
        }
        let before = try snapshot()
        XCTAssertEqual(try run(["store", good]).status, 0)
        XCTAssertEqual(try snapshot(), before, "reading a good store changed the folder")
    }

    /// A store another process has open (here this test process, in a write transaction) is
    /// refused by the command, which runs in a process of its own.
    func testAStoreOpenInAnotherProcessIsRefused() throws {
        let store = try makeStore("open.store", Self.version1)
        var database: OpaquePointer?
        XCTAssertEqual(sqlite3_open(store, &database), SQLITE_OK)
        defer { sqlite3_close(database) }
        XCTAssertEqual(sqlite3_exec(database, "BEGIN EXCLUSIVE", nil, nil, nil), SQLITE_OK)
        let locked = try run(["store", store])
        XCTAssertEqual(locked.status, 1, locked.output)
        XCTAssertTrue(locked.output.contains("is open in another process"), locked.output)
        XCTAssertEqual(sqlite3_exec(database, "COMMIT", nil, nil, nil), SQLITE_OK)
        XCTAssertEqual(try run(["store", store]).status, 0)
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try run(["store"]).status, 2)
        XCTAssertEqual(try run(["store", "a.store", "b.store"]).status, 2)
        let both = try run(["store", "a.store", "--schema", "S", "--output", "O"])
        XCTAssertEqual(both.status, 2, both.output)
    }

    func execute(_ path: String, _ sql: String) throws {
        var database: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &database), SQLITE_OK)
        defer { sqlite3_close(database) }
        XCTAssertEqual(sqlite3_exec(database, sql, nil, nil, nil), SQLITE_OK)
    }

    /// Every file in the work folder with its bytes (a pipe or a folder by its name alone).
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: work.path) {
            let url = work.appendingPathComponent(name)
            let type = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
            files[name] = type == .typeRegular ? try Data(contentsOf: url) : Data()
        }
        return files
    }

    func writeHistory() throws -> String {
        try Self.writeHistory(in: work.appendingPathComponent("Schema"))
    }

    static func writeHistory(in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, text) in history.enumerated() {
            try text.write(
                to: folder.appendingPathComponent("\(index + 1).0.0.yaml"), atomically: true, encoding: .utf8)
        }
        return folder.path
    }

    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let executables = Bundle.main.executableURL!.deletingLastPathComponent()
        return try RoundTripTests.run(executables.appendingPathComponent("swiftdata-gen-import").path, arguments)
    }
}
