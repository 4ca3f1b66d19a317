import Foundation
import XCTest

@testable import SwiftDataGenImport

#if canImport(zlib)
    import zlib
#else
    import CZlib
#endif

/// The model a store keeps (`Z_MODELCACHE`): keyed archives made here with the classes and keys
/// Apple-written stores have (an `NSManagedObjectModel` whose `NSEntities` are entity
/// descriptions with `NSProperties` of attribute and relationship descriptions), written as a
/// binary property list and deflated raw as Core Data stores them; and damaged bytes, which
/// must give no model rather than a crash.
final class StoreModelTests: XCTestCase {
    /// A keyed archive under construction: `$objects` with `$null` first, objects by index.
    struct Archive {
        var objects: [PropertyListValue] = [.string("$null")]
        var classes: [String: Int] = [:]

        mutating func add(_ value: PropertyListValue) -> PropertyListValue {
            objects.append(value)
            return .uid(objects.count - 1)
        }

        mutating func type(_ name: String) -> PropertyListValue {
            if let index = classes[name] { return .uid(index) }
            let uid = add(.dictionary(["$classname": .string(name), "$classes": .array([.string(name)])]))
            if case .uid(let index) = uid { classes[name] = index }
            return uid
        }

        mutating func list(_ items: [PropertyListValue]) -> PropertyListValue {
            let kind = type("NSArray")
            return add(.dictionary(["NS.objects": .array(items), "$class": kind]))
        }

        mutating func string(_ text: String) -> PropertyListValue { add(.string(text)) }

        func archive(root: PropertyListValue) -> PropertyListValue {
            .dictionary([
                "$version": .int(100000), "$archiver": .string("NSKeyedArchiver"),
                "$top": .dictionary(["root": root]), "$objects": .array(objects),
            ])
        }
    }

    /// Trip { name: String, startDate: Date?, stops: [Stop] } and Stop { trip: Trip? }, Trip
    /// unique by name; the entities listed through a known-keys dictionary's `values`, as Apple's are.
    static func tripsArchive() -> PropertyListValue {
        var archive = Archive()
        let model = archive.add(.null)
        let trip = archive.add(.null)
        let stop = archive.add(.null)
        let tripName = archive.string("Trip")
        let stopName = archive.string("Stop")
        let attribute = archive.type("NSAttributeDescription")
        let relationship = archive.type("NSRelationshipDescription")
        let entityClass = archive.type("NSEntityDescription")
        func attributeObject(_ name: String, type: Int, optional: Bool, entity: PropertyListValue) -> PropertyListValue
        {
            var fields: [String: PropertyListValue] = [
                "$class": attribute, "NSPropertyName": archive.string(name), "NSAttributeType": .int(type),
                "NSEntity": entity,
            ]
            if optional { fields["NSIsOptional"] = .bool(true) }
            return archive.add(.dictionary(fields))
        }
        let name = attributeObject("name", type: 700, optional: false, entity: trip)
        let startDate = attributeObject("startDate", type: 900, optional: true, entity: trip)
        let stops = archive.add(.null)
        let stopTrip = archive.add(.null)
        let stopsName = archive.string("stops")
        let tripRelationshipName = archive.string("trip")
        archive.objects[index(stops)] = .dictionary([
            "$class": relationship, "NSPropertyName": stopsName, "NSDestinationEntity": stop, "NSMaxCount": .int(0),
            "NSMinCount": .int(0), "NSIsOptional": .bool(true), "NSInverseRelationship": stopTrip,
            "_NSInverseRelationshipName": tripRelationshipName, "_NSDestinationEntityName": stopName, "NSEntity": trip,
        ])
        archive.objects[index(stopTrip)] = .dictionary([
            "$class": relationship, "NSPropertyName": tripRelationshipName, "NSDestinationEntity": trip,
            "NSMaxCount": .int(1), "NSIsOptional": .bool(true), "NSInverseRelationship": stops,
            "_NSInverseRelationshipName": stopsName, "_NSDestinationEntityName": tripName, "NSEntity": stop,
        ])
        let unique = archive.list([archive.list([archive.string("name")])])
        archive.objects[index(trip)] = .dictionary([
            "$class": entityClass, "NSEntityName": tripName, "NSProperties": archive.list([name, startDate, stops]),
            "NSUniqueTuples": unique, "NSSuperentity": .uid(0), "NSManagedObjectModel": model,
        ])
        archive.objects[index(stop)] = .dictionary([
            "$class": entityClass, "NSEntityName": stopName, "NSProperties": archive.list([stopTrip]),
            "NSUniqueTuples": archive.list([]), "NSSuperentity": .uid(0), "NSManagedObjectModel": model,
        ])
        let values = archive.list([trip, stop])
        let entities = archive.add(.dictionary(["values": values, "$class": archive.type("NSKnownKeysDictionary1")]))
        archive.objects[index(model)] = .dictionary([
            "NSEntities": entities, "$class": archive.type("NSManagedObjectModel"),
        ])
        return archive.archive(root: model)
    }

