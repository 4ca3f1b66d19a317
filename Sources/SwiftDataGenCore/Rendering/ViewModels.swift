/// What the templates see: every string already spelled as Swift, every choice already made.

/// A view model already in template form.
struct RawView: MustacheRepresentable {
    var value: MustacheValue
    var mustacheValue: MustacheValue { value }
}

struct FileHeaderView: MustacheRepresentable {
    var inputs: [String]

    var mustacheValue: MustacheValue {
        // File and folder names come from outside: one with a newline must not start a line of code.
        ["inputs": .string(inputs.map(SwiftLiteral.commentText).joined(separator: ", "))]
    }
}

struct EnumView: MustacheRepresentable {
    struct Case {
        var name: String
        /// Nil when Swift's implicit raw value (the case name) is the stored one.
        var rawLiteral: String?
        /// `(days: Int)`; nil for a case without associated values.
        var associatedValues: String?
    }

    var name: String
    /// `String, Codable, CaseIterable, Sendable`; without a raw type, the rest alone; with
    /// associated values `Codable, Hashable, Sendable` (no `CaseIterable` is synthesized for them).
    var conformances: String
    var cases: [Case]

    var mustacheValue: MustacheValue {
        [
            "name": .string(name), "conformances": .string(conformances),
            "cases": .list(
                cases.map {
                    [
                        "name": .string($0.name), "rawLiteral": $0.rawLiteral.mustacheValue,
                        "associatedValues": $0.associatedValues.mustacheValue,
                    ]
                }),
        ]
    }
}

struct StoredPropertyView: MustacheRepresentable {
    /// With its trailing space, as the model's own `access`.
    var access: String
    var docLines: [String]
    var attributes: [String]
    var name: String
    var type: String
    var initialValue: String?

    var mustacheValue: MustacheValue {
        [
            "access": .string(access), "docLines": docLines.mustacheValue, "attributes": attributes.mustacheValue,
            "name": .string(name),
            "type": .string(type), "initialValue": initialValue.mustacheValue,
        ]
    }
}

/// The typed face of an enum stored as its raw value.
struct AccessorView: MustacheRepresentable {
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
    var access: String
    var docLines: [String]
    var availability: String?
    var declaration: String
    var macros: [String]
    var properties: [StoredPropertyView]
    var accessors: [AccessorView]
    var initSignature: String
    var initAssignments: [String]
    var superInit: String?

    var mustacheValue: MustacheValue {
        [
            "access": .string(access), "docLines": docLines.mustacheValue, "availability": availability.mustacheValue,
            "declaration": .string(declaration), "macros": macros.mustacheValue,
            "hasMacros": .bool(!macros.isEmpty), "properties": .list(properties.map(\.mustacheValue)),
            "accessors": .list(accessors.map { $0.mustacheValue.with("access", .string(access)) }),
            "initSignature": .string(initSignature),
            "initAssignments": initAssignments.mustacheValue, "superInit": superInit.mustacheValue,
        ]
    }
}

struct VersionedSchemaView: MustacheRepresentable {
    var header: FileHeaderView
    var access: String
    var schemaName: String
    var docLines: [String]
    var versionArguments: String
    var modelList: String
    var enums: [EnumView]
    var structs: [StructView]
    /// Each model's code, laid out by the `model` template.
    var models: [String]

    var mustacheValue: MustacheValue {
        [
            "header": header.mustacheValue, "access": .string(access), "schemaName": .string(schemaName),
            "docLines": docLines.mustacheValue, "versionArguments": .string(versionArguments),
            "modelList": .string(modelList),
            "enums": .list(enums.map { $0.mustacheValue.with("access", .string(access)) }),
            "structs": .list(structs.map { $0.mustacheValue(access: access) }),
            "models": .list(models.map { ["code": .string($0)] }),
        ]
    }
}

/// A `Codable` struct of a version: its fields and the init that sets them all.
struct StructView {
    struct Field {
        var name: String
        var type: String
    }

    var name: String
    var fields: [Field]
    var initParameters: String

    /// With the access level of the schema around it, for the struct and each field.
    func mustacheValue(access: String) -> MustacheValue {
        [
            "access": .string(access), "name": .string(name), "initParameters": .string(initParameters),
            "fields": .list(
                fields.map { ["access": .string(access), "name": .string($0.name), "type": .string($0.type)] }),
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
            "aliases": .list(
                aliases.map {
                    [
                        "access": .string(access), "name": .string($0.name), "target": .string($0.target),
                        "availability": $0.availability.mustacheValue,
                    ]
                }),
        ]
    }
}

struct MigrationPlanView: MustacheRepresentable {
    /// One `MigrationStage` entry, with the comment lines that explain it.
    struct Stage {
        var comments: [String]
        var isLightweight: Bool
        var from: String
        var to: String
        /// Statements of the willMigrate / didMigrate closures; empty means `nil`.
        var willMigrate: [String]
        var didMigrate: [String]

