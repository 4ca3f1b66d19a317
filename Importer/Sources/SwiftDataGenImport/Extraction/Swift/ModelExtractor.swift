import SwiftDataGenDSL
import SwiftParser
import SwiftSyntax

/// Reads SwiftData declarations from parsed Swift: every `VersionedSchema` wherever it is
/// declared (module scope, nested in a namespace, in an extension), the `@Model` classes its
/// `models` list names and those they relate to, found by Swift's own lookup rules; plain `@Model`
/// classes of an app that never versioned; the migration plan. Everything else a model declares
/// becomes a note, and a schema that cannot be read is an error.
public enum ModelExtractor {
    public static func extract(_ sources: [SwiftSource]) -> ImportedProject {
        var notes: [ImportNote] = []
        var files: [(items: [CodeBlockItemSyntax.Item], converter: SourceLocationConverter)] = []
        for source in sources {
            // The parser bounds nesting in brackets but not in generic arguments, and recurses
            // once per level: a file nested far deeper than any model needs is not parsed.
            if let line = SyntaxReading.deepGenericNesting(in: source.text) {
                notes.append(
                    .init(
                        position: SourcePosition(file: source.path, line: line, column: 1),
                        message:
                            "generic types are nested more than \(SyntaxReading.maximumGenericNesting) levels deep "
                            + "here, which no model needs; the file is not read"
                    ))
                continue
            }
            let tree = Parser.parse(source: source.text)
            let converter = SourceLocationConverter(fileName: source.path, tree: tree)
            // What the parser could not read is left out of the tree, so a property inside it would
            // vanish: the file is refused at the first place, and nothing is imported.
            if let (position, what) = FirstParseError.find(in: tree) {
                let location = converter.location(for: position)
                notes.append(
                    .init(
                        position: SourcePosition(file: source.path, line: location.line, column: location.column),
                        message: "the Swift parser cannot read this (\(what)); nothing was imported: fix the "
                            + "code here (a merge conflict, a string left open, nesting deeper than the parser "
                            + "reads) or leave this file out",
                        isError: true))
                continue
            }
            files.append((tree.statements.map(\.item), converter))
        }
        var reading = SwiftReading(tree: DeclarationTree(files: files))
        reading.notes = notes + reading.tree.notes
        return reading.project()
    }

    /// Attributes a model class may carry that add no stored member.
    static let attributesWithoutMembers: Set<String> = [
        "Model", "available", "MainActor", "preconcurrency", "objc", "frozen", "usableFromInline",
    ]

    /// Types the DSL stores as themselves; an alias of one is stored as it.
    static let valueTypes: Set<String> = [
        "String", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Decimal", "Date", "Data", "UUID", "URL", "TimeInterval", "CGFloat",
    ]
}

/// The state of one read: the declarations, names resolved against them, and what was said.
struct SwiftReading {
    var tree: DeclarationTree
    var lookup: TypeLookup
    var notes: [ImportNote] = []
    /// Positions of macro and attribute arguments carried into the YAML.
    var carried: [SourcePosition] = []

    init(tree: DeclarationTree) {
        self.tree = tree
        lookup = TypeLookup(tree: tree)
    }

    mutating func note(_ position: SourcePosition, _ message: String) {
        notes.append(ImportNote(position: position, message: message))
    }

    mutating func error(_ position: SourcePosition, _ message: String) {
        notes.append(ImportNote(position: position, message: message, isError: true))
    }

    func isSchema(_ index: Int) -> Bool { tree.types[index].inherited.contains("VersionedSchema") }

    /// The `VersionedSchema` enclosing `index`, itself included.
    func enclosingSchema(of index: Int) -> Int? { tree.scopes(from: index).first(where: isSchema) }