    static func index(_ uid: PropertyListValue) -> Int {
        if case .uid(let index) = uid { return index }
        return 0
    }

    func testTheKeptModelIsReadWithNamesTypesOptionalityRelationshipsAndUniqueness() throws {
        let compressed = try XCTUnwrap(Self.deflated(Self.write(Self.tripsArchive())))
        let model = try XCTUnwrap(StoreModel(compressed: compressed))
        XCTAssertEqual(
            model.entities,
            [
                StoreModel.Entity(
                    name: "Stop", superentity: nil, attributes: [],
                    relationships: [
                        .init(name: "trip", destination: "Trip", isToMany: false, isOptional: true, inverse: "stops")
                    ],
                    uniqueness: []),
                StoreModel.Entity(
                    name: "Trip", superentity: nil,
                    attributes: [
                        .init(name: "name", type: 700, isOptional: false),
                        .init(name: "startDate", type: 900, isOptional: true),
                    ],
                    relationships: [
                        .init(name: "stops", destination: "Stop", isToMany: true, isOptional: true, inverse: "trip")
                    ],
                    uniqueness: [["name"]]),
            ])
    }

    /// Truncated, re-pointed and self-referring archives, and bytes that are not deflate, give
    /// nil; nothing here may crash or loop.
    func testDamagedArchivesGiveNoModel() throws {
        let bytes = Self.write(Self.tripsArchive())
        XCTAssertNotNil(BinaryPropertyList.parse(bytes))
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
            XCTAssertNil(BinaryPropertyList.parse(Array(bytes.prefix(length))), "cut at \(length)")
        }
        var pointing = bytes
        pointing[pointing.count - 32 + 8..<pointing.count - 32 + 16] = [0xFF, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertNil(BinaryPropertyList.parse(pointing), "an object count beyond the data")
        XCTAssertNil(BinaryPropertyList.parse(Self.selfReferringList()), "a list that contains itself")
        XCTAssertNil(StoreModel(compressed: Array("not deflate at all".utf8)))
        XCTAssertNil(StoreModel(compressed: try XCTUnwrap(Self.deflated(Array("bplist00 but no more".utf8)))))
    }

    /// One array whose only member is itself.
    static func selfReferringList() -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        bytes += [0xA1, 0x00]
        bytes += [8]
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        return bytes
    }

    /// A binary property list of `value`, each member written before its container.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var list = PropertyListBuilder()
        func flatten(_ value: PropertyListValue) -> Int {
            switch value {
            case .null: return list.add([0x00])
            case .bool(let flag): return list.add([flag ? 0x09 : 0x08])
            case .int(let number): return list.integer(number)
            case .real(let number): return list.real(number)
            case .date(let number):
                return list.add([0x33] + withUnsafeBytes(of: number.bitPattern.bigEndian, Array.init))
            case .data(let bytes): return list.data(bytes)
            case .string(let text): return list.string(text)
            case .uid(let number): return list.uid(number)
            case .array(let items):
                let members = items.map(flatten)
                return list.array(members)
            case .dictionary(let entries):
                let pairs = entries.sorted { $0.key < $1.key }.map { (list.string($0.key), flatten($0.value)) }
                return list.dictionary(pairs)
            }
        }
        let top = flatten(value)
        return list.bytes(top: top)
    }

    /// Raw deflate, as Core Data compresses the archive.
    static func deflated(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + 1024)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int32 in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
