extension SchemaRenderer {
    func schemaName(_ reference: MigrationPlan.SchemaReference) -> String {
        switch reference {
        case .version(let version): return names.versionedSchema(version)
        case .bridge(let version): return names.bridge(into: version)
        }
    }

    func planView() -> MigrationPlanView {
        var stages: [MigrationPlanView.Stage] = []
        var functions: [MigrationPlanView.Function] = []
        for step in plan.steps {
            var comments = ["\(step.from) → \(step.to)"]
            comments += step.changeDescriptions.map { "  " + $0 }
            for (index, stage) in step.stages.enumerated() {
                let from = schemaName(stage.from)
                let to = schemaName(stage.to)
                var stageComments = index == 0 ? comments : []
                if step.stages.count > 1 { stageComments.append("stage \(index + 1) of \(step.stages.count)") }
                switch stage {
                case .lightweight:
                    stages.append(
                        .init(
                            comments: stageComments, isLightweight: true, from: from, to: to, willMigrate: [],
                            didMigrate: []))
                case .custom(_, _, let will, let did):
                    let willCalls = will.map { call($0, owner: from, functions: &functions) }
                    let didCalls = did.map { call($0, owner: to, functions: &functions) }
                    stages.append(
                        .init(
                            comments: stageComments, isLightweight: false, from: from, to: to, willMigrate: willCalls,
                            didMigrate: didCalls))
                }
            }
        }
        let hooks = plan.hooks.map { MigrationPlanView.Hook(name: $0.name, summary: $0.summary) }
        return MigrationPlanView(
            header: header(history.versions.map(\.file)), access: access, planName: names.migrationPlan,
            schemas: plan.schemas.map { schemaName($0) + ".self" },
            schemaChecksums: plan.schemas.map { (schemaName($0) + ".self", plan.checksums[$0] ?? "") }, stages: stages,
            functions: functions,
            hooksType: hooks.isEmpty ? nil : names.hooks, hooks: hooks, batchSize: MigrationPlan.batchSize)
    }

    /// The statement a stage closure runs for an action; generated functions are collected.
    private func call(_ action: MigrationPlan.Action, owner: String, functions: inout [MigrationPlanView.Function])
        -> String
    {
        let function: MigrationPlanView.Function
        switch action {
        case .hook(let hook):
            return "try \(names.hooks).\(hook.name)(context)"
        case .convert(let conversion):
            function = .init(
                owner: owner, name: "convert\(conversion.model)\(SwiftLiteral.upperFirst(conversion.property))",
                summary: conversion.summary, conversion: conversion)
        case .link(let link):
            function = .init(
                owner: owner, name: "link\(link.model)\(SwiftLiteral.upperFirst(link.property))", summary: link.summary,
                link: link)
        case .deduplicate(let dedupe):
            function = .init(
                owner: owner, name: "dedupe\(dedupe.model)By\(dedupe.keys.map(SwiftLiteral.upperFirst).joined())",
                summary: dedupe.summary,
                deduplication: dedupe)
        case .copy(let copy):
            function = .init(
                owner: owner, name: "copy\(copy.oldModel)Into\(copy.newModel)", summary: copy.summary, copy: copy)
        case .relink(let relink):
            function = .init(owner: owner, name: "relink\(relink.model)", summary: relink.summary, relink: relink)
        }
        if let same = functions.first(where: { $0.owner == function.owner && $0.summary == function.summary }) {
            return "try \(same.owner).\(same.name)(context)"
        }
        // Names built from model and key names can meet ([[firstName], [first, name]]): number the later one.
        var unique = function
        var counter = 1
        while functions.contains(where: { $0.owner == unique.owner && $0.name == unique.name }) {
            counter += 1
            unique.name = function.name + "\(counter)"
        }
        functions.append(unique)
        return "try \(unique.owner).\(unique.name)(context)"
    }

    /// The user-owned file of hook functions to fill in, when the plan has hooks.
    func hooksScaffold() throws(Diagnostic) -> GeneratedFile? {
        let hooks = plan.hooks
        guard !hooks.isEmpty else { return nil }
        let view: MustacheValue = [
            "hooksType": .string(names.hooks),
            "hooks": .list(
                hooks.enumerated().map { index, hook in
                    [
                        "name": .string(hook.name), "summary": .string(hook.summary),
                        "errorMessage": .string(
                            SwiftLiteral.string("Write \(hook.name): \(hook.summary), then delete this line")),
                        "last": .bool(index == hooks.count - 1),
                    ]
                }),
        ]
        return GeneratedFile(
            name: names.hooks + ".swift", contents: try render("hooks", RawView(value: view)),
            role: .hooksScaffold(schema: history.name))
    }
}
