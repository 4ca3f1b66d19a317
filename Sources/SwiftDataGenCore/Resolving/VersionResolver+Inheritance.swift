/// Inheritance rules: superclasses exist, form no cycle, need the 26 releases, and are not
/// redeclared by their subclasses.
extension VersionResolver {
    /// The model of that name, found by position so that no other model is copied on the way.
    static func model(named name: String, in models: [ModelDecl]) -> ModelDecl? {
        models.firstIndex { $0.name == name }.map { models[$0] }
    }

    /// The model of that name through the positions recorded when the version's models were
    /// built (checked on use), so long inheritance chains are walked in linear time.
    func model(named name: String, in models: [ModelDecl]) -> ModelDecl? {
        if let position = modelPositions[name], position < models.count, models[position].name == name {
            return models[position]
        }
        return Self.model(named: name, in: models)
    }

    func ancestors(of name: String, in models: [ModelDecl]) -> [ModelDecl] {
        var chain: [ModelDecl] = []
        var seen: Set<String> = [name]
        var current = model(named: name, in: models)?.superclass
        while let next = current, seen.insert(next).inserted, let model = model(named: next, in: models) {
            chain.append(model)
            current = model.superclass
        }
        return chain
    }

    mutating func checkInheritance(_ models: inout [ModelDecl]) {
        for index in models.indices {
            guard let superName = models[index].superclass, let ast = modelASTs[models[index].name]?.superclass else {
                continue
            }
            guard model(named: superName, in: models) != nil else {
                let notes = Diagnostic.Note.suggestion(for: superName, in: models.map { ($0.name, $0.location) })
                diagnostics.append(
                    .error(
                        .unknownSuperclass,
                        "superclass '\(superName)' is not a model of this version; list it under models",
                        at: ast.location, notes: notes))
                models[index].superclass = nil
                continue
            }
            if !config.supportsInheritance {
                diagnostics.append(
                    .error(
                        .inheritanceNeedsNewerPlatform,
                        "model inheritance needs \(config.describe(GeneratorConfig.inheritanceReleases)); raise "
                            + "the platforms in the config or flatten '\(models[index].name)' into one model",
                        at: ast.location))
            }
        }
        for index in models.indices {
            var seen: Set<String> = [models[index].name]
            var current = models[index].superclass
            while let next = current {
                if seen.contains(next) {
                    if let ast = modelASTs[models[index].name]?.superclass {
                        diagnostics.append(
                            .error(
                                .inheritanceCycle,
                                "model '\(models[index].name)' inherits from itself through '\(next)'; break the cycle",
                                at: ast.location))
                    }
                    models[index].superclass = nil
                    break
                }
                seen.insert(next)
                current = model(named: next, in: models)?.superclass
            }
            if seen.count - 1 > DSLDecoder.Limits.inheritanceDepth, let ast = modelASTs[models[index].name]?.superclass
            {
                diagnostics.append(
                    .error(
                        .countLimit,
                        "'\(models[index].name)' has \(seen.count - 1) ancestors, more than the "
                            + "\(DSLDecoder.Limits.inheritanceDepth) swiftdata-gen accepts (every initializer repeats "
                            + "its ancestors' parameters); flatten the hierarchy",
                        at: ast.location))
                models[index].superclass = nil
            }
        }
        for model in models where model.superclass != nil {
            let inherited = ancestors(of: model.name, in: models)
            for property in model.properties {
                if let owner = inherited.first(where: { $0.property(named: property.name) != nil }),
                    let original = owner.property(named: property.name)
                {
                    diagnostics.append(
                        .error(
                            .overridesInheritedProperty,
                            "'\(property.name)' is already declared by superclass \(owner.name); remove it here",
                            at: property.location, notes: [.init("declared here", at: original.location)]))
                }
            }
        }
    }
}
