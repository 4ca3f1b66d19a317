/// Everything about a schema that reaches a device's store or decides how its data is read: the
/// store identity plus what the checksum ignores but a shipped version must still never change
/// (indexes, delete rules, renaming identifiers, attribute options, enum raw values). The lock file
/// freezes it; it is broader than `StoreIdentity` on purpose (docs/store-evidence.md, "What the
/// checksum holds": keep the lock fingerprint apart from the checksum shape).
///
/// One line per model and per stored property, as `key=value` fields, so two shapes can be
/// compared field by field and a difference told in the DSL's words.
struct StoredShape: Equatable, Sendable {
    struct Line: Equatable, Sendable {
        /// `model Trip` or `property Trip.name`: what the line describes.
        var subject: String
        var fields: [(key: String, value: String)]

        static func == (a: Line, b: Line) -> Bool {
            a.subject == b.subject && a.fields.elementsEqual(b.fields) { $0.key == $1.key && $0.value == $1.value }
        }

        var text: String {
            ([subject] + fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }

        init(subject: String, fields: [(key: String, value: String)]) {
            self.subject = subject
            self.fields = fields
        }

        /// Reads `text` back; nil when it is not a line this type writes.
        init?(parsing text: Substring) {
            var words = text.split(separator: " ")
            guard words.count >= 2, words[0] == "model" || words[0] == "property" else { return nil }
            subject = "\(words[0]) \(words[1])"
            words.removeFirst(2)
            var fields: [(key: String, value: String)] = []
            for word in words {
                guard let equals = word.firstIndex(of: "=") else { return nil }
                fields.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            }
            self.fields = fields
        }

        func value(_ key: String) -> String? { fields.first { $0.key == key }?.value }
    }

    var lines: [Line]

    init(lines: [Line]) {
        self.lines = lines
    }

    init(_ version: SchemaVersion, naming: NamingConfig) {
        let diff = SchemaDiff(naming: naming)
        var lines: [Line] = []
        for model in version.models.sorted(by: { $0.name < $1.name }) {
            func groups(_ list: [[String]]) -> String {
                list.isEmpty ? "-" : list.map { "(" + $0.joined(separator: ",") + ")" }.joined()
            }
            lines.append(
                Line(
                    subject: "model \(model.name)",
                    fields: [
                        ("superclass", model.superclass ?? "-"), ("unique", groups(diff.uniqueGroups(model))),
                        ("index", groups(model.indexGroups)),
                    ]))
            let stored = model.properties.filter(\.isStored).sorted { $0.name < $1.name }
            for property in stored {
                var fields: [(key: String, value: String)] = [
                    ("stored", naming.storedName(property)),
                    ("identifier", Self.escaped(renamingIdentifier(of: property, naming: naming))),
                    ("optional", "\(property.isOptional)"),
                ]
                switch property.kind {
                case .attribute(.scalar(let type), let isArray):
                    fields.append(("type", isArray ? "[\(type.rawValue)]" : type.rawValue))
                case .attribute(.enumeration(let name, nil, _), _):
                    // Stored through its Codable conformance: what decodes is the case names and
                    // the associated values under their coding keys.
                    fields.append(("type", "none"))
                    let cases = version.enumeration(named: name)?.cases ?? []
                    fields.append(("cases", cases.map { Self.escaped($0.signature) }.joined(separator: ",")))
                case .attribute(.enumeration(let name, let rawType?, let storage), _):
                    fields.append(("type", rawType.rawValue))
                    // Only where it differs from the default, so locks written before it still match.
                    if storage != .rawValue { fields.append(("enumStorage", storage.rawValue)) }
                    let cases = version.enumeration(named: name)?.cases ?? []
                    fields.append(
                        (
                            "rawValues",
                            cases.map { item in
                                "\(item.name):"
                                    + Self.escaped(item.rawValue.map { SwiftLiteral.value($0, enumType: nil) } ?? "")
                            }.joined(separator: ",")
                        ))
                case .attribute(.dictionary(let key, let value), _):
                    fields.append(("type", "[\(key.rawValue):composite]"))
                    let signature = version.compositeSignature(of: value) ?? []
                    fields.append(("fields", signature.map(Self.escaped).joined(separator: ",")))
                case .attribute(.composite(let name), let isArray):
                    fields.append(("type", isArray ? "[composite]" : "composite"))
                    let signature = version.compositeSignature(of: name) ?? []
                    fields.append(("fields", signature.map(Self.escaped).joined(separator: ",")))
                case .relationship(let r):
                    fields += [
                        ("type", r.isToMany ? "[\(r.target)]" : r.target), ("deleteRule", r.deleteRule.rawValue),
                        ("inverse", r.inverse ?? "-"),
                        ("minCount", "\(r.minCount ?? 0)"), ("maxCount", "\(r.maxCount ?? 0)"),
                    ]
                }
                if property.relationship == nil {
                    fields.append(
                        (
                            "options",
                            property.flags.isEmpty
                                ? "-" : property.flags.map(\.rawValue).sorted().joined(separator: ",")
                        ))
                    fields.append(("transformable", property.transformer ?? "-"))
                }
                fields.append(("hashModifier", property.hashModifier.map(Self.escaped) ?? "-"))
                lines.append(Line(subject: "property \(model.name).\(property.name)", fields: fields))
            }
        }
        self.lines = lines
    }

    /// Keeps a value to one word: `%`, `=`, spaces and control characters become `%XX`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value <= 0x20 || scalar == "%" || scalar == "=" || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Reads `escaped` back: `%XX` becomes the scalar it stands for.
    static func unescaped(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let hex = rest[rest.index(after: percent)...].prefix(2)
            if hex.count == 2, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(percent, offsetBy: 3)...]
            } else {
                result += "%"
                rest = rest[rest.index(after: percent)...]
            }
        }
        return result + rest
    }

    /// The differences between a locked shape and the current one, in the DSL's words, each with
    /// the model and property it concerns so a caller can point at the YAML.
    static func differences(locked: StoredShape, current: StoredShape) -> [(
        model: String, property: String?, words: String
    )] {
        var result: [(model: String, property: String?, words: String)] = []
        let now = Dictionary(current.lines.map { ($0.subject, $0) }, uniquingKeysWith: { first, _ in first })
        let then = Dictionary(locked.lines.map { ($0.subject, $0) }, uniquingKeysWith: { first, _ in first })
        func split(_ subject: String) -> (model: String, property: String?, label: String) {
            let parts = subject.split(separator: " ", maxSplits: 1)
            let name = parts.count == 2 ? String(parts[1]) : subject
            if parts.first == "model" { return (name, nil, "model \(name)") }
            let dot = name.split(separator: ".", maxSplits: 1)
            return (String(dot[0]), dot.count == 2 ? String(dot[1]) : nil, name)
        }
        for line in locked.lines {
            let (model, property, label) = split(line.subject)
            guard let currentLine = now[line.subject] else {
                result.append((model, property, "\(label) was removed"))
                continue
            }
            for field in line.fields {
                let value = currentLine.value(field.key) ?? "-"
                guard value != field.value else { continue }
                result.append((model, property, "\(label): \(field.key) was \(field.value), now \(value)"))
            }
        }
        for line in current.lines where then[line.subject] == nil {
            let (model, property, label) = split(line.subject)
            result.append((model, property, "\(label) was added"))
        }
        return result
    }
}
