import SwiftSyntax

/// A stage of the app's `SchemaMigrationPlan`, as its `stages` builds it.
public struct ImportedStage: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case lightweight, custom
    }

    public var kind: Kind
    /// The schemas it migrates between, by their qualified names (`Schemas.V1`).
    public var from: String
    public var to: String
    public var willMigrate: ImportedStageCode?
    public var didMigrate: ImportedStageCode?
    public var location: SourcePosition
}

/// The code one phase of a custom stage runs, as the app wrote it.
public struct ImportedStageCode: Sendable, Equatable {
    /// The name the code gives its `ModelContext` (`_` when it reads none); nil where it reads `$0`.
    public var parameter: String?
    /// The statements, their common indentation removed.
    public var statements: String
    /// Where the code is written: the closure, or the function the stage names.
    public var location: SourcePosition
}

/// Reads the stages a plan's `stages` builds, following what it names: a literal list, static
/// properties and functions of the plan or of an extension of `MigrationStage`, module-scope
/// functions. A name it cannot follow is an error at its line: a stage it did not see would
/// drop what the app's code did.
extension SwiftReading {
    /// Declarations followed from `stages` to a stage, at most: no plan needs more.
    static let maximumStageDepth = 16

    mutating func stages(ofPlan index: Int) -> [ImportedStage] {
        let plan = tree.types[index]
        guard let member = plan.members.first(where: { DeclarationTree.valueName($0.node.decl) == "stages" }) else {
            error(
                plan.position,
                "\(plan.qualifiedName).stages is declared in no file read, so the app's stages cannot be carried; "
                    + "add the file that declares it")
            return []
        }
        var walk = StageWalk(plan: plan.qualifiedName)
        walk.visited.insert(member.position(member.node.decl).description)
        walk.collect(Syntax(member.node.decl), scope: index, converter: member.converter, depth: 0, reading: &self)
        return walk.stages
    }

    /// A declaration named `name`, seen from `scope`: a member of an enclosing type, of an
    /// extension of a type declared elsewhere (`MigrationStage`), or at module scope.
    func valueDeclaration(named name: String, from scope: Int?) -> (decl: Located<DeclSyntax>, scope: Int?)? {
        for index in tree.scopes(from: scope) {
            if let member = tree.types[index].members.first(where: { DeclarationTree.valueName($0.node.decl) == name })
            {
                return (Located(node: member.node.decl, converter: member.converter), index)
            }
        }
        for extended in tree.externalMembers.keys.sorted() {
            if let member = tree.externalMembers[extended]?.first(where: {
                DeclarationTree.valueName($0.node.decl) == name
            }) {
                return (Located(node: member.node.decl, converter: member.converter), nil)
            }
        }
        if let decl = tree.topLevelValues[name]?.first { return (decl, nil) }
        return nil
    }
}

/// One walk from a plan's `stages` through what it names.
struct StageWalk {
    let plan: String
    var stages: [ImportedStage] = []
    /// Declarations already followed, by position, so a cycle ends.
    var visited: Set<String> = []

    mutating func collect(
        _ node: Syntax, scope: Int?, converter: SourceLocationConverter, depth: Int, reading: inout SwiftReading
    ) {
        let located = Located(node: node, converter: converter)
        guard depth <= SwiftReading.maximumStageDepth else {
            reading.error(
                located.position(node),
                "\(plan).stages is built through more than \(SwiftReading.maximumStageDepth) declarations; the "
                    + "importer reads no further: write the stages closer to the plan")
            return
        }
        // Names the walked code declares itself (variables, parameters) are not stages to follow.
        var locals: Set<String> = []
        for token in node.tokens(viewMode: .sourceAccurate) {
            guard let parent = token.parent else { continue }
            if parent.is(IdentifierPatternSyntax.self) || parent.is(FunctionParameterSyntax.self)
                || parent.is(ClosureShorthandParameterSyntax.self) || parent.is(ClosureParameterSyntax.self)
            {
                locals.insert(SyntaxReading.unescaped(token))
            }
        }
        visit(node, scope: scope, located: located, locals: locals, depth: depth, reading: &reading)
    }

