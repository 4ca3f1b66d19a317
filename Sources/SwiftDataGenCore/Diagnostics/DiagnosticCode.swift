/// Stable diagnostic codes. The hundreds digit names the area of the problem (YAML; the DSL's keys,
/// values and names; relationships; attributes; inheritance; CloudKit; versions, history and
/// planning; output), not the stage that finds it: a name is checked while resolving, yet its
/// code is SDG1xx (`area`). Codes are never reused for a different meaning, so users can search
/// for them.
public enum DiagnosticCode: String, Sendable, CaseIterable {
    // Loading YAML (SDG0xx)
    case unreadableFile = "SDG001"
    case yamlSyntax = "SDG002"
    case duplicateKey = "SDG003"
    case undefinedAlias = "SDG004"
    case aliasExpansionLimit = "SDG005"
    case nestingTooDeep = "SDG006"
    case invalidEncoding = "SDG007"
    case emptyDocument = "SDG008"
    case multipleDocuments = "SDG009"
    case mergeKeyUnsupported = "SDG010"
    case unsupportedTag = "SDG011"
    case fileTooLarge = "SDG012"

    // Decoding the DSL (SDG1xx)
    case unknownKey = "SDG101"
    case missingKey = "SDG102"
    case wrongNodeKind = "SDG103"
    case invalidValue = "SDG104"
    case invalidTypeSpelling = "SDG105"
    case invalidVersion = "SDG106"
    case invalidIdentifier = "SDG107"
    case reservedName = "SDG108"
    case duplicateName = "SDG109"
    case countLimit = "SDG110"
    case replacesModelMember = "SDG111"
    case witnessLessVisible = "SDG112"

    // Relationships (SDG2xx)
    case unknownType = "SDG201"
    case inverseNotFound = "SDG202"
    case inverseMismatch = "SDG203"
    case inverseNotRelationship = "SDG204"
    case nullifyOntoRequired = "SDG205"
    case missingInverse = "SDG206"
    case invalidCount = "SDG207"
    case relationshipOptionOnAttribute = "SDG208"
    case attributeOptionOnRelationship = "SDG209"

    // Attributes, uniqueness and indexes (SDG3xx)
    case transientNeedsDefault = "SDG301"
    case externalStorageNeedsData = "SDG302"
    case unknownKeyPathProperty = "SDG303"
    case uniqueNeedsNewerPlatform = "SDG304"
    case indexNeedsNewerPlatform = "SDG305"
    case defaultTypeMismatch = "SDG306"
    case conflictingDefaults = "SDG307"
    case transientOption = "SDG308"
    case duplicateKeyPathGroup = "SDG309"
    case invalidSwiftExpression = "SDG310"
    case codableNeedsStruct = "SDG311"
    case codableNeedsNewerPlatform = "SDG312"
    case redundantIndex = "SDG313"

    // Inheritance (SDG4xx)
    case inheritanceNeedsNewerPlatform = "SDG401"
    case unknownSuperclass = "SDG402"
    case inheritanceCycle = "SDG403"
    case overridesInheritedProperty = "SDG404"

    // CloudKit (SDG5xx)
    case cloudKitUnique = "SDG501"
    case cloudKitRequiredAttribute = "SDG502"
    case cloudKitRequiredRelationship = "SDG503"
    case cloudKitDeny = "SDG504"
    case cloudKitSchemaShrinks = "SDG505"

    // Versions and history (SDG6xx)
    case duplicateVersion = "SDG601"
    case identicalVersions = "SDG603"
    case missingConfig = "SDG604"
    case noVersions = "SDG605"
    case renameSourceNotFound = "SDG607"
    case shippedVersionEdited = "SDG608"
    case shippedVersionMissing = "SDG609"
    case versionBeforeShipped = "SDG610"
    case malformedLockFile = "SDG611"
    case duplicateRenamingIdentifier = "SDG612"
    case duplicateChecksum = "SDG613"
    case renameAlreadyApplied = "SDG614"
    case versionFileNameMismatch = "SDG615"
    case newVersionNotAfterLatest = "SDG616"
    case newVersionLayoutNotEditable = "SDG617"
    case newVersionRenameInvalid = "SDG618"

    // Migration planning (SDG62x)
    case requiredPropertyAdded = "SDG620"
    case typeChangeLosesData = "SDG621"
    case optionalityTightened = "SDG622"
    case conversionSourceMissing = "SDG623"
    case uniquenessNeedsDedupe = "SDG624"
    case dataLoss = "SDG625"
    case noRoomForBridge = "SDG626"
    case linkTargetNotCreatable = "SDG627"
    case hookRequired = "SDG628"
    case conversionConflict = "SDG629"
    case modelRenameUnsupported = "SDG631"
    case uniqueValueNotPerRow = "SDG632"
    case dedupeUnused = "SDG633"
    case toManyBecomesToOne = "SDG634"
    case codableShapeChanged = "SDG635"
    case customCodeObligation = "SDG636"

    // Writing output (SDG7xx)
    case outputNotOwned = "SDG701"
    case outputWriteFailed = "SDG702"
    case templateError = "SDG703"
    case outputNameCollision = "SDG704"
    case newVersionFileExists = "SDG705"
}

extension DiagnosticCode {
    /// What a code is about, from its number: the hundreds digit, and within 6xx the tens, since
    /// versions, `new-version` and planning share that hundred.
    public enum Area: String, Sendable, CaseIterable {
        case yaml = "YAML"
        case dsl = "the DSL's keys, values and names"
        case relationships = "relationships"
        case attributes = "attributes, uniqueness and indexes"
        case inheritance = "inheritance"
        case cloudKit = "CloudKit"
        case history = "versions and the history"
        case newVersion = "`new-version`"
        case planning = "migration planning"
        case output = "output"
    }

    public var number: Int { Int(rawValue.dropFirst(3)) ?? 0 }

    public var area: Area {
        switch number / 100 {
        case 0: return .yaml
        case 1: return .dsl
        case 2: return .relationships
        case 3: return .attributes
        case 4: return .inheritance
        case 5: return .cloudKit
        case 6: return number < 616 ? .history : number < 620 ? .newVersion : .planning
        default: return .output
        }
    }
}