        var mustacheValue: MustacheValue {
            [
                "comments": comments.mustacheValue, "isLightweight": .bool(isLightweight),
                "isCustom": .bool(!isLightweight),
                "from": .string(from), "to": .string(to),
                "willMigrate": willMigrate.mustacheValue, "hasWillMigrate": .bool(!willMigrate.isEmpty),
                "didMigrate": didMigrate.mustacheValue, "hasDidMigrate": .bool(!didMigrate.isEmpty),
            ]
        }
    }

    /// A generated migration function, placed in an extension of the schema it works on.
    struct Function {
        var owner: String
        var name: String
        var summary: String
        /// Exactly one of these is set; its fields fill the matching template section.
        var conversion: MigrationPlan.Conversion?
        var link: MigrationPlan.Link?
        var deduplication: MigrationPlan.Deduplication?
        var copy: MigrationPlan.ModelCopy?
        var relink: MigrationPlan.Relink?

        /// The new object, made from the old one's values: `Label(heading: object.title)`.
        static func creation(_ c: MigrationPlan.ModelCopy) -> String {
            let arguments = c.arguments.map { "\($0.target): \(value($0))" }
            return "let copy = \(c.newModel)(\(arguments.joined(separator: ", ")))"
        }

        private static func value(_ v: MigrationPlan.ModelCopy.CopiedValue) -> String {
            v.conversion.map { "\($0.name)(object.\(v.source))" } ?? "object.\(v.source)"
        }

        /// The closures a copy converts values through, declared once per walk.
        static func conversions(_ c: MigrationPlan.ModelCopy) -> [String] {
            (c.arguments + c.values).compactMap(\.conversion).map {
                "let \($0.name): (\($0.sourceType)) -> \($0.targetType) = { \($0.expression) }"
            }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }

        /// The statements that set each link of `subject` from the old object's link, every related
        /// object replaced by its copy where the destination is renamed.
        static func visit(_ r: MigrationPlan.Relink) -> [String] {
            let subject = r.copyLink == nil ? "object" : "copy"
            let lines = r.links.map { link -> String in
                let source = "object.\(link.source)"
                let value: String
                if link.isToMany {
                    let all = link.sourceIsOptional ? "(\(source) ?? [])" : source
                    value = link.through.map { "\(all).compactMap { $0.\($0) }" } ?? all
                } else {
                    value = link.through.map { "\(source)\(link.sourceIsOptional ? "?" : "").\($0)" } ?? source
                }
                return "\(subject).\(link.target) = \(value)"
            }
            guard let copyLink = r.copyLink else { return lines }
            return ["if let copy = object.\(copyLink) {"] + lines.map { "    " + $0 } + ["}"]
        }

        /// What a de-duplication keeps in memory: the key before, when it walks in key order, or
        /// one key per kept object, of the key's own type where the key is one stored value.
        static func memory(_ d: MigrationPlan.Deduplication) -> String {
            let nilIsAKey = d.nilKeysAreEqual && !d.optionalKeys.isEmpty
            guard d.keyOrder != nil else {
                guard let type = d.keyType else { return "var seen: Set<[AnyHashable]> = []" }
                return nilIsAKey ? "var seen: Set<\(type)?> = []" : "var seen: Set<\(type)> = []"
            }
            guard d.keys.count == 1, let type = d.keyType else { return "var previous: [AnyHashable]? = nil" }
            return nilIsAKey ? "var previous: \(type)?? = nil" : "var previous: \(type)? = nil"
        }

        /// The sorts of the walk: by the keys first where repeats can be made neighbours, then in
        /// the order that puts the object kept first.
        static func sortBy(_ d: MigrationPlan.Deduplication) -> String {
            let keys = (d.keyOrder ?? []).map {
                $0.isString ? "SortDescriptor(\\.\($0.key), comparator: .lexical)" : "SortDescriptor(\\.\($0.key))"
            }
            return (keys + ["SortDescriptor(\\.\(d.orderBy)\(d.keepLast ? ", order: .reverse" : ""))"])
                .joined(separator: ", ")
        }

