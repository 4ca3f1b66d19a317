/// Where a name from the YAML ends up. Each position refuses only the names that fail there, and
/// says how that is known: a name that compiles and migrates in a SwiftData app is accepted
/// (`var id: UUID` is in most apps), so no list made for one position is read in another.
public enum NamePosition: Sendable, CaseIterable {
    /// A model, enum or struct nested in each `VersionedSchema` and aliased at module scope, and
    /// the generated schema, bridge and plan types.
    case type
    /// A Swift property of an `@Model` class, stored or behind an accessor.
    case property
    /// The attribute or relationship name Core Data keeps in the store.
    case storedName
    /// A case of an enum stored by raw value.
    case enumCase
    /// A stored field of a `Codable` struct (written in backticks, so keywords may stand here).
    case structField

    /// Why `name` cannot stand in this position, or nil when it can. Swift keywords are refused
    /// for every position when the YAML is decoded (`Identifier.keywords`).
    public func refusal(of name: String) -> NameRefusal? {
        // Nearly every name is refused nowhere: one lookup says so before the lists are read.
        guard Self.refusedSomewhere.contains(name) else { return nil }
        switch self {
        case .type:
            if Self.typesTheOutputNames.contains(name) {
                return NameRefusal(
                    "its alias for the current version would hide the type of that name from the whole module",
                    evidence: .typeChecked)
            }
            if Self.typesEverySwiftUIAppNames.contains(name) {
                return NameRefusal(
                    "its alias for the current version would hide SwiftUI's \(name), which every SwiftUI app's entry "
                        + "point or views name",
                    evidence: .typeChecked)
            }
            if Self.membersAroundTypes.contains(name) {
                return NameRefusal(
                    "the enclosing VersionedSchema or every model already has a member or an accessor of that name",
                    evidence: .typeChecked)
            }
            if Self.membersEveryModelHas.contains(name) {
                return NameRefusal(
                    "every model has a member of that name from SwiftData (PersistentModel's, or one @Model adds), "
                        + "which hides the type inside each model",
                    evidence: .typeCheckedAgainstAppleSDK)
            }
            return nil
        case .property:
            if Self.persistentModelMembers.contains(name) {
                return NameRefusal(
                    "PersistentModel or @Model declares a member of that name",
                    evidence: .typeCheckedAgainstAppleSDK)
            }
            if Self.typesEveryModelHas.contains(name) {
                return NameRefusal(
                    "@Model writes each property's key path as \\Model.\(name), which names the type every model "
                        + "has by that name instead of the property",
                    evidence: .typeCheckedAgainstAppleSDK)
            }
            if Self.modulesTheMacroNames.contains(name) {
                return NameRefusal(
                    "@Model's expansion names that module inside the class, and the property would hide it",
                    evidence: .documented(Self.macroExpansionSource))
            }
            return nil
        case .storedName:
            if Self.managedObjectMembers.contains(name) {
                return NameRefusal(
                    "Core Data refuses a property named like a no-parameter method of NSObject or NSManagedObject",
                    evidence: .documented(Self.propertyNameSource))
            }
            return nil
        case .enumCase:
            if Self.rawRepresentableMembers.contains(name) {
                return NameRefusal("RawRepresentable uses the name", evidence: .typeChecked)
            }
            return nil
        case .structField:
            if Self.namesCodableSynthesizes.contains(name) {
                return NameRefusal(
                    "Swift gives every struct and its Codable conformance a member of that name", evidence: .typeChecked
                )
            }
            return nil
        }
    }

    /// Every list `refusal(of:)` reads; ReservedNameTests fails on a listed name this leaves out.
    private static let refusedSomewhere = NameSet(
        typesTheOutputNames.union(typesEverySwiftUIAppNames)
            .union(membersAroundTypes).union(membersEveryModelHas).union(persistentModelMembers)
            .union(typesEveryModelHas).union(modulesTheMacroNames).union(managedObjectMembers)
            .union(rawRepresentableMembers).union(namesCodableSynthesizes))

    /// What a struct and its synthesized `Codable` conformance name inside it: a field `self` is
    /// not reachable as `self.self`, and a field `CodingKeys` leaves no room for the coding keys.
    static let namesCodableSynthesizes: Set<String> = ["self", "CodingKeys"]

    /// Types the generated code or an app names; the module-scope alias of a model or enum so
    /// named hides it (ReservedNameTests type-checks an app file that uses each one).
    static let typesTheOutputNames: Set<String> = [
        "Schema", "Model", "ModelContext", "ModelContainer", "ModelConfiguration", "PersistentModel",
        "VersionedSchema", "SchemaMigrationPlan", "MigrationStage", "FetchDescriptor", "Predicate",
        "SortDescriptor", "PersistentIdentifier", "String", "Int", "Int8", "Int16", "Int32", "Int64",
        "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "Bool", "Decimal", "Date",
        "Data", "UUID", "URL", "Array", "Optional", "Dictionary", "Set", "Character", "Error", "Codable",
        "Sendable", "Hashable", "Equatable", "Identifiable", "Foundation", "SwiftData", "Swift",
        "Observable", "CaseIterable",
    ]

