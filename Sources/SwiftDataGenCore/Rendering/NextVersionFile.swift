import SwiftDataGenDSL

/// The next version's file, written from the latest version's text: the version number replaced,
/// every key that describes only the step into the latest version left out (`NextVersionCopy`),
/// everything else kept byte for byte, comments included. Edits are made on the text at the parsed
/// keys' places, so the file reads as the team wrote it.
public enum NextVersionFile {
    /// A span of the text to replace, in unicode scalar offsets.
    struct Edit {
        var range: Range<Int>
        var replacement: String
        /// The key the edit is for, where a refusal points.
        var location: SourceLocation
    }

    /// A property the next version renames (`new-version --rename Note.title=heading`): written
    /// under its new name with `renamedFrom`, so the step keeps its values.
    public struct Rename: Sendable, Equatable {
        public var model: String
        public var from: String
        public var to: String

        /// `Model.old=new`, each part an identifier; nil otherwise.
        public init?(parsing text: String) {
            let sides = text.split(separator: "=", omittingEmptySubsequences: false)
            guard sides.count == 2 else { return nil }
            let path = sides[0].split(separator: ".", omittingEmptySubsequences: false)
            guard path.count == 2 else { return nil }
            let parts = [String(path[0]), String(path[1]), String(sides[1])]
            guard parts.allSatisfy({ Identifier.isValid($0) && !Identifier.keywords.contains($0) }) else { return nil }
            (model, from, to) = (parts[0], parts[1], parts[2])
        }
    }

    /// Why a draft could not be made from the latest file's layout: where, and in words.
    public struct Refusal: Error, Sendable {
        public var reason: String
        public var location: SourceLocation
    }

    /// The draft, checked before it is returned: it parses, and it says exactly what the latest
    /// file says without the left-out keys and with the new number. A layout the text edits cannot
    /// handle (an explicit `?` key, a flow mapping over several lines with a key to leave out) is
    /// refused where it stands instead of written half-edited.
    public static func draft(
        _ text: String, root: YAMLNode, as version: SemanticVersion, renaming renames: [Rename] = []
    ) -> Result<String, Refusal> {
        let scalars = Array(text.unicodeScalars)
        let lines = LineTable(scalars)
        var edits: [Edit] = []
        guard case .mapping(let pairs) = root.content else { return .success(text) }
        for pair in pairs {
            guard let key = pair.key.scalar.flatMap({ VersionKey(rawValue: $0.value) }) else { continue }
            switch key.nextVersion {
            case .copied:
                if key == .models {
                    edits += modelEdits(pair.value, scalars, lines)
                    edits += renameEdits(pair.value, renames, scalars, lines)
                }
            case .leftOut:
                edits.append(removal(of: pair, scalars, lines))
            case .renumbered:
                let start = lines.offset(of: pair.value.location)
                let end = scalarEnd(from: start, in: scalars)
                edits.append(
                    Edit(
                        range: start..<end, replacement: YAMLText.scalar(version.description),
                        location: pair.key.location))
            }
        }
        // A refusal points at the first key left out: the edits that cannot be made are removals.
        let culprit = edits.first { $0.replacement.isEmpty }?.location ?? root.location
        let ordered = edits.sorted { $0.range.lowerBound > $1.range.lowerBound }
        var result = scalars
        var limit = scalars.count
        for edit in ordered {
            // Two edits that overlap (or one past the text) mean the layout was not understood.
            guard edit.range.lowerBound >= 0, edit.range.upperBound <= limit else {
                return .failure(refusal(at: culprit))
            }
            result.replaceSubrange(edit.range, with: edit.replacement.unicodeScalars)
            limit = edit.range.lowerBound
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: result)
        let drafted = String(out)
        let (parsed, problems) = YAMLParser.parse(Array(drafted.utf8), file: "draft")
        guard let parsed, !problems.hasErrors,
            Shape(parsed) == Shape(expected(root, version: version, renames: renames))
        else { return .failure(refusal(at: culprit)) }
        return .success(drafted)
    }

    private static func refusal(at location: SourceLocation) -> Refusal {
        Refusal(
            reason:
                "new-version cannot leave out this file's step-only keys in the layout they are written in (an "
                + "explicit '?' key, or one inside a mapping in braces it cannot follow); write them as 'key: value' "
                + "blocks, or copy the file by hand",
            location: location)
    }

