/// The keys of one mapping, looked up by a linear scan: mappings in the DSL hold a handful of
/// keys, and comparing short strings beats hashing each lookup.
struct MappingEntries {
    var pairs: [YAMLPair]
    /// Allowed keys an unknown key was taken for ("did you mean"), read under the key meant so
    /// that what follows from the typo is not reported as mistakes of its own. The typo itself is
    /// an error, so nothing decoded this way is ever generated.
    var misspelled: Set<String> = []

    /// Lengths are compared first (`ModelDecl.property(named:)`): a decoder asks for every key a
    /// mapping could hold, and most are not there.
    subscript(key: String) -> YAMLPair? {
        let length = key.utf8.count
        for index in pairs.indices {
            if case .scalar(let scalar) = pairs[index].key.content, scalar.value.utf8.count == length,
                scalar.value == key
            {
                return pairs[index]
            }
        }
        return nil
    }

    /// A declared key (`VersionKey.models`), so that a key is spelled once.
    subscript<Key: RawRepresentable>(key: Key) -> YAMLPair? where Key.RawValue == String { self[key.rawValue] }
}

/// Reads typed values out of YAML nodes, recording a diagnostic for each problem instead of
/// stopping, so one run reports every mistake in a file.
struct NodeReader {
    var diagnostics: [Diagnostic] = []

    /// The pairs of a mapping; unknown keys get an error with a "did you mean" note.
    /// `what` is only spelled out for a diagnostic: most mappings are read without one.
    mutating func mapping(_ node: YAMLNode, what: @autoclosure () -> String, allowedKeys: [String])
        -> MappingEntries?
    {
        guard case .mapping(let pairs) = node.content else {
            diagnostics.append(
                .error(
                    .wrongNodeKind, "\(what()) must be a mapping of keys to values, not \(node.kindName)",
                    at: node.location))
            return nil
        }
        // Mostly every key is one it takes: the mapping's own pairs then serve, not a copy.
        if pairs.allSatisfy({ allowedKeys.contains($0.key.scalar?.value ?? "") }) {
            return MappingEntries(pairs: pairs, misspelled: [])
        }
        var result: [YAMLPair] = []
        var misspelled: Set<String> = []
        var recovered: [YAMLPair] = []
        result.reserveCapacity(pairs.count)
        for pair in pairs {
            let key = pair.key.scalar?.value ?? ""
            if allowedKeys.contains(key) {
                result.append(pair)
            } else {
                var notes: [Diagnostic.Note] = []
                if let guess = Identifier.suggestion(for: key, in: allowedKeys) {
                    notes.append(.init("did you mean '\(guess)'?"))
                    if misspelled.insert(guess).inserted, case .scalar(var scalar) = pair.key.content {
                        scalar.value = guess
                        var meant = pair
                        meant.key.content = .scalar(scalar)
                        recovered.append(meant)
                    }
                }
                notes.append(.init("\(what()) takes: \(allowedKeys.joined(separator: ", "))"))
                diagnostics.append(
                    .error(.unknownKey, "unknown key '\(key)' in \(what())", at: pair.key.location, notes: notes))
            }
        }
        // A key written correctly as well wins over its misspelling.
        result += recovered.filter { pair in !result.contains { $0.key.scalar?.value == pair.key.scalar?.value } }
        return MappingEntries(pairs: result, misspelled: misspelled)
    }

    /// The pairs of a mapping whose keys are names the user chooses (models, properties, enums).
    mutating func namedEntries(_ node: YAMLNode, what: String) -> [YAMLPair] {
        if case .scalar(let s) = node.content, s.isNull { return [] }
        guard case .mapping(let pairs) = node.content else {
            diagnostics.append(
                .error(
                    .wrongNodeKind, "\(what) must be a mapping from names to declarations, not \(node.kindName)",
                    at: node.location))
            return []
        }
        return pairs
    }

    /// A declared key (`DedupeKey.keep`) that must be there.
    mutating func require<Key: RawRepresentable>(
        _ entries: MappingEntries, _ key: Key, in what: @autoclosure () -> String, at location: SourceLocation
    ) -> YAMLNode? where Key.RawValue == String {
        require(entries, key.rawValue, in: what(), at: location)
    }