    /// SwiftUI types every SwiftUI app names unqualified (`@main struct …: App`, `some Scene`,
    /// `WindowGroup`, `some View`): a module's own declaration hides an imported one, so an alias
    /// of one of these names breaks the app (ReservedNameTests type-checks it against a module
    /// named SwiftUI).
    static let typesEverySwiftUIAppNames: Set<String> = ["App", "Scene", "View", "WindowGroup"]

    /// Members of `VersionedSchema` and of every model (`Identifiable`, `Hashable`), and accessor
    /// words, which a nested type of the same name shadows or breaks.
    static let membersAroundTypes: Set<String> = [
        "models", "versionIdentifier", "ID", "id", "hash", "hashValue", "each", "didSet", "willSet", "override",
    ]

    /// What Apple's `PersistentModel` declares (requirements and extension members) and what its
    /// `@Model` adds to every class, by the names its macro declaration lists: inside a model, a
    /// type of the same name is not found. The stand-in does not declare all of them, so the proof
    /// is against Apple's interface (docs/apple-sdk-findings.md).
    static let membersEveryModelHas: Set<String> = [
        "persistentModelID", "modelContext", "hasChanges", "isDeleted", "persistentBackingData", "schemaMetadata",
        "getValue", "setValue", "getTransformableValue", "setTransformableValue", "createBackingData",
    ]

    /// Member types of every model: `Identifiable`'s `ID`. Apple's `@Model` lists each property in
    /// `schemaMetadata` with a key path rooted at the class (`\\Trip.name`), which for a property
    /// so named reads as the type (docs/apple-sdk-findings.md).
    static let typesEveryModelHas: Set<String> = ["ID"]

    /// `PersistentModel` requirements a model's own stored property of the type given meets: a
    /// shipped app stores `isDeleted: Bool`, and Apple's version hash of its entity holds it
    /// (issue #40's 34-model app; the golden `shipped-constructs` type-checks it against Apple's
    /// SDKs); the resolver warns (SDG111) that app code then reads the stored value. Another type
    /// compiles against Apple's interface too (AppleSDKRefusalTests), and is refused by Core Data's
    /// rule on NSManagedObject's member names (`managedObjectMembers`).
    public static let requirementsAStoredPropertyMeets: [String: String] = ["isDeleted": "Bool"]

    /// What `PersistentModel` supplies and `@Model` generates besides `id` (reference/swiftdata-api.md).
    /// `isDeleted` is one too, but a stored property meets it (`requirementsAStoredPropertyMeets`).
    /// ReservedNameTests compiles a property of each name (a `String`) against Apple's iOS 18.6
    /// interface and sees it fail; a property of the requirement's own type is not probed.
    static let persistentModelMembers: Set<String> = [
        "persistentModelID", "modelContext", "hasChanges", "persistentBackingData", "schemaMetadata", "hashValue",
    ]

    /// Modules the real `@Model` expansion names by their qualified names, such as
    /// `SwiftData.Schema.PropertyMetadata` and `Observation.ObservationRegistrar`.
    static let modulesTheMacroNames: Set<String> = ["SwiftData", "Observation", "Foundation", "Swift"]
    static let macroExpansionSource =
        "@Model expansions quoted in public apps: SwiftData.Schema.PropertyMetadata(...) "
        + "(docs/store-evidence.md, \"Optional to required, and defaults\")"

    /// NSObject's and NSManagedObject's no-parameter instance methods and properties that are
    /// plausible attribute names; Core Data stores every SwiftData model through NSManagedObject.
    static let managedObjectMembers: Set<String> = [
        "description", "debugDescription", "hash", "superclass", "isProxy", "zone", "retainCount", "copy",
        "mutableCopy",
        "autorelease", "retain", "release", "dealloc", "finalize", "classForCoder", "classForKeyedArchiver",
        "observationInfo", "autoContentAccessingProxy",
        "objectID", "entity", "managedObjectContext", "isInserted", "isUpdated", "isDeleted", "hasChanges",
        "hasPersistentChangedValues", "isFault", "faultingState", "changedValues", "changedValuesForCurrentEvent",
        "awakeFromFetch", "awakeFromInsert", "willSave", "didSave", "willTurnIntoFault", "didTurnIntoFault",
        "prepareForDeletion",
    ]
    /// A property named `isDeleted` of type `Bool` is the one exception the resolver makes: Apple's
    /// hash of a shipped SwiftData app's entity holds it (issue #40). Another property stored under
    /// that name is still refused.
    static let propertyNameSource =
        "https://developer.apple.com/documentation/coredata/nspropertydescription/name (\"A property name cannot "
        + "be the same as any no-parameter method name of NSObject or NSManagedObject\")"

    static let rawRepresentableMembers: Set<String> = ["RawValue", "init"]
}

/// Why a name is refused in a position, and how the project knows it fails there.
public struct NameRefusal: Sendable, Equatable {
    public enum Evidence: Sendable, Equatable {
        /// ReservedNameTests compiles the name in that position and sees it fail.
        case typeChecked
        /// ReservedNameTests compiles the name in that position against Apple's SwiftData interface
        /// and sees it fail there (the stand-in lacks what makes it fail).
        case typeCheckedAgainstAppleSDK
        /// A rule of SwiftData or Core Data the stand-in cannot show, with its source.
        case documented(String)
    }

    public let reason: String
    public let evidence: Evidence

    init(_ reason: String, evidence: Evidence) {
        self.reason = reason
        self.evidence = evidence
    }
}
