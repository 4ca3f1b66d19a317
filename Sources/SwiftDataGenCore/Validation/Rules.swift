import SwiftDataGenDSL

/// A check that reads what resolution built and says what is wrong with it, for one scope: a
/// version, a history, or a step between two versions. A rule is added by declaring it in the list
/// of its group's file (`FileRules`, `AttributeRules`, `NameRules`, `IdentifierRules`,
/// `RelationshipRules`) and is run from `Rules`; what cannot be read at all (a wrong key, an
/// unknown type) stays with the decoder and resolvers, and bounds on size are `DSLDecoder.Limits`.
public struct Rule<Subject>: Sendable {
    /// The code every diagnostic the rule makes carries.
    public let code: DiagnosticCode
    /// Version files (name and text, oldest first) that break the rule: `RuleTests` requires the
    /// rule to report its code on them, so no rule in a list can be one that never fires.
    public let example: [(file: String, text: String)]
    let check: @Sendable (Subject) -> [Diagnostic]

    init(
        _ code: DiagnosticCode, example: [(file: String, text: String)],
        check: @escaping @Sendable (Subject) -> [Diagnostic]
    ) {
        self.code = code
        self.example = example
        self.check = check
    }
}

/// One resolved version, with the naming its stored names follow.
public struct VersionSubject: Sendable {
    let version: SchemaVersion
    let naming: NamingConfig
}

/// Every version of one schema, oldest first, once renames are resolved, and the names the
/// generated code declares for it.
public struct HistorySubject: Sendable {
    let schema: String
    let versions: [SchemaVersion]
    let config: GeneratorConfig
    let names: GeneratedNames

    init(schema: String, versions: [SchemaVersion], config: GeneratorConfig) {
        self.schema = schema
        self.versions = versions
        self.config = config
        names = GeneratedNames(schema: schema, naming: config.naming, versions: versions)
    }
}

/// Two neighbouring versions and what changed between them.
public struct StepSubject: Sendable {
    let old: SchemaVersion
    let new: SchemaVersion
    let changes: [SchemaChange]
}

/// Every rule, by scope; each scope's list is its groups' lists.
public enum Rules {
    public static let version: [Rule<VersionSubject>] = FileRules.version
    public static let history: [Rule<HistorySubject>] =
        NameRules.history + IdentifierRules.history + AttributeRules.history
    public static let step: [Rule<StepSubject>] = RelationshipRules.step

    static func check<Subject>(_ rules: [Rule<Subject>], _ subject: Subject) -> [Diagnostic] {
        rules.flatMap { $0.check(subject) }
    }
}
