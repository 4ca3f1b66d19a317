import SwiftDataGenDSL

/// `new-version --rename`: the property under its new name with `renamedFrom`, followed in its
/// model's groups and in the inverse that names it.
extension NextVersionFile {
    /// The models with each renamed property under its new name, `renamedFrom` first among its keys.
    static func renamed(_ models: YAMLNode, _ renames: [Rename]) -> YAMLNode {
        guard !renames.isEmpty else { return models }
        return map(models, renames) { property, rename in
            let renamedFrom = YAMLPair(
                key: YAMLNode(.scalar(YAMLScalar(value: "renamedFrom", style: .plain)), at: property.key.location),
                value: YAMLNode(.scalar(YAMLScalar(value: rename.from, style: .plain)), at: property.key.location))
            let key = YAMLNode(.scalar(YAMLScalar(value: rename.to, style: .plain)), at: property.key.location)
            switch property.value.content {
            case .mapping(let keys):
                return YAMLPair(key: key, value: YAMLNode(.mapping([renamedFrom] + keys), at: property.value.location))
            default:
                let type = YAMLPair(
                    key: YAMLNode(.scalar(YAMLScalar(value: "type", style: .plain)), at: property.key.location),
                    value: property.value)
                return YAMLPair(key: key, value: YAMLNode(.mapping([type, renamedFrom]), at: property.value.location))
            }
        }
    }

    /// The scalars that name a renamed property elsewhere: its model's `unique` and `indexes`
    /// groups, and the `inverse:` of a relationship to its model.
    static func references(in models: YAMLNode, _ renames: [Rename]) -> [(YAMLNode, Rename)] {
        guard !renames.isEmpty, case .mapping(let entries) = models.content else { return [] }
        var found: [(YAMLNode, Rename)] = []
        func names(_ node: YAMLNode) -> [YAMLNode] {
            switch node.content {
            case .scalar: return [node]
            case .sequence(let items): return items.flatMap(names)
            case .mapping: return []
            }
        }
        for model in entries {
            guard let modelName = model.key.scalar?.value, case .mapping(let keys) = model.value.content else {
                continue
            }
            for pair in keys {
                switch pair.key.scalar.flatMap({ ModelKey(rawValue: $0.value) }) {
                case .unique?, .indexes?:
                    for name in names(pair.value) {
                        if let rename = renames.first(where: { $0.model == modelName && $0.from == name.scalar?.value })
                        {
                            found.append((name, rename))
                        }
                    }
                case .properties?:
                    guard case .mapping(let properties) = pair.value.content else { continue }
                    for property in properties {
                        guard case .mapping(let propertyKeys) = property.value.content,
                            let type = propertyKeys.first(where: { $0.key.scalar?.value == PropertyKey.type.rawValue })?
                                .value.scalar?.value,
                            let inverse = propertyKeys.first(where: {
                                $0.key.scalar?.value == PropertyKey.inverse.rawValue
                            })?.value
                        else { continue }
                        let target = type.filter { !"[]?\" ".contains($0) }
                        if let rename = renames.first(where: {
                            $0.model == target && $0.from == inverse.scalar?.value
                        }) {
                            found.append((inverse, rename))
                        }
                    }
                default:
                    continue
                }
            }
        }
        return found
    }

    /// `node` with each scalar at a place `names` holds written as that name, plain.
    static func renaming(_ node: YAMLNode, _ names: [SourceLocation: String]) -> YAMLNode {
        guard !names.isEmpty else { return node }
        switch node.content {
        case .scalar:
            guard let name = names[node.location] else { return node }
            return YAMLNode(.scalar(YAMLScalar(value: name, style: .plain)), at: node.location, tag: node.tag)
        case .sequence(let items):
            return YAMLNode(.sequence(items.map { renaming($0, names) }), at: node.location, tag: node.tag)
        case .mapping(let pairs):
            return YAMLNode(
                .mapping(pairs.map { YAMLPair(key: renaming($0.key, names), value: renaming($0.value, names)) }),
                at: node.location, tag: node.tag)
        }
    }

