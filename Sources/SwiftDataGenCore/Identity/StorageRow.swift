import SwiftDataGenDSL

/// How SwiftData stores what a generated class declares, one row per Swift form, each saying
/// whether an Apple-computed hash proves it (`docs/version-hash-recipe.md`, "What SwiftData builds
/// from Swift forms"). A row without proof is the expectation from Core Data's side; `plan --json`
/// and the store-identity article name the rows a schema relies on that no hash proves yet.
public enum StorageRow: String, Sendable, CaseIterable, Hashable {
    case integer64, unsignedWord, integer32, integer16, signedByte
    case string, boolean, double, cgFloat, float, decimal, date, data, uuid, url
    /// An array of values at the top level: Transformable.
    case valueArray
    /// A value stored through `.transformable(by:)`.
    case transformable
    case optionalCodableStruct
    /// A non-optional Codable struct: whether its elements are all optional too is not pinned.
    case codableStruct
    /// An array or a dictionary inside a Codable struct: optional Binary.
    case arrayInStruct
    /// An enum inside a Codable struct: its raw value under the field's name.
    case enumInStruct
    /// `[String: Struct]`: one Binary attribute.
    case dictionaryOfStructs
    /// `@Attribute(.codable)` (iOS 27): read as one Binary attribute holding the encoding, which no
    /// Apple-computed hash confirms yet.
    case codableEncoding
    /// An enum stored as itself: a composite of one element named like the property.
    case enumItself
    /// An enum without a raw type, cases only: expected to be a composite of no elements (its cases
    /// carry no values), which no Apple-computed hash or store shows yet.
    case enumWithoutRawType
    /// An enum whose cases carry values: expected to be a composite whose leaves are the cases'
    /// values under their coding keys (label, or `_0`, `_1`…), each optional, as no hash shows yet.
    case enumWithAssociatedValues
    case toOne, toMany, optionalToMany
    /// A to-many with `minimumModelCount`/`maximumModelCount` written.
    case toManyWithCounts
    /// A to-one with `minimumModelCount`/`maximumModelCount` written: whether SwiftData hashes
    /// them is not shown.
    case toOneWithCounts
    /// Two relationships that point at each other and declare no inverse, in a case the evidence
    /// does not settle (`UndeclaredInversePairing.open`); the cases it settles are proved.
    case undeclaredInversePair
    case externalStorage, preserveValueOnDeletion, hashModifier, inheritance

    /// False for a stored type whose Core Data attribute type no hash proves: two schemas that
    /// differ only there might hash alike on a device.
    public var provesItsType: Bool {
        switch self {
        case .unsignedWord, .signedByte, .url, .transformable, .codableEncoding, .enumWithoutRawType,
            .enumWithAssociatedValues:
            return false
        default: return true
        }
    }

    /// Where an Apple-computed hash proves the row; nil where none does yet.
    public var proof: String? {
        switch self {
        case .integer64, .integer32, .date, .data, .toOne:
            return "SwiftData vectors (dashpay/platform swift-sdk, iOS 26.5)"
        case .integer16, .valueArray, .optionalCodableStruct, .arrayInStruct, .enumItself, .toMany, .optionalToMany,
            .dictionaryOfStructs:
            return "a 34-entity SwiftData model (iOS 26.5), docs/version-hash-recipe.md"
        case .string, .boolean, .double, .float, .uuid:
            return "version-hash vectors"
        case .cgFloat:
            return "an app's store fixture beside its SwiftData source (macOS, 2026; iOS not observed), "
                + "docs/version-hash-recipe.md"
        case .decimal:
            return "a SwiftData store with its model checksum (vector cartkit), docs/version-hash-recipe.md"
        case .enumInStruct, .externalStorage:
            return "entity hashes a SwiftData app's tests pin (vectors millio-*, iOS 26.x), docs/version-hash-recipe.md"
        case .unsignedWord, .signedByte, .url, .transformable, .codableEncoding, .codableStruct, .toManyWithCounts,
            .toOneWithCounts, .enumWithoutRawType, .enumWithAssociatedValues,
            .preserveValueOnDeletion, .hashModifier, .inheritance, .undeclaredInversePair:
            return nil
        }
    }

    /// The Swift forms of `rows` as a sentence's list (`A, B and C`), a form in one word as code.
    public static func list(_ rows: [StorageRow]) -> String {
        let forms = rows.map { $0.swiftForm.contains(" ") ? $0.swiftForm : "`\($0.swiftForm)`" }
        guard forms.count > 1, let last = forms.last else { return forms.first ?? "" }
        return forms.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The Swift form, in the words the documentation uses.
    public var swiftForm: String {
        switch self {
        case .integer64: return "Int, Int64, UInt64"
        case .unsignedWord: return "UInt"
        case .integer32: return "Int32, UInt32"
        case .integer16: return "Int16, UInt16, UInt8"
        case .signedByte: return "Int8"
        case .string: return "String"
        case .boolean: return "Bool"
        case .double: return "Double, TimeInterval"
        case .cgFloat: return "CGFloat"
        case .float: return "Float"
        case .decimal: return "Decimal"
        case .date: return "Date"
        case .data: return "Data"
        case .uuid: return "UUID"
        case .url: return "URL"
        case .valueArray: return "an array of values"
        case .transformable: return ".transformable(by:)"
        case .optionalCodableStruct: return "an optional Codable struct"
        case .codableStruct: return "a non-optional Codable struct"
        case .arrayInStruct: return "an array inside a Codable struct"
        case .enumInStruct: return "an enum inside a Codable struct"
        case .dictionaryOfStructs: return "a dictionary of Codable structs [String: S]"
        case .codableEncoding: return "@Attribute(.codable)"
        case .enumItself: return "an enum stored as itself"
        case .enumWithoutRawType: return "an enum without a raw type"
        case .enumWithAssociatedValues: return "an enum with associated values"
        case .toOne: return "a to-one relationship"
        case .toMany: return "a to-many relationship [M]"
        case .optionalToMany: return "an optional to-many relationship [M]?"
        case .toManyWithCounts: return "a to-many relationship with model counts"
        case .toOneWithCounts: return "a to-one relationship with model counts"
        case .undeclaredInversePair:
            return "relationships that point at each other without an inverse, in a case the evidence leaves open "
                + "(many-to-many, counted, or annotated on the to-one end only)"
        case .externalStorage: return ".externalStorage"
        case .preserveValueOnDeletion: return ".preserveValueOnDeletion"
        case .hashModifier: return "hashModifier"
        case .inheritance: return "model inheritance"
        }
    }

    /// The Core Data type and row of a scalar stored as itself.
    static func scalar(_ scalar: ScalarType, spelling: String?) -> (CoreDataAttributeType, StorageRow) {
        switch scalar {
        case .string: return (.string, .string)
        case .bool: return (.boolean, .boolean)
        case .int, .int64, .uint64: return (.integer64, .integer64)
        case .uint: return (.integer64, .unsignedWord)
        case .int32, .uint32: return (.integer32, .integer32)
        case .int16, .uint16, .uint8: return (.integer16, .integer16)
        case .int8: return (.integer16, .signedByte)
        // SwiftData hashes a CGFloat as Float (600), not Double: no other type reproduces an app's hash.
        case .double: return spelling == "CGFloat" ? (.float, .cgFloat) : (.double, .double)
        case .float: return (.float, .float)
        case .decimal: return (.decimal, .decimal)
        case .date: return (.date, .date)
        case .data: return (.binaryData, .data)
        case .uuid: return (.uuid, .uuid)
        case .url: return (.uri, .url)
        }
    }
}