        /// The statements run on each object walked: delete it when it repeats a kept object's key.
        /// With nil keys distinct, an object whose key holds nil never repeats.
        static func visit(_ d: MigrationPlan.Deduplication) -> [String] {
            let skipsNil = !d.nilKeysAreEqual && !d.optionalKeys.isEmpty
            let delete = ["    context.delete(object)", "}"]
            guard d.keyOrder != nil else {
                let condition: String
                if d.keyType != nil, let key = d.keys.first {
                    condition =
                        skipsNil
                        ? "let key = object.\(key), !seen.insert(key).inserted" : "!seen.insert(object.\(key)).inserted"
                } else {
                    let insert =
                        "!seen.insert([\(d.keys.map { "AnyHashable(object.\($0))" }.joined(separator: ", "))]).inserted"
                    condition =
                        skipsNil
                        ? "!(\(d.optionalKeys.map { "object.\($0) == nil" }.joined(separator: " || "))), " + insert
                        : insert
                }
                return ["if \(condition) {"] + delete
            }
            let comparison: (String) -> [String] = { key in
                ["if \(key) == previous {", "    context.delete(object)", "} else {", "    previous = \(key)", "}"]
            }
            if d.keys.count == 1, d.keyType != nil, let key = d.keys.first {
                guard skipsNil else { return comparison("object.\(key)") }
                return ["if let key = object.\(key) {"] + comparison("key").map { "    " + $0 } + ["}"]
            }
            let key = "let key: [AnyHashable] = [\(d.keys.map { "AnyHashable(object.\($0))" }.joined(separator: ", "))]"
            guard skipsNil else { return [key] + comparison("key") }
            return ["if \(d.optionalKeys.map { "object.\($0) != nil" }.joined(separator: ", ")) {"]
                + ([key] + comparison("key")).map { "    " + $0 } + ["}"]
        }

        /// Each kind's section gets the function's name and the batch size it pages by.
        func mustacheValue(batchSize: Int) -> MustacheValue {
            var value: [String: MustacheValue] = [
                "owner": .string(owner), "name": .string(name), "summary": .string(summary),
                "conversion": .null, "link": .null, "deduplication": .null, "copy": .null, "relink": .null,
            ]
            let shared: [String: MustacheValue] = ["name": .string(name), "batchSize": .int(batchSize)]
            if let c = conversion {
                value["conversion"] = .dictionary(
                    [
                        "model": .string(c.model), "source": .string(c.source), "sourceType": .string(c.sourceType),
                        "target": .string(c.target), "targetType": .string(c.targetType),
                        "expression": .string(c.expression),
                    ].merging(shared) { own, _ in own })
            }
            if let l = link {
                value["link"] = .dictionary(
                    [
                        "model": .string(l.model), "source": .string(l.source),
                        "sourceIsOptional": .bool(l.sourceIsOptional),
                        "target": .string(l.target), "targetModel": .string(l.targetModel),
                        "matchKey": .string(l.matchKey),
                    ].merging(shared) { own, _ in own })
            }
            if let d = deduplication {
                value["deduplication"] = .dictionary(
                    [
                        "model": .string(d.model), "orderBy": .string(d.orderBy), "keepLast": .bool(d.keepLast),
                        "memory": .string(Self.memory(d)), "sortBy": .string(Self.sortBy(d)),
                        "visit": .list(Self.visit(d).map(MustacheValue.string)),
                        "inKeyOrder": .bool(d.keyOrder != nil),
                    ].merging(shared) { own, _ in own })
            }
            if let c = copy {
                value["copy"] = .dictionary(
                    [
                        "model": .string(c.oldModel), "copyLink": .string(c.copyLink),
                        "conversions": Self.conversions(c).mustacheValue, "create": .string(Self.creation(c)),
                        "assignments": c.values.map { "copy.\($0.target) = \(Self.value($0))" }.mustacheValue,
                    ].merging(shared) { own, _ in own })
            }
            if let r = relink {
                value["relink"] = .dictionary(
                    ["model": .string(r.model), "visit": Self.visit(r).mustacheValue].merging(shared) { own, _ in own })
            }
            return .dictionary(value)
        }
    }

    struct Hook {
        var name: String
        var summary: String
    }

    var header: FileHeaderView
    var access: String
    var planName: String
    var schemas: [String]
    /// Each schema with the `versionChecksum` SwiftData computes for it, for comparing with a
    /// store from a device.
    var schemaChecksums: [(name: String, checksum: String)]
    var stages: [Stage]
    var functions: [Function]
    var hooksType: String?
    var hooks: [Hook]
    var batchSize: Int

    var mustacheValue: MustacheValue {
        [
            "header": header.mustacheValue, "access": .string(access), "planName": .string(planName),
            "schemas": schemas.mustacheValue,
            "schemaChecksums": .list(
                schemaChecksums.map { ["name": .string($0.name), "checksum": .string($0.checksum)] }),
            "stages": .list(stages.map(\.mustacheValue)),
            "hasStages": .bool(!stages.isEmpty),
            "functions": .list(functions.map { $0.mustacheValue(batchSize: batchSize) }),
            "hooksType": hooksType.mustacheValue,
            "hooks": .list(hooks.map { ["name": .string($0.name), "summary": .string($0.summary)] }),
            "batchSize": .int(batchSize),
        ]
    }
}
