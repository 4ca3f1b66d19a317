import SwiftDataGenDSL

/// What a step loses or leaves to the team, said as warnings: removals, unused policies, CloudKit's
/// schema that only grows, `.codable` structs that change.
extension MigrationPlanner {
    /// SDG635: a struct stored `.codable` whose fields change needs no stage (SwiftData sees one
    /// encoded value), but every value an earlier version encoded must still decode.
    mutating func reportCodableShape(
        _ property: Property, in model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion
    ) {
        guard property.flags.contains(.codable),
            let previous = SchemaDiff.counterpart(of: property, in: before, within: model, naming: naming),
            previous.flags.contains(.codable), SchemaDiff.sameStoredType(previous, property, old: old, new: new)
        else { return }
        let changed = Set(Self.structNames(in: property.kind)).union(Self.structNames(in: previous.kind)).filter {
            old.compositeSignature(of: $0) != new.compositeSignature(of: $0)
        }
        guard !changed.isEmpty else { return }
        diagnostics.append(
            .warning(
                .codableShapeChanged,
                "\(model.name).\(property.name) is stored .codable, and \(changed.sorted().joined(separator: ", ")) "
                    + "changed fields since \(old.version): SwiftData migrates nothing for it, so every value stored "
                    + "by an earlier version must still decode; make new fields optional (or decode a default in "
                    + "init(from:)) and keep every stored field's name and type",
                at: property.location))
    }

    /// The struct a value names, if any.
    static func structNames(in kind: PropertyKind) -> [String] {
        switch kind {
        case .attribute(.composite(let name), _), .attribute(.dictionary(_, let name), _): return [name]
        default: return []
        }
    }

    /// SDG633: a `dedupe` no step reads would otherwise be accepted and silently do nothing.
    mutating func reportUnusedDedupe(_ model: ModelDecl, because reason: String) {
        guard let policy = model.dedupe else { return }
        diagnostics.append(
            .warning(
                .dedupeUnused, "dedupe on \(model.name) is not used: \(reason); remove it from this version",
                at: policy.location))
    }

    mutating func reportLosses(
        _ changes: [SchemaChange], old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        for change in changes {
            let lost: String
            var rename: RenameHints.Question?
            switch change {
            case .propertyRemoved(let model, let property):
                let oldModel =
                    new.model(named: model).flatMap { SchemaDiff.counterpart(of: $0, in: old) }?.name ?? model
                guard !work.consumed.contains("\(oldModel).\(property)") else { continue }
                guard
                    !new.acknowledgedRemovals.contains("\(model).\(property)")
                        && !new.acknowledgedRemovals.contains("\(oldModel).\(property)")
                else { continue }
                lost = "\(oldModel).\(property)"
                rename = work.renames.question(removed: property, of: oldModel)
            case .modelRemoved(let model):
                guard !new.acknowledgedRemovals.contains(model) else { continue }
                lost = model
                rename = work.renames.question(removedModel: model)
            default:
                continue
            }
            let deleted =
                "version \(new.version) removes \(lost), so its stored data is deleted on upgrade; if that is "
                + "intended, add \"\(lost)\" to acknowledgedRemovals"
            let message =
                rename.map { "\($0.asked) then write \($0.write) to keep its values. Otherwise \(deleted)" }
                ?? "\(deleted), otherwise keep it or move its data with from:"
            work.warnings.append(message)
            diagnostics.append(
                .warning(
                    .dataLoss, message, at: new.location,
                    notes: [.init("version \(old.version) is declared here", at: old.location)]))
        }
    }

    /// Between two versions that sync, CloudKit's schema only grows: a field removed, renamed or
    /// retyped here is still written by devices on the older version.
    mutating func reportCloudKitShrinking(_ changes: [SchemaChange], old: SchemaVersion, new: SchemaVersion) {
        guard history.config.cloudKit.applies(to: old.version) else { return }
        for change in changes {
            switch change {
            case .modelRemoved, .propertyRemoved, .propertyRenamed, .modelRenamed, .typeChanged, .storedNameChanged:
                diagnostics.append(
                    .warning(
                        .cloudKitSchemaShrinks,
                        "\(change.summary) between \(old.version) and \(new.version), which both sync with "
                            + "CloudKit; CloudKit's production schema only grows, and devices still on \(old.version) "
                            + "go on syncing the old field; keep the old property beside the new one until no device "
                            + "runs \(old.version)",
                        at: new.location, notes: [.init("version \(old.version) is declared here", at: old.location)]))
            default:
                continue
            }
        }
    }
}