    /// What the draft must say: the latest file's tree without the left-out keys, renumbered.
    private static func expected(_ root: YAMLNode, version: SemanticVersion, renames: [Rename]) -> YAMLNode {
        guard case .mapping(let pairs) = root.content else { return root }
        var kept: [YAMLPair] = []
        for pair in pairs {
            let key = pair.key.scalar.flatMap { VersionKey(rawValue: $0.value) }
            switch key?.nextVersion {
            case .leftOut?: continue
            case .renumbered?:
                kept.append(
                    YAMLPair(
                        key: pair.key,
                        value: YAMLNode(
                            .scalar(YAMLScalar(value: "\(version)", style: .plain)), at: pair.value.location)))
            case .copied?, nil:
                guard key == .models else {
                    kept.append(pair)
                    continue
                }
                let models = withoutLeftOutModelKeys(pair.value)
                var names: [SourceLocation: String] = [:]
                for (node, rename) in references(in: models, renames) { names[node.location] = rename.to }
                kept.append(YAMLPair(key: pair.key, value: renamed(renaming(models, names), renames)))
            }
        }
        return YAMLNode(.mapping(kept), at: root.location)
    }

    private static func withoutLeftOutModelKeys(_ models: YAMLNode) -> YAMLNode {
        guard case .mapping(let entries) = models.content else { return models }
        return YAMLNode(
            .mapping(
                entries.map { model in
                    guard case .mapping(let keys) = model.value.content else { return model }
                    let kept = keys.compactMap { pair -> YAMLPair? in
                        let key = pair.key.scalar.flatMap { ModelKey(rawValue: $0.value) }
                        if key?.nextVersion == .leftOut { return nil }
                        guard key == .properties, case .mapping(let properties) = pair.value.content else {
                            return pair
                        }
                        let trimmed = properties.map { property -> YAMLPair in
                            guard case .mapping(let propertyKeys) = property.value.content else { return property }
                            let kept = propertyKeys.filter {
                                $0.key.scalar.flatMap { PropertyKey(rawValue: $0.value) }?.nextVersion != .leftOut
                            }
                            return YAMLPair(
                                key: property.key, value: YAMLNode(.mapping(kept), at: property.value.location))
                        }
                        return YAMLPair(key: pair.key, value: YAMLNode(.mapping(trimmed), at: pair.value.location))
                    }
                    return YAMLPair(key: model.key, value: YAMLNode(.mapping(kept), at: model.value.location))
                }), at: models.location)
    }

    private static func modelEdits(_ models: YAMLNode, _ scalars: [Unicode.Scalar], _ lines: LineTable) -> [Edit] {
        guard case .mapping(let models) = models.content else { return [] }
        var edits: [Edit] = []
        for model in models {
            guard case .mapping(let keys) = model.value.content else { continue }
            for pair in keys {
                guard let key = pair.key.scalar.flatMap({ ModelKey(rawValue: $0.value) }) else { continue }
                switch key.nextVersion {
                case .leftOut: edits.append(removal(of: pair, scalars, lines))
                case .copied, .renumbered:
                    guard key == .properties, case .mapping(let properties) = pair.value.content else { continue }
                    for property in properties {
                        guard case .mapping(let propertyKeys) = property.value.content else { continue }
                        for propertyPair in propertyKeys {
                            guard let key = propertyPair.key.scalar.flatMap({ PropertyKey(rawValue: $0.value) }),
                                key.nextVersion == .leftOut
                            else { continue }
                            edits.append(removal(of: propertyPair, scalars, lines))
                        }
                    }
                }
            }
        }
        return edits
    }