    /// `models` with `transform` applied to each property a rename names.
    static func map(_ models: YAMLNode, _ renames: [Rename], _ transform: (YAMLPair, Rename) -> YAMLPair)
        -> YAMLNode
    {
        guard case .mapping(let entries) = models.content else { return models }
        return YAMLNode(
            .mapping(
                entries.map { model in
                    guard case .mapping(let keys) = model.value.content else { return model }
                    let changed = keys.map { pair -> YAMLPair in
                        guard pair.key.scalar?.value == ModelKey.properties.rawValue,
                            case .mapping(let properties) = pair.value.content
                        else { return pair }
                        let renamedProperties = properties.map { property -> YAMLPair in
                            rename(of: property, in: model, renames).map { transform(property, $0) } ?? property
                        }
                        return YAMLPair(
                            key: pair.key, value: YAMLNode(.mapping(renamedProperties), at: pair.value.location))
                    }
                    return YAMLPair(key: model.key, value: YAMLNode(.mapping(changed), at: model.value.location))
                }), at: models.location)
    }

    /// The rename that names `property` of `model`, if one does.
    static func rename(of property: YAMLPair, in model: YAMLPair, _ renames: [Rename]) -> Rename? {
        renames.first { $0.model == model.key.scalar?.value && $0.from == property.key.scalar?.value }
    }

    /// Each property a rename names, with the rename.
    static func renamedProperties(in models: YAMLNode, _ renames: [Rename]) -> [(YAMLPair, Rename)] {
        guard case .mapping(let entries) = models.content else { return [] }
        var found: [(YAMLPair, Rename)] = []
        for model in entries {
            guard case .mapping(let keys) = model.value.content else { continue }
            for pair in keys where pair.key.scalar?.value == ModelKey.properties.rawValue {
                guard case .mapping(let properties) = pair.value.content else { continue }
                for property in properties {
                    if let rename = rename(of: property, in: model, renames) { found.append((property, rename)) }
                }
            }
        }
        return found
    }

    /// The text edits of the renames: the key's name, and `renamedFrom` added to its value (a type
    /// written alone becomes `{ type: …, renamedFrom: … }`; a mapping gets the key first).
    static func renameEdits(
        _ models: YAMLNode, _ renames: [Rename], _ scalars: [Unicode.Scalar], _ lines: LineTable
    ) -> [Edit] {
        var edits: [Edit] = references(in: models, renames).map { node, rename in
            let start = lines.offset(of: node.location)
            return Edit(
                range: start..<scalarEnd(from: start, in: scalars), replacement: rename.to, location: node.location)
        }
        for (property, rename) in renamedProperties(in: models, renames) {
            // A plain key is its name as written; a quoted one is left as it is, and the draft's check refuses.
            let keyStart = lines.offset(of: property.key.location)
            let keyLength = property.key.scalar?.style == .plain ? rename.from.unicodeScalars.count : 0
            edits.append(
                Edit(range: keyStart..<keyStart + keyLength, replacement: rename.to, location: property.key.location))
            let valueStart = lines.offset(of: property.value.location)
            switch property.value.content {
            case .mapping(let keys):
                guard let first = keys.first else { break }
                let firstKey = lines.offset(of: first.key.location)
                let lineStart = lines.start(ofLine: first.key.location.line)
                if scalars[lineStart..<firstKey].allSatisfy({ $0 == " " }) && scalars[valueStart] != "{" {
                    let indent = String(repeating: " ", count: firstKey - lineStart)
                    edits.append(
                        Edit(
                            range: lineStart..<lineStart, replacement: "\(indent)renamedFrom: \(rename.from)\n",
                            location: property.key.location))
                } else {
                    edits.append(
                        Edit(
                            range: firstKey..<firstKey, replacement: "renamedFrom: \(rename.from), ",
                            location: property.key.location))
                }
            default:
                let end = scalarEnd(from: valueStart, in: scalars)
                let written = String(String.UnicodeScalarView(scalars[valueStart..<end]))
                edits.append(
                    Edit(
                        range: valueStart..<end, replacement: "{ type: \(written), renamedFrom: \(rename.from) }",
                        location: property.key.location))
            }
        }
        return edits
    }

    /// A tree's content without places: what two layouts of the same document share.
    indirect enum Shape: Equatable {
        case scalar(YAMLScalar, tag: String?)
        case sequence([Shape])
        case mapping([Shape])

        init(_ node: YAMLNode) {
            switch node.content {
            case .scalar(let value): self = .scalar(value, tag: node.tag)
            case .sequence(let items): self = .sequence(items.map(Shape.init))
            case .mapping(let pairs): self = .mapping(pairs.flatMap { [Shape($0.key), Shape($0.value)] })
            }
        }
    }
}