    mutating func project() -> ImportedProject {
        let schemaIndices = tree.types.indices.filter(isSchema)
        var versions: [ImportedVersion] = []
        for index in schemaIndices {
            versions.append(version(index))
        }
        var unversioned: ImportedVersion?
        let inVersions = Set(versions.flatMap(\.modelDeclarations))
        let loose = tree.types.indices.filter {
            tree.types[$0].isModel && !inVersions.contains($0) && enclosingSchema(of: $0) == nil
        }
        if let first = loose.first {
            var contents = VersionContents()
            var models: [ImportedModel] = []
            for index in loose { models.append(model(index, into: &contents)) }
            unversioned = ImportedVersion(
                typeName: nil, version: nil, enums: contents.enums, structs: contents.structs,
                models: firstOfEachName(models), location: tree.types[first].position)
            unversioned?.modelDeclarations = loose
        }
        var planName: String?
        var stages: [ImportedStage] = []
        for index in tree.types.indices where tree.types[index].inherited.contains("SchemaMigrationPlan") {
            guard planName == nil else {
                note(
                    tree.types[index].position,
                    "\(tree.types[index].qualifiedName) is a second migration plan; only \(planName ?? "")'s stages "
                        + "are carried")
                continue
            }
            planName = tree.types[index].name
            stages = self.stages(ofPlan: index)
        }
        var seen: Set<String> = []
        let said = notes.filter { seen.insert($0.description).inserted }
        return ImportedProject(
            versions: versions, migrationPlan: planName, stages: stages, unversioned: unversioned, notes: said,
            carriedArguments: Array(Set(carried.map(\.description))).sorted(),
            moduleNames: Set(tree.topLevel.keys).union(tree.topLevelAliases.keys))
    }

    /// The enums and structs a version's models store, met while reading them.
    struct VersionContents {
        var enums: [ImportedEnum] = []
        var structs: [ImportedStruct] = []
        /// Declaration index of each name taken, so a second type of one name is said.
        var owners: [String: Int] = [:]
    }

    private mutating func version(_ index: Int) -> ImportedVersion {
        let schema = tree.types[index]
        var number: (Int, Int, Int)?
        var listed: [(index: Int, position: SourcePosition)]?
        for member in schema.members {
            let decl = member.node.decl
            if let variable = decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
                let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            {
                if identifier == "versionIdentifier" {
                    number = SyntaxReading.versionNumber(in: Syntax(binding))
                    if number == nil {
                        note(
                            member.position(binding),
                            "\(schema.qualifiedName).versionIdentifier is not Schema.Version(major, minor, patch) "
                                + "with number literals; the version number is taken from the file order instead")
                    }
                } else if identifier == "models" {
                    listed = listedModels(binding, of: index, at: member)
                } else {
                    noteMember(member, of: schema.qualifiedName)
                }
            } else if !Self.declaresType(decl) {
                noteMember(member, of: schema.qualifiedName)
            }
        }
        let nested = schema.children.values.flatMap { $0 }.filter { tree.types[$0].isModel }.sorted()
        var order: [Int] = []
        if let listed {
            order = listed.map(\.index)
        } else {
            order = nested
            note(
                schema.position,
                "\(schema.qualifiedName).models is not a list of Model.self the importer can read; the @Model "
                    + "classes declared inside it are imported")
        }
        var contents = VersionContents()
        var models: [ImportedModel] = []
        var done: Set<Int> = []
        var queue = order
        while !queue.isEmpty {
            let modelIndex = queue.removeFirst()
            guard done.insert(modelIndex).inserted else { continue }
            let declared = tree.types[modelIndex]
            if declared.parent != index, !order.contains(modelIndex) {
                note(
                    declared.position,
                    "\(declared.qualifiedName) is not in \(schema.qualifiedName).models, but a model listed there "
                        + "relates to it, so SwiftData stores it in this version too; the YAML lists it")
            } else if declared.parent != index, enclosingSchema(of: modelIndex) != index {
                note(
                    declared.position,
                    "\(declared.qualifiedName) is declared outside \(schema.qualifiedName); the YAML gives every "
                        + "version its own copy, as SwiftData needs")
            }
            let read = model(modelIndex, into: &contents)
            models.append(read)
            queue += read.relatedDeclarations.filter { !done.contains($0) }
        }
        for unlisted in nested where !done.contains(unlisted) {
            note(
                tree.types[unlisted].position,
                "\(tree.types[unlisted].qualifiedName) is declared in \(schema.qualifiedName) but neither listed in "
                    + "its models nor related to a model listed there, so SwiftData does not store it in this "
                    + "version; not imported")
        }
        // Enums and structs declared in the schema are the version's own, stored or not.
        for child in schema.children.values.flatMap({ $0 }).sorted() {
            let declared = tree.types[child]
            if declared.kind == .enumeration, declared.inherited.contains(where: { ["String", "Int"].contains($0) }) {
                _ = take(child, into: &contents)
            }
        }
        var version = ImportedVersion(
            typeName: schema.name, version: number, enums: contents.enums, structs: contents.structs,
            models: firstOfEachName(models), location: schema.position)
        version.qualifiedName = schema.qualifiedName
        version.modelDeclarations = Array(done)
        version.listedModels = order.map { tree.types[$0].qualifiedName }
        version.aliases = aliases(naming: index)
        return version
    }