    mutating func require(
        _ entries: MappingEntries, _ key: String, in what: @autoclosure () -> String, at location: SourceLocation
    )
        -> YAMLNode?
    {
        guard let pair = entries[key] else {
            if !entries.misspelled.contains(key) {
                diagnostics.append(.error(.missingKey, "\(what()) needs a '\(key)' key", at: location))
            }
            return nil
        }
        return pair.value
    }

    mutating func string(_ node: YAMLNode, what: String) -> Located<String>? {
        guard let scalar = node.scalar else {
            var message = "\(what) must be text, not \(node.kindName)"
            if case .sequence = node.content {
                message += "; to write an array type such as [String], quote it: \"[String]\""
            }
            diagnostics.append(.error(.wrongNodeKind, message, at: node.location))
            return nil
        }
        if scalar.isNull && node.tag == nil {
            diagnostics.append(.error(.invalidValue, "\(what) is empty; write a value", at: node.location))
            return nil
        }
        return Located(scalar.value, at: node.location)
    }

    /// A name that becomes a Swift identifier. Keywords are refused unless the position writes
    /// them in backticks (a struct's fields, which no key path or macro names).
    mutating func identifier(_ node: YAMLNode, what: String, keywordsAllowed: Bool = false) -> Located<String>? {
        guard let name = string(node, what: what) else { return nil }
        guard Identifier.isValid(name.value) else {
            diagnostics.append(
                .error(
                    .invalidIdentifier,
                    "'\(name.value)' is not a valid \(what): use letters, digits and '_', not starting with a "
                        + "digit, at most \(Identifier.maxLength) characters",
                    at: name.location))
            return nil
        }
        guard keywordsAllowed || !Identifier.keywords.contains(name.value) else {
            diagnostics.append(
                .error(
                    .reservedName,
                    "'\(name.value)' is a Swift keyword, so it cannot name this \(what); choose another name",
                    at: name.location))
            return nil
        }
        return name
    }

    /// Only `true` and `false`: YAML 1.1's `yes`/`no`/`on`/`off` are too easy to write by accident.
    mutating func bool(_ node: YAMLNode, what: String) -> Located<Bool>? {
        guard let scalar = node.scalar, scalar.isPlain, scalar.value == "true" || scalar.value == "false" else {
            diagnostics.append(.error(.invalidValue, "\(what) must be true or false", at: node.location))
            return nil
        }
        return Located(scalar.value == "true", at: node.location)
    }

    mutating func integer(_ node: YAMLNode, what: String, range: ClosedRange<Int>) -> Located<Int>? {
        guard let scalar = node.scalar, scalar.isPlain, let value = Int(scalar.value), range.contains(value) else {
            diagnostics.append(
                .error(
                    .invalidValue, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound)",
                    at: node.location))
            return nil
        }
        return Located(value, at: node.location)
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, what: String, as type: T.Type)
        -> Located<T>?
    where T.RawValue == String {
        choice(node, what: what, options: T.allCases.map(\.rawValue)).flatMap { text in
            T(rawValue: text.value).map { Located($0, at: text.location) }
        }
    }

    mutating func choice(_ node: YAMLNode, what: String, options: [String]) -> Located<String>? {
        guard let text = string(node, what: what) else { return nil }
        if options.contains(text.value) { return text }
        var notes = [Diagnostic.Note("\(what) is one of: \(options.joined(separator: ", "))")]
        if let guess = Identifier.suggestion(for: text.value, in: options) {
            notes.insert(.init("did you mean '\(guess)'?"), at: 0)
        }
        diagnostics.append(
            .error(.invalidValue, "'\(text.value)' is not a valid \(what)", at: text.location, notes: notes))
        return nil
    }

    mutating func withinLimit(_ count: Int, _ limit: Int, _ what: String, at location: SourceLocation) -> Bool {
        guard count > limit else { return true }
        diagnostics.append(
            .error(
                .countLimit, "\(count) \(what) is more than the \(limit) swiftdata-gen accepts; split the schema",
                at: location))
        return false
    }

    mutating func list(_ node: YAMLNode, what: String) -> [YAMLNode]? {
        if case .sequence(let items) = node.content { return items }
        diagnostics.append(.error(.wrongNodeKind, "\(what) must be a list, not \(node.kindName)", at: node.location))
        return nil
    }
}
