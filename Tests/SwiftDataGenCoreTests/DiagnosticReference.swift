@testable import SwiftDataGenCore

extension DiagnosticCode {
    /// What the code means and what to do about it, for the catalog's diagnostics page. Kept with the tests, not
    /// in the tool every plugin user compiles; a switch without a default, so a new code does not
    /// compile until it is explained.
    var reference: String {
        switch self {
        case .redundantIndex:
            return
                "An index covers what a uniqueness constraint or another index already indexes (the same "
                + "properties, or the first of them): SQLite keeps each constraint as an index, and every write pays "
                + "for both. Drop the index."
        case .unreadableFile:
            return
                "A schema file cannot be read (missing, a folder, no permission). Check the path and the file's "
                + "permissions."
        case .yamlSyntax:
            return
                "libyaml cannot parse the file; the message says where and what to check (indentation with "
                + "spaces, quoting, closing brackets)."
        case .duplicateKey: return "A mapping repeats a key; YAML would keep only one of them. Remove or rename one."
        case .undefinedAlias:
            return "An alias `*name` has no anchor `&name` before it (or points at itself). Define the anchor first."
        case .aliasExpansionLimit:
            return
                "Aliases expand to over a million nodes (an alias bomb). Write the content out instead of nesting "
                + "aliases."
        case .nestingTooDeep: return "Mappings and lists nest deeper than 256 levels. Flatten the file."
        case .invalidEncoding: return "The file is not UTF-8 text, or holds control characters. Save it as UTF-8."
        case .emptyDocument: return "A version file is empty. Write its schema, version and models, or delete it."
        case .multipleDocuments: return "The file holds several YAML documents (`---`). Keep one version per file."
        case .mergeKeyUnsupported:
            return "Merge keys (`<<:`) are not supported; they hide which keys a declaration has. Write the keys out."
        case .unsupportedTag:
            return "A YAML tag (`!!str`, `!custom`) is not supported. Remove it and quote the value if it must be text."
        case .fileTooLarge:
            return
                "The file is larger than the generator reads. Split the schema into versions, or squash old "
                + "versions no device still has."
        case .unknownKey:
            return
                "A key the DSL does not know; a note says the key meant (the file is read as if it were written "
                + "so) and lists the keys allowed."
        case .missingKey:
            return "A required key is missing (`schema`, `version`, `models`, a property's `type`, …). Add it."
        case .wrongNodeKind:
            return
                "A value has the wrong shape (a list where a mapping belongs, …). Array types are quoted text: "
                + "`\"[String]\"`."
        case .invalidValue:
            return
                "A value is not one the key allows (a choice, a number, a boolean written `yes`, …). The message "
                + "lists what is allowed."
        case .invalidTypeSpelling:
            return
                "A type is not `Name`, `Name?`, `[Name]` or `[Name]?`. Dictionaries and generics are not stored types."
        case .invalidVersion: return "A version is not major.minor.patch. Write it like 1.0.0."
        case .invalidIdentifier: return "A name is not a Swift identifier of ASCII letters, digits and `_`. Rename it."
        case .reservedName:
            return
                "A name fails where it would go: each position refuses only its own names. A model or enum may "
                + "not take a type name the output or the app uses (`String`, `Schema`) or a member around it "
                + "(`models`, `id`, and what every model gets from SwiftData: `persistentModelID`, `modelContext`, "
                + "`getValue`, ...); a property may not take a `PersistentModel` member (`persistentModelID`, "
                + "`hasChanges`) or be `ID`, which `@Model`'s key path `\\Model.ID` reads as a type; a stored name may not be a no-parameter method of NSObject or NSManagedObject "
                + "(`description`, `entity`; keep the Swift name with `storedName:`); a case may not be `RawValue`. "
                + "`id`, `type`, `data`, `value` and the like are fine. Rename it as the message suggests."
        case .duplicateName:
            return
                "Two declarations share a name (in a version, a model or a struct), or a stored name collides "
                + "with `@Model`'s storage of another property."
        case .countLimit:
            return
                "More versions, models, properties, cases or inheritance levels than the generator accepts. "
                + "Squash or split."
        case .replacesModelMember:
            return
                "A stored `isDeleted: Bool` satisfies `PersistentModel`'s requirement of that name, so "
                + "in app code it is the stored value, not SwiftData's flag for an object deleted from its "
                + "context. Shipped apps store it (Apple's version hash of their entity holds it); keep it if "
                + "yours did, or rename it with `renamedFrom:` in a new version."
        case .unknownType:
            return
                "A property's type is none of the value types, enums, structs or models of the version; a note "
                + "lists the supported types."
        case .inverseNotFound: return "`inverse:` names no property of the related model. Add it there or fix the name."
        case .inverseMismatch:
            return
                "The two sides of a relationship name different inverses. Make them agree, or write `inverse:` on "
                + "one side only."
        case .inverseNotRelationship:
            return "`inverse:` names an attribute, not a relationship back. Point it at the relationship."
        case .nullifyOntoRequired:
            return
                "Deleting the other side would set a non-optional to-one relationship to nil. Make it optional or "
                + "change the delete rule."
        case .missingInverse:
            return
                "A relationship has no inverse, so SwiftData cannot keep the other side in step (or "
                + "might pair it by itself). Add `inverse:`, or `inverse: false` where the relationship is one-way "
                + "on purpose. Two relationships that point at each other are warned once, and a relationship whose "
                + "`inverse:` is already in error is not warned."
        case .invalidCount:
            return
                "A `maxCount` other than 1 on a to-one relationship (counts on a to-one are carried as written, but it "
                + "holds at most one model), or a minimum above the maximum."
        case .relationshipOptionOnAttribute:
            return "A relationship option (`deleteRule`, `inverse`, counts) on an attribute. Remove it."
        case .attributeOptionOnRelationship:
            return "An attribute option (`unique`, `externalStorage`, …) on a relationship. Remove it."
        case .transientNeedsDefault:
            return "A `transient` property needs a default or an optional type: it is never loaded from the store."
        case .externalStorageNeedsData: return "`externalStorage` applies to `Data` only."
        case .unknownKeyPathProperty:
            return
                "A `unique`, `indexes` or `dedupe.orderBy` entry names no property a group can hold: `unique` "
                + "takes stored attributes and to-one relationships, never a to-many or a composite (Core Data "
                + "refuses one in a constraint); `indexes` and `orderBy` take stored attributes (one a sort can "
                + "order)."
        case .uniqueNeedsNewerPlatform:
            return
                "Compound uniqueness needs `#Unique` (iOS 18, macOS 15, …). Raise the platforms or constrain one "
                + "property."
        case .indexNeedsNewerPlatform:
            return "Indexes need `#Index` (iOS 18, macOS 15, …). Raise the platforms or remove the index."
        case .defaultTypeMismatch:
            return
                "A default does not fit the type (text for a number, a case the enum lacks, a number out of "
                + "range, a struct without `expression:`)."
        case .conflictingDefaults: return "A property has both `default` and `expression`. Keep one."
        case .transientOption:
            return "A `transient` property with a storage option. Transient values are not stored; remove the option."
        case .duplicateKeyPathGroup: return "A `unique` or `indexes` group is listed twice. Remove the repeat."
        case .invalidSwiftExpression:
            return
                "`expression:` or `from.convert` is not exactly one Swift expression (unbalanced brackets, `;`, "
                + "statements, comments). Write one expression."
        case .codableNeedsStruct:
            return
                "`codable` applies to a struct, an array of structs or a dictionary of structs; other values are "
                + "stored as columns already. Remove it."
        case .codableNeedsNewerPlatform:
            return
                "`codable` needs the 27 releases on every platform named (`@Attribute(.codable)` is iOS 27). Raise "
                + "the platforms or store the struct as a composite."
        case .inheritanceNeedsNewerPlatform:
            return
                "Model inheritance needs the 26 releases on every platform named. Raise the platforms or flatten "
                + "the model."
        case .unknownSuperclass: return "`superclass:` names no model of the version."
        case .inheritanceCycle: return "Models inherit from each other in a cycle."
        case .overridesInheritedProperty:
            return "A subclass redeclares a property its superclass has. Remove it from the subclass."
        case .cloudKitUnique:
            return "CloudKit sync forbids unique constraints. Remove `unique`/`#Unique` or turn `cloudKit` off."
        case .cloudKitRequiredAttribute: return "CloudKit sync needs every attribute optional or defaulted."
        case .cloudKitRequiredRelationship: return "CloudKit sync needs every relationship optional."
        case .cloudKitDeny: return "CloudKit sync forbids the `deny` delete rule."
        case .cloudKitSchemaShrinks:
            return
                "A step between two versions that sync with CloudKit removes, renames or retypes "
                + "something. CloudKit's production schema only grows, and devices still on the older version go on "
                + "syncing the old field; keep the old property beside the new one until no device runs that "
                + "version."
        case .duplicateVersion:
            return "Two files declare the same version of a schema. Every shipped version needs its own number."
        case .identicalVersions:
            return
                "A version changes nothing at all from the one before. Delete it, or make the change it was meant "
                + "to have."
        case .missingConfig:
            return "The schema folder has no `swiftdata-gen.yaml`. Add one at its top (it may be empty)."
        case .noVersions:
            return "No version files were found below the schema folder. Add one `.yaml` file per shipped version."
        case .renameSourceNotFound:
            return
                "`renamedFrom` names no model or property of the previous version. Name it as it was in that version."
        case .shippedVersionEdited:
            return
                "A locked (shipped) version was changed; stores on devices hold the old shape. Restore it from "
                + "version control and make the change in a new version."
        case .shippedVersionMissing:
            return "A locked version (or its bridge) is missing from the YAML. Restore its file."
        case .versionBeforeShipped:
            return "A new version is numbered before a shipped one. Number it after the last locked version."
        case .malformedLockFile:
            return
                "`swiftdata-gen.lock` is damaged (edited, cut short, emptied, entries removed). Restore it from "
                + "version control; `lock` refuses to rewrite it."
        case .duplicateRenamingIdentifier:
            return
                "Two stored properties would read the same stored column in a migration. Let only one continue it "
                + "(remove a `renamedFrom` or `from`)."
        case .duplicateChecksum:
            return
                "Two schemas of the plan would have the same SwiftData checksum and no hash modifier can separate "
                + "them. Change one version."
        case .renameAlreadyApplied:
            return
                "A `renamedFrom` came along when the file was copied from the version that applied it. "
                + "Remove it."
        case .versionFileNameMismatch:
            return "The file is named for another version than it declares. Rename the file or fix `version:`."
        case .newVersionNotAfterLatest:
            return
                "`new-version` was given a version that is not after the schema's latest, or the folder holds several "
                + "schemas and `--schema` names none of them. Give a higher number, or name the schema."
        case .newVersionRenameInvalid:
            return
                "`new-version --rename Model.old=new` names no model or property of the latest version, or a new "
                + "name that model already has, so nothing is written. Name a property the latest version stores."
        case .newVersionLayoutNotEditable:
            return
                "`new-version` cannot leave a step-only key out of the latest file in the layout it is written in "
                + "(an explicit `?` key, a mapping in braces over several lines), so it writes nothing. Write the "
                + "key as `key: value`, or copy the file by hand."
        case .requiredPropertyAdded:
            return "A new required property has no value for existing rows. Add `default:` or make it optional."
        case .typeChangeLosesData:
            return
                "A property changes type (or how an enum or struct is stored) with no conversion. Add `from:` as "
                + "the message shows."
        case .optionalityTightened:
            return
                "An optional property becomes required with no value for the rows that hold nil. Add `default:` "
                + "or keep it optional."
        case .conversionSourceMissing: return "`from.property` names no property of the previous version."
        case .uniquenessNeedsDedupe:
            return
                "Uniqueness is added over existing rows that may repeat. Add `dedupe:` to say which duplicate survives. "
                + "A group holding a relationship cannot be de-duplicated: make it unique in the version that adds "
                + "the model."
        case .dataLoss:
            return
                "A model or property is removed and its data with it. List it under "
                + "`acknowledgedRemovals` if that is intended."
        case .noRoomForBridge:
            return
                "A two-stage step needs a bridge version number between the two versions. Number the new version "
                + "as the message says."
        case .linkTargetNotCreatable:
            return
                "Text cannot be turned into related objects: the related model requires more than the matched "
                + "key. Give the rest defaults."
        case .hookRequired:
            return
                "The step calls migration hooks your team writes; `--hooks-output` creates the file to "
                + "fill in."
        case .conversionConflict:
            return
                "A conversion conflicts with a rename, a relationship, an enum's raw values or a struct's name. "
                + "The message says which and what to change."
        case .modelRenameUnsupported:
            return
                "A model rename is planned through a bridge that copies every row, but not here: under CloudKit, "
                + "with inheritance, a name swap, new uniqueness or a relationship that changes in the same step. "
                + "The message says which; keep the name (alias it in app code) or make the change in another version."
        case .uniqueValueNotPerRow:
            return
                "A new unique property's default would give every existing row the same value. Make it optional "
                + "without a default, or fill it in hooks."
        case .dedupeUnused:
            return "`dedupe:` is not needed by the step into this version (or the model is new, or the "
                + "version is the first, so there is no existing data). Remove it."
        case .toManyBecomesToOne:
            return
                "A to-many relationship becomes to-one, which SwiftData cannot infer. Follow the advice: a new "
                + "relationship filled by a conversion."
        case .codableShapeChanged:
            return
                "A struct stored `.codable` changed its fields. SwiftData migrates nothing for it, so every "
                + "value encoded by an earlier version must still decode: new fields optional or with a default in "
                + "`init(from:)`, none renamed or removed."
        case .witnessLessVisible:
            return
                "A property named `id` meets `Identifiable`'s requirement, which every model has through "
                + "`PersistentModel`; with `access: public` (or `package`) in the configuration it must be as visible "
                + "as the model, or the generated class does not compile. Remove its `access:`."
        case .customCodeObligation:
            return
                "The step into a `customMigration` version does what SwiftData cannot do alone but its "
                + "`willMigrate` can (a new uniqueness without `dedupe`, a property made required without a "
                + "default), and the generator leaves it to the hooks' code: the message says what that code must "
                + "leave true before the schema step, or the migration fails on a device. A history imported from "
                + "an app gets this where the app's own stage did the work. A type change is never left to a hook: "
                + "no stage's schema step changes a type (SDG621)."
        case .outputNotOwned:
            return
                "A file in the output folder is not this schema folder's by the manifest (a hand-written file, "
                + "another schema's output, a damaged manifest). Move it or choose another folder."
        case .outputWriteFailed:
            return
                "Writing failed (read-only folder, disk full, a folder in the way). Nothing was changed; fix the "
                + "cause and run again."
        case .templateError:
            return
                "A template (built in or from `--templates`) failed to render, or the `--templates` folder does "
                + "not exist. Fix the template named, or the path."
        case .outputNameCollision:
            return
                "Two generated types or files would get one name (naming config, `typeName:`, input file paths). "
                + "Change the names."
        case .newVersionFileExists:
            return
                "`new-version` found a file where the new version's would go, and wrote nothing. Edit that file, or "
                + "give another version."
        }
    }