    private mutating func visit(
        _ node: Syntax, scope: Int?, located: Located<Syntax>, locals: Set<String>, depth: Int,
        reading: inout SwiftReading
    ) {
        if let call = node.as(FunctionCallExprSyntax.self), let kind = Self.stageKind(call.calledExpression) {
            if let stage = read(call, kind: kind, scope: scope, located: located, reading: &reading) {
                stages.append(stage)
            }
            return
        }
        if let reference = node.as(DeclReferenceExprSyntax.self) {
            follow(reference.baseName, scope: scope, located: located, locals: locals, depth: depth, reading: &reading)
            return
        }
        if let member = node.as(MemberAccessExprSyntax.self) {
            // `.name`, `Self.name`, `Plan.name`, `MigrationStage.name`: a static member to follow;
            // `value.name` reads a value, whose own expression is walked.
            guard let base = member.base, !Self.namesType(base) else {
                follow(
                    member.declName.baseName, scope: scope, located: located, locals: [], depth: depth,
                    reading: &reading)
                return
            }
            visit(Syntax(base), scope: scope, located: located, locals: locals, depth: depth, reading: &reading)
            return
        }
        for child in node.children(viewMode: .sourceAccurate) {
            visit(child, scope: scope, located: located, locals: locals, depth: depth, reading: &reading)
        }
    }

    /// `.custom`, `.lightweight`, `MigrationStage.custom`: a stage built here.
    static func stageKind(_ called: ExprSyntax) -> ImportedStage.Kind? {
        guard let member = called.as(MemberAccessExprSyntax.self),
            let kind = ImportedStage.Kind(rawValue: member.declName.baseName.text)
        else { return nil }
        guard let base = member.base else { return kind }
        return SyntaxReading.expressionPath(base).last == "MigrationStage" ? kind : nil
    }

    /// A path of type names: `Self`, `Plan`, `Swift.Array`.
    static func namesType(_ expression: ExprSyntax) -> Bool {
        SyntaxReading.expressionPath(expression).allSatisfy { $0 == "Self" || $0.first?.isUppercase == true }
    }

    private mutating func follow(
        _ token: TokenSyntax, scope: Int?, located: Located<Syntax>, locals: Set<String>, depth: Int,
        reading: inout SwiftReading
    ) {
        let name = SyntaxReading.unescaped(token)
        // Types, `self` and the walked code's own variables add no stage of their own.
        guard !locals.contains(name), name.first?.isUppercase != true, !["self", "super", "init"].contains(name)
        else { return }
        guard let (decl, declScope) = reading.valueDeclaration(named: name, from: scope) else {
            reading.error(
                located.position(token),
                "\(plan).stages uses '\(name)', which is declared in no file read, so the importer cannot see which "
                    + "stages it adds: add its file")
            return
        }
        guard visited.insert(decl.position(decl.node).description).inserted else { return }
        collect(Syntax(decl.node), scope: declScope, converter: decl.converter, depth: depth + 1, reading: &reading)
    }

    /// One `.custom(fromVersion:toVersion:willMigrate:didMigrate:)` or `.lightweight(…)`.
    private func read(
        _ call: FunctionCallExprSyntax, kind: ImportedStage.Kind, scope: Int?, located: Located<Syntax>,
        reading: inout SwiftReading
    ) -> ImportedStage? {
        var schemas: [String: String] = [:]
        var code: [String: ImportedStageCode?] = [:]
        var unread = false
        for argument in call.arguments {
            guard let label = argument.label?.text else { continue }
            switch label {
            case "fromVersion", "toVersion":
                guard let schema = schema(argument.expression, scope: scope, located: located, reading: &reading)
                else {
                    unread = true
                    continue
                }
                schemas[label] = schema
            case "willMigrate", "didMigrate":
                guard let read = stageCode(argument.expression, scope: scope, located: located, reading: &reading)
                else {
                    unread = true
                    continue
                }
                code[label] = read
            default: continue
            }
        }
        // A trailing closure is the last phase not given by label.
        if let trailing = call.trailingClosure {
            code[code["didMigrate"] == nil ? "didMigrate" : "willMigrate"] = closureCode(trailing, located: located)
        }
        for extra in call.additionalTrailingClosures {
            code[extra.label.text] = closureCode(extra.closure, located: located)
        }
        guard !unread, let from = schemas["fromVersion"], let to = schemas["toVersion"] else {
            if !unread {
                reading.error(
                    located.position(call),
                    "this stage of \(plan) does not say fromVersion: and toVersion: as Schema.self; the importer "
                        + "cannot tell which step it is")
            }
            return nil
        }
        return ImportedStage(
            kind: kind, from: from, to: to, willMigrate: code["willMigrate"] ?? nil,
            didMigrate: code["didMigrate"] ?? nil,
            location: located.position(call))
    }