    /// Where a key and its value go: whole lines for a key on a line of its own (with the lines of
    /// its value, indented deeper), or the pair and one comma inside a `{ … }`.
    static func removal(of pair: YAMLPair, _ scalars: [Unicode.Scalar], _ lines: LineTable) -> Edit {
        let keyStart = lines.offset(of: pair.key.location)
        let lineStart = lines.start(ofLine: pair.key.location.line)
        if scalars[lineStart..<keyStart].allSatisfy({ $0 == " " }) {
            let indent = keyStart - lineStart
            // A block sequence may sit at its key's own indentation (`key:` then `- item`).
            var isSequence = false
            if case .sequence = pair.value.content { isSequence = true }
            var last = pair.key.location.line
            var line = last + 1
            while line <= lines.count {
                let content = lines.content(ofLine: line, in: scalars)
                let leading = content.prefix { $0 == " " }.count
                let rest = content.dropFirst(leading)
                if rest.isEmpty || rest.first == "#" {
                    // A comment as shallow as the key ends its value unless the value goes on below it.
                    if leading <= indent && rest.first == "#"
                        && !continuesBelow(line, indent: indent, isSequence: isSequence, scalars, lines)
                    {
                        break
                    }
                } else {
                    let item = isSequence && leading == indent && rest.first == "-"
                    if leading <= indent && !item { break }
                    last = line
                }
                line += 1
            }
            let end = last < lines.count ? lines.start(ofLine: last + 1) : scalars.count
            return Edit(range: lineStart..<end, replacement: "", location: pair.key.location)
        }
        let valueEnd = flowValueEnd(from: lines.offset(of: pair.value.location), in: scalars)
        var end = valueEnd
        while end > keyStart, scalars[end - 1] == " " { end -= 1 }
        var start = keyStart
        var back = keyStart - 1
        while back >= 0, scalars[back] == " " { back -= 1 }
        if back >= 0, scalars[back] == "," {
            start = back
        } else if valueEnd < scalars.count, scalars[valueEnd] == "," {
            end = valueEnd + 1
            while end < scalars.count, scalars[end] == " " { end += 1 }
        }
        return Edit(range: start..<end, replacement: "", location: pair.key.location)
    }

    /// Whether the next line with content after `line` is deeper than `indent` (or an item of a
    /// block sequence at it): the value above goes on past comments and blank lines.
    private static func continuesBelow(
        _ line: Int, indent: Int, isSequence: Bool, _ scalars: [Unicode.Scalar], _ lines: LineTable
    ) -> Bool {
        var next = line + 1
        while next <= lines.count {
            let content = lines.content(ofLine: next, in: scalars)
            let leading = content.prefix { $0 == " " }.count
            let rest = content.dropFirst(leading)
            if !rest.isEmpty && rest.first != "#" {
                return leading > indent || (isSequence && leading == indent && rest.first == "-")
            }
            next += 1
        }
        return false
    }

    /// The end of a flow value: the `,`, `}` or `]` that closes it outside quotes and brackets.
    static func flowValueEnd(from start: Int, in scalars: [Unicode.Scalar]) -> Int {
        var depth = 0
        var index = start
        while index < scalars.count {
            let c = scalars[index]
            switch c {
            case "\"":
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\" { index += 1 }
                    index += 1
                }
            case "'":
                index += 1
                while index < scalars.count {
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count, scalars[index + 1] == "'" { index += 1 } else { break }
                    }
                    index += 1
                }
            case "{", "[": depth += 1
            case "}", "]":
                if depth == 0 { return index }
                depth -= 1
            case ",":
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return index
    }

    /// The end of a scalar written on one line: its quotes, or a plain scalar up to a comment,
    /// a flow indicator or the line's end.
    static func scalarEnd(from start: Int, in scalars: [Unicode.Scalar]) -> Int {
        guard start < scalars.count else { return start }
        if scalars[start] == "\"" || scalars[start] == "'" { return quoteEnd(from: start, in: scalars) }
        var index = start
        while index < scalars.count, !["\n", ",", "}", "]"].contains(scalars[index]) {
            if scalars[index] == "#", index > start, scalars[index - 1] == " " { break }
            index += 1
        }
        while index > start, scalars[index - 1] == " " { index -= 1 }
        return index
    }

    private static func quoteEnd(from start: Int, in scalars: [Unicode.Scalar]) -> Int {
        let quote = scalars[start]
        var index = start + 1
        while index < scalars.count, scalars[index] != quote {
            if quote == "\"", scalars[index] == "\\" { index += 1 }
            index += 1
        }
        return min(index + 1, scalars.count)
    }

    /// Line starts of a text, for turning a parsed place (line, column in code points) into an offset.
    struct LineTable {
        private var starts: [Int] = [0]

        init(_ scalars: [Unicode.Scalar]) {
            for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        }

        var count: Int { starts.count }

        func start(ofLine line: Int) -> Int { line - 1 < starts.count ? starts[line - 1] : (starts.last ?? 0) }

        func offset(of location: SourceLocation) -> Int { start(ofLine: location.line) + location.column - 1 }

        func content(ofLine line: Int, in scalars: [Unicode.Scalar]) -> ArraySlice<Unicode.Scalar> {
            let start = start(ofLine: line)
            let end = line < starts.count ? starts[line] - 1 : scalars.count
            return scalars[start..<max(start, end)]
        }
    }
}