    /// The catalog's Reference/Diagnostics.md: every code with its meaning, in code order.
    static var referencePage: String {
        var lines = [
            "# Diagnostic codes", "",
            "Every code swiftdata-gen reports, what it means and what to do. Generated from `DiagnosticCode` and "
                + "`Tests/SwiftDataGenCoreTests/DiagnosticReference.swift`; a test keeps this page in step (re-record "
                + "with `SDG_RECORD_GOLDENS=1 swift test --filter DiagnosticReferenceTests`). Codes are never reused "
                + "for another meaning.",
            "",
        ]
        for code in allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
            lines.append("## \(code.rawValue)")
            lines.append("")
            lines.append(
                "**\(code.severity.rawValue.prefix(1).uppercased() + code.severity.rawValue.dropFirst())** · \(code.area.rawValue)"
            )
            lines.append("")
            lines.append(code.reference)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

extension DiagnosticCode {
    /// How a code is reported: always as an error, always as a warning, or either as the case
    /// decides (`testEachCodeIsReportedWithItsSeverity` holds the sources to it).
    enum Severity: String {
        case error, warning
        case either = "error or warning"
    }

    var severity: Severity {
        switch self {
        case .replacesModelMember, .missingInverse, .cloudKitSchemaShrinks, .renameAlreadyApplied,
            .versionFileNameMismatch, .dataLoss, .hookRequired, .dedupeUnused, .codableShapeChanged,
            .customCodeObligation, .redundantIndex:
            return .warning
        case .invalidValue, .outputNotOwned:
            return .either
        case .unreadableFile, .yamlSyntax, .duplicateKey, .undefinedAlias, .aliasExpansionLimit, .nestingTooDeep,
            .invalidEncoding, .emptyDocument, .multipleDocuments, .mergeKeyUnsupported, .unsupportedTag,
            .fileTooLarge, .unknownKey, .missingKey, .wrongNodeKind, .invalidTypeSpelling, .invalidVersion,
            .invalidIdentifier, .reservedName, .duplicateName, .countLimit, .witnessLessVisible, .unknownType,
            .inverseNotFound, .inverseMismatch, .inverseNotRelationship, .nullifyOntoRequired, .invalidCount,
            .relationshipOptionOnAttribute, .attributeOptionOnRelationship, .transientNeedsDefault,
            .externalStorageNeedsData, .unknownKeyPathProperty, .uniqueNeedsNewerPlatform, .indexNeedsNewerPlatform,
            .defaultTypeMismatch, .conflictingDefaults, .transientOption, .duplicateKeyPathGroup,
            .invalidSwiftExpression, .codableNeedsStruct, .codableNeedsNewerPlatform, .inheritanceNeedsNewerPlatform,
            .unknownSuperclass, .inheritanceCycle, .overridesInheritedProperty, .cloudKitUnique,
            .cloudKitRequiredAttribute, .cloudKitRequiredRelationship, .cloudKitDeny, .duplicateVersion,
            .identicalVersions, .missingConfig, .noVersions, .renameSourceNotFound, .shippedVersionEdited,
            .shippedVersionMissing, .versionBeforeShipped, .malformedLockFile, .duplicateRenamingIdentifier,
            .duplicateChecksum, .newVersionNotAfterLatest, .newVersionLayoutNotEditable, .newVersionRenameInvalid,
            .requiredPropertyAdded, .typeChangeLosesData, .optionalityTightened, .conversionSourceMissing,
            .uniquenessNeedsDedupe, .noRoomForBridge, .linkTargetNotCreatable, .conversionConflict,
            .modelRenameUnsupported, .uniqueValueNotPerRow, .toManyBecomesToOne, .outputWriteFailed, .templateError,
            .outputNameCollision, .newVersionFileExists:
            return .error
        }
    }

    /// The reference's first sentence, for tables that list codes by area.
    var summary: String {
        let text = reference
        guard let end = text.range(of: ". ") else { return String(text.dropLast(text.hasSuffix(".") ? 1 : 0)) }
        return String(text[..<end.lowerBound])
    }
}