    /// `Schema.self` as the versioned schema it names.
    private func schema(
        _ expression: ExprSyntax, scope: Int?, located: Located<Syntax>, reading: inout SwiftReading
    ) -> String? {
        guard let reference = SyntaxReading.typeReferences(in: Syntax(expression)).first,
            case .declared(let index)? = reading.lookup.resolve(path: reference.path, from: scope),
            reading.isSchema(index)
        else {
            reading.error(
                located.position(expression),
                "'\(expression.trimmedDescription)' in a stage of \(plan) names no VersionedSchema of the files read; "
                    + "the step it migrates cannot be told: add the schema's file")
            return nil
        }
        return reading.tree.types[index].qualifiedName
    }

    /// A phase's code: nil for `nil`, a closure, or the function or closure-valued property named.
    /// The outer nil is a form the importer cannot read, said at its line.
    private func stageCode(
        _ expression: ExprSyntax, scope: Int?, located: Located<Syntax>, reading: inout SwiftReading
    ) -> ImportedStageCode?? {
        if expression.is(NilLiteralExprSyntax.self) { return .some(nil) }
        if let closure = expression.as(ClosureExprSyntax.self) { return closureCode(closure, located: located) }
        let path = SyntaxReading.expressionPath(expression)
        // `name`, `Self.name` or `Type.name`: looked up from the type named, else from here.
        var from = scope
        if path.count == 2, path[0] != "Self",
            case .declared(let index)? = reading.lookup.resolve(path: [path[0]], from: scope)
        {
            from = index
        }
        if let name = path.last, path.count <= 2, !expression.is(FunctionCallExprSyntax.self),
            let (decl, _) = reading.valueDeclaration(named: name, from: from)
        {
            let declared = Located(node: Syntax(decl.node), converter: decl.converter)
            if let function = decl.node.as(FunctionDeclSyntax.self), let body = function.body {
                let parameter = function.signature.parameterClause.parameters.first.map {
                    ($0.secondName ?? $0.firstName).text
                }
                return ImportedStageCode(
                    parameter: parameter ?? "_", statements: Self.dedented(body.statements.description),
                    location: declared.position(function.name))
            }
            if let variable = decl.node.as(VariableDeclSyntax.self),
                let closure = variable.bindings.first?.initializer?.value.as(ClosureExprSyntax.self)
            {
                return closureCode(closure, located: declared)
            }
        }
        reading.error(
            located.position(expression),
            "the importer reads a stage's willMigrate and didMigrate as a closure, nil, or the name of a function "
                + "or closure of the files read; '\(expression.trimmedDescription)' is none of these: write the "
                + "closure here")
        return nil
    }

    private func closureCode(_ closure: ClosureExprSyntax, located: Located<some SyntaxProtocol>) -> ImportedStageCode {
        // `if case`, not a switch: swift-syntax's enums may grow cases (the Mac build says so).
        var parameter: String? = "_"
        if case .simpleInput(let names)? = closure.signature?.parameterClause {
            parameter = names.first?.name.text ?? "_"
        } else if case .parameterClause(let clause)? = closure.signature?.parameterClause {
            parameter = clause.parameters.first.map { ($0.secondName ?? $0.firstName).text } ?? "_"
        } else if closure.signature == nil,
            closure.statements.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "$0" })
        {
            parameter = nil
        }
        return ImportedStageCode(
            parameter: parameter, statements: Self.dedented(closure.statements.description),
            location: located.position(closure))
    }

    /// Lines without the indentation they all share, blank lines at either end dropped.
    static func dedented(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        let indent =
            lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }.min()
            ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
    }
}
