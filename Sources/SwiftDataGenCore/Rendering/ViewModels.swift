/// What the templates see: every string already spelled as Swift, every choice already made.

struct FileHeaderView: MustacheRepresentable {
    var inputs: [String]

    var mustacheValue: MustacheValue {
        ["inputs": .string(inputs.joined(separator: ", "))]
    }
}

struct EnumView: MustacheRepresentable {
    struct Case {
        var name: String
        /// Nil when Swift's implicit raw value (the case name) is the stored one.
        var rawLiteral: String?
    }

    var name: String
    var rawType: String
    var cases: [Case]

    var mustacheValue: MustacheValue {
        [
            "name": .string(name), "rawType": .string(rawType),
            "cases": .list(cases.map { ["name": .string($0.name), "rawLiteral": $0.rawLiteral.mustacheValue] }),
        ]
    }
}

struct StoredPropertyView: MustacheRepresentable {
    var docLines: [String]
    var attributes: [String]
    var name: String
    var type: String
    var initialValue: String?

    var mustacheValue: MustacheValue {
        [
            "docLines": docLines.mustacheValue, "attributes": attributes.mustacheValue, "name": .string(name),
            "type": .string(type), "initialValue": initialValue.mustacheValue,
        ]
    }
}

/// The typed face of an enum stored as its raw value.
struct EnumAccessorView: MustacheRepresentable {
    var docLines: [String]
    var name: String
    var type: String
    var getter: String
    var setter: String

    var mustacheValue: MustacheValue {
        [
            "docLines": docLines.mustacheValue, "name": .string(name), "type": .string(type),
            "getter": .string(getter), "setter": .string(setter),
        ]
    }
}

struct ModelView: MustacheRepresentable {
    var docLines: [String]
    var availability: String?
    var declaration: String
    var macros: [String]
    var properties: [StoredPropertyView]
    var accessors: [EnumAccessorView]
    var initSignature: String
    var initAssignments: [String]
    var superInit: String?

    var mustacheValue: MustacheValue {
        [
            "docLines": docLines.mustacheValue, "availability": availability.mustacheValue,
            "declaration": .string(declaration), "macros": macros.mustacheValue,
            "hasMacros": .bool(!macros.isEmpty), "properties": .list(properties.map(\.mustacheValue)),
            "accessors": .list(accessors.map(\.mustacheValue)), "initSignature": .string(initSignature),
            "initAssignments": initAssignments.mustacheValue, "superInit": superInit.mustacheValue,
        ]
    }
}

struct VersionedSchemaView: MustacheRepresentable {
    var header: FileHeaderView
    var access: String
    var schemaName: String
    var versionArguments: String
    var modelList: String
    var enums: [EnumView]
    var models: [ModelView]

    var mustacheValue: MustacheValue {
        [
            "header": header.mustacheValue, "access": .string(access), "schemaName": .string(schemaName),
            "versionArguments": .string(versionArguments), "modelList": .string(modelList),
            "enums": .list(enums.map(\.mustacheValue)), "models": .list(models.map(\.mustacheValue)),
        ]
    }
}

struct CurrentAliasesView: MustacheRepresentable {
    struct Alias {
        var name: String
        var target: String
        var availability: String?
    }

    var header: FileHeaderView
    var access: String
    var currentSchema: String
    var latestSchema: String
    var aliases: [Alias]

    var mustacheValue: MustacheValue {
        [
            "header": header.mustacheValue, "access": .string(access), "currentSchema": .string(currentSchema),
            "latestSchema": .string(latestSchema),
            "aliases": .list(aliases.map { ["name": .string($0.name), "target": .string($0.target), "availability": $0.availability.mustacheValue] }),
        ]
    }
}

struct MigrationPlanView: MustacheRepresentable {
    var header: FileHeaderView
    var access: String
    var planName: String
    var schemas: [String]
    var stages: [String]
    var provisionalNote: [String]

    var mustacheValue: MustacheValue {
        [
            "header": header.mustacheValue, "access": .string(access), "planName": .string(planName),
            "schemas": schemas.mustacheValue, "stages": stages.mustacheValue, "hasStages": .bool(!stages.isEmpty),
            "provisionalNote": provisionalNote.mustacheValue,
        ]
    }
}