    static func declaresType(_ decl: DeclSyntax) -> Bool {
        decl.is(EnumDeclSyntax.self) || decl.is(StructDeclSyntax.self) || decl.is(ClassDeclSyntax.self)
            || decl.is(ActorDeclSyntax.self) || decl.is(TypeAliasDeclSyntax.self)
    }

    /// The classes a schema's `models` lists, resolved from inside the schema, as the compiler
    /// builds the list: literal lists of `Model.self` joined by `+`, and another version's
    /// `models`. An entry that names no `@Model` class of the files read, or a form the importer
    /// does not follow (a function's result), is an error at its place.
    private mutating func listedModels(
        _ binding: PatternBindingSyntax, of schema: Int, at member: Located<MemberBlockItemSyntax>
    ) -> [(index: Int, position: SourcePosition)] {
        var visiting: Set<Int> = [schema]
        guard let expression = Self.valueExpression(of: binding) else {
            error(
                member.position(binding),
                "\(tree.types[schema].qualifiedName).models is not one expression the importer can follow; write it "
                    + "as a list of Model.self (or another version's models + [Model.self])")
            return []
        }
        return models(in: expression, of: schema, at: member, visiting: &visiting)
    }

    /// The expression a stored or computed property's value is: its initializer, or a getter of
    /// one expression (with or without `return`).
    static func valueExpression(of binding: PatternBindingSyntax) -> ExprSyntax? {
        if let value = binding.initializer?.value { return value }
        var statements: CodeBlockItemListSyntax?
        if case .getter(let items)? = binding.accessorBlock?.accessors {
            statements = items
        } else if case .accessors(let list)? = binding.accessorBlock?.accessors {
            statements = list.first { $0.accessorSpecifier.text == "get" }?.body?.statements
        }
        guard let statements, statements.count == 1, let item = statements.first?.item else { return nil }
        if case .expr(let expression) = item { return expression }
        if case .stmt(let statement) = item, let value = statement.as(ReturnStmtSyntax.self)?.expression {
            return value
        }
        return nil
    }

