/// The migration plan between consecutive versions, as the renderer emits it.
public struct MigrationPlan: Sendable, Equatable {
    public enum StageKind: Sendable, Equatable {
        case lightweight
    }

    public struct Stage: Sendable, Equatable {
        public var from: SemanticVersion
        public var to: SemanticVersion
        public var kind: StageKind
    }

    public var versions: [SemanticVersion]
    public var stages: [Stage]
    /// Set while stages are not yet derived from version differences; the output says so.
    public var stagesAreProvisional: Bool
}

public enum MigrationPlanner {
    /// Every step is lightweight for now: deriving custom and two-stage steps from the
    /// differences between versions is the planner's next piece of work. Until then each `from:`
    /// conversion, which a lightweight step cannot carry out, is reported rather than ignored.
    public static func plan(_ history: SchemaHistory) -> (plan: MigrationPlan, diagnostics: [Diagnostic]) {
        let versions = history.versions.map(\.version)
        let stages = zip(versions, versions.dropFirst()).map { MigrationPlan.Stage(from: $0, to: $1, kind: .lightweight) }
        var diagnostics: [Diagnostic] = []
        for version in history.versions.dropFirst() {
            for model in version.models {
                for property in model.properties {
                    guard let conversion = property.conversion else { continue }
                    diagnostics.append(.warning(
                        .conversionNotGenerated,
                        "'\(model.name).\(property.name)' asks to convert '\(conversion.sourceProperty)' from the previous version, but conversions are not generated yet: the step to \(version.version) is lightweight and those values are not carried over",
                        at: conversion.location))
                }
            }
        }
        return (MigrationPlan(versions: versions, stages: stages, stagesAreProvisional: !stages.isEmpty), diagnostics)
    }
}