    private mutating func models(
        in expression: ExprSyntax, of schema: Int, at member: Located<MemberBlockItemSyntax>,
        visiting: inout Set<Int>
    ) -> [(index: Int, position: SourcePosition)] {
        let name = tree.types[schema].qualifiedName
        if let array = expression.as(ArrayExprSyntax.self) {
            var result: [(index: Int, position: SourcePosition)] = []
            for element in array.elements {
                let entry = element.expression
                let position = member.position(entry)
                guard let reference = entry.as(MemberAccessExprSyntax.self), reference.declName.baseName.text == "self",
                    let base = reference.base
                else {
                    error(position, "\(name).models holds '\(entry.trimmedDescription)', which is not Model.self")
                    continue
                }
                let path = SyntaxReading.expressionPath(base)
                let written = path.joined(separator: ".")
                guard case .declared(let index)? = lookup.resolve(path: path, from: schema) else {
                    error(
                        position,
                        "\(name).models lists \(written), whose @Model class is not in the files read; add its file "
                            + "(the version cannot be imported without it)")
                    continue
                }
                guard tree.types[index].isModel else {
                    error(
                        position,
                        "\(name).models lists \(written), which is \(tree.types[index].qualifiedName), not an @Model "
                            + "class")
                    continue
                }
                result.append((index, position))
            }
            return result
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            let joinedByPlus = elements.enumerated().allSatisfy { offset, element in
                offset % 2 == 0 || element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+"
            }
            if joinedByPlus && elements.count % 2 == 1 {
                return stride(from: 0, to: elements.count, by: 2).flatMap {
                    models(in: elements[$0], of: schema, at: member, visiting: &visiting)
                }
            }
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
            let inner = tuple.elements.first?.expression
        {
            return models(in: inner, of: schema, at: member, visiting: &visiting)
        }
        // `Other.models`: that version's list, as the compiler reads it.
        if let reference = expression.as(MemberAccessExprSyntax.self), reference.declName.baseName.text == "models",
            let base = reference.base,
            case .declared(let other)? = lookup.resolve(path: SyntaxReading.expressionPath(base), from: schema),
            isSchema(other), visiting.insert(other).inserted
        {
            defer { visiting.remove(other) }
            let declared = tree.types[other].members.first { DeclarationTree.valueName($0.node.decl) == "models" }
            if let declared, let binding = declared.node.decl.as(VariableDeclSyntax.self)?.bindings.first,
                let value = Self.valueExpression(of: binding)
            {
                return models(in: value, of: other, at: declared, visiting: &visiting).map {
                    ($0.index, member.position(expression))
                }
            }
        }
        error(
            member.position(expression),
            "\(name).models is built from '\(expression.trimmedDescription)', which the importer does not "
                + "follow; write "
                + "it as a list of Model.self (or another version's models + [Model.self])")
        return []
    }

    /// Module-scope typealiases that name the schema at `index`: how an app names its current version.
    private mutating func aliases(naming index: Int) -> [String] {
        tree.topLevelAliases.keys.sorted().filter { name in
            lookup.unqualified(name, from: nil) == .declared(index)
        }
    }

    /// One model per name, the first met: SwiftData names an entity after its class, so a second
    /// class of one name is said, not imported.
    mutating func firstOfEachName(_ models: [ImportedModel]) -> [ImportedModel] {
        var seen: [String: SourcePosition] = [:]
        return models.filter { model in
            if let first = seen[model.name] {
                note(
                    model.location,
                    "\(model.name) is declared again here; only the one at \(first) is imported (two classes "
                        + "cannot share an entity name)")
                return false
            }
            seen[model.name] = model.location
            return true
        }
    }
}

/// The first place a parsed file holds text the parser skipped (in the tree, or as trivia: a
/// merge conflict's markers, whose two sides would both be read) or a token it had to invent.
final class FirstParseError: SyntaxVisitor {
    private var found: (AbsolutePosition, String)?

    /// The start of the skipped text, on one line.
    static func excerpt(_ text: String) -> String {
        let line = text.prefix { $0 != "\n" && $0 != "\r" }
        return line.count > 40 ? line.prefix(40) + "…" : String(line)
    }

    static func find(in tree: SourceFileSyntax) -> (AbsolutePosition, String)? {
        let visitor = FirstParseError(viewMode: .all)
        visitor.walk(tree)
        return visitor.found
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        if found == nil {
            found = (node.positionAfterSkippingLeadingTrivia, "unexpected '\(Self.excerpt(node.trimmedDescription))'")
        }
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        guard found == nil else { return .skipChildren }
        if token.presence == .missing {
            found = (token.positionAfterSkippingLeadingTrivia, "expected '\(token.text)'")
            return .skipChildren
        }
        var offset = token.position
        for piece in token.leadingTrivia {
            if case .unexpectedText(let text) = piece {
                found = (offset, "unexpected '\(Self.excerpt(text))'")
                return .skipChildren
            }
            offset += piece.sourceLength
        }
        offset = token.endPositionBeforeTrailingTrivia
        for piece in token.trailingTrivia {
            if case .unexpectedText(let text) = piece {
                found = (offset, "unexpected '\(Self.excerpt(text))'")
                return .skipChildren
            }
            offset += piece.sourceLength
        }
        return .skipChildren
    }
}
