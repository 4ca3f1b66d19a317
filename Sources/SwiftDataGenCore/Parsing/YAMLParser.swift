import CYaml

/// Bounds that keep hostile YAML from exhausting time or memory. libyaml enforces none of them.
public struct YAMLLimits: Sendable {
    public var maxFileBytes: Int
    /// Checked inside the event loop: libyaml's flow parsing is quadratic in depth.
    public var maxDepth: Int
    /// Nodes in the tree with every alias expanded; bounds alias bombs.
    public var maxExpandedNodes: Int

    public init(maxFileBytes: Int = 16 << 20, maxDepth: Int = 256, maxExpandedNodes: Int = 1_000_000) {
        self.maxFileBytes = maxFileBytes
        self.maxDepth = maxDepth
        self.maxExpandedNodes = maxExpandedNodes
    }

    public static let standard = YAMLLimits()
}

/// Turns one YAML document into a `YAMLNode` tree straight from libyaml's events, catching what
/// libyaml lets through: duplicate keys, undefined aliases, alias bombs, deep nesting, merge keys,
/// unknown tags, empty files and several documents.
public enum YAMLParser {
    public static func parse(
        _ bytes: [UInt8], file: String, limits: YAMLLimits = .standard
    ) -> (node: YAMLNode?, diagnostics: [Diagnostic]) {
        guard bytes.count <= limits.maxFileBytes else {
            return (
                nil,
                [
                    .error(
                        .fileTooLarge,
                        "file is \(bytes.count) bytes; schema files may be at most \(limits.maxFileBytes) bytes — "
                            + "split the schema or check that this is the right file",
                        at: SourceLocation(file: file, line: 1, column: 1))
                ]
            )
        }
        var builder = TreeBuilder(file: file, source: bytes, limits: limits)
        return builder.run()
    }
}

private struct TreeBuilder {
    let file: String
    let fileID: UInt32
    let source: [UInt8]
    let limits: YAMLLimits

    /// An open sequence or mapping. A mapping collects its pairs as they arrive: a key waits in
    /// `pendingKey` for its value.
    private struct Frame {
        var isMapping: Bool
        var location: SourceLocation
        var tag: String?
        var anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        /// False for a key that was rejected: its value is dropped with it.
        var keepsValue = true
        /// The keys of a large mapping, for the duplicate check; small ones (nearly all) scan `pairs`.
        var keySet: Set<String> = []
        var weight = 1
    }

    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    private var expandedNodes = 0
    private var root: YAMLNode?
    private var documentCount = 0
    private var diagnostics: [Diagnostic] = []

    init(file: String, source: [UInt8], limits: YAMLLimits) {
        self.file = file
        fileID = SourceFiles.shared.id(of: file)
        self.source = source
        self.limits = limits
    }

    mutating func run() -> (node: YAMLNode?, diagnostics: [Diagnostic]) {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            return (
                nil,
                [
                    .error(
                        .unreadableFile, "could not start the YAML parser (out of memory?)",
                        at: location(line: 0, column: 0))
                ]
            )
        }
        defer { yaml_parser_delete(parser) }
        // libyaml keeps the pointer, so the buffer must outlive the parser.
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(source.count, 1))
        defer { buffer.deallocate() }
        source.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { buffer.initialize(from: base, count: bytes.count) }
        }
        yaml_parser_set_input_string(parser, buffer, source.count)

        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else {
                diagnostics.append(parserError(parser.pointee))
                return (nil, diagnostics)
            }
            let keepGoing = handle(&event)
            let isEnd = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if !keepGoing { return (nil, diagnostics) }
            if isEnd { break }
        }
        if documentCount == 0 || root == nil {
            diagnostics.append(
                .error(
                    .emptyDocument,
                    "the file holds no YAML document; a schema file needs at least `schema:` and `version:`",
                    at: location(line: 0, column: 0)))
            return (nil, diagnostics)
        }
        return (diagnostics.hasErrors ? nil : root, diagnostics)
    }

    /// Returns false when parsing cannot sensibly continue.
    private mutating func handle(_ event: inout yaml_event_t) -> Bool {
        let start = location(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                diagnostics.append(
                    .error(
                        .multipleDocuments,
                        "a schema file holds one YAML document; move this one into a file of its own",
                        at: start))
                return false
            }
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
            let style: YAMLScalar.Style
            switch s.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            guard let tag = checkedTag(s.tag, at: start) else { return false }
            return add(
                YAMLNode(.scalar(YAMLScalar(value: value, style: style)), at: start, tag: tag.value), weight: 1,
                newNodes: 1, anchor: string(s.anchor))
        case YAML_ALIAS_EVENT:
            let name = string(event.data.alias.anchor) ?? ""
            guard let target = anchors[name] else {
                diagnostics.append(
                    .error(
                        .undefinedAlias,
                        "alias '*\(name)' refers to no anchor defined before it; define '&\(name)' on an earlier node",
                        at: start))
                return false
            }
            var node = target.node
            node.location = start
            // An alias stands for its anchor's whole subtree, every node of it again.
            return add(node, weight: target.weight, newNodes: target.weight, anchor: nil)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            if stack.count >= limits.maxDepth {
                diagnostics.append(
                    .error(
                        .nestingTooDeep,
                        "nesting is deeper than \(limits.maxDepth) levels; a schema never needs this much — check "
                            + "for unbalanced brackets",
                        at: start))
                return false
            }
            let rawTag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
            let rawAnchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            guard let tag = checkedTag(rawTag, at: start) else { return false }
            expandedNodes += 1
            stack.append(Frame(isMapping: isMapping, location: start, tag: tag.value, anchor: string(rawAnchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return false }
            let node =
                frame.isMapping
                ? YAMLNode(.mapping(frame.pairs), at: frame.location, tag: frame.tag)
                : YAMLNode(.sequence(frame.items), at: frame.location, tag: frame.tag)
            // The frame's own node was counted at its start event, and each child as it came.
            return add(node, weight: frame.weight, newNodes: 0, anchor: frame.anchor)
        default:
            break
        }
        return true
    }

    /// `weight` is the node's subtree size (what an alias of it would expand to); `newNodes`
    /// what it adds to the document: every node is counted once, an alias's subtree once more.
    private mutating func add(_ node: consuming YAMLNode, weight: Int, newNodes: Int, anchor: String?) -> Bool {
        expandedNodes += newNodes
        if expandedNodes > limits.maxExpandedNodes {
            diagnostics.append(
                .error(
                    .aliasExpansionLimit,
                    "the document expands to more than \(limits.maxExpandedNodes) nodes once aliases are "
                        + "resolved; remove the nested aliases",
                    at: node.location))
            return false
        }
        if let anchor { anchors[anchor] = (copy node, weight) }
        guard !stack.isEmpty else {
            root = consume node
            return true
        }
        // Each node moves into its place: a copy and a release per node were a tenth of building.
        let top = stack.count - 1
        stack[top].weight += weight
        if !stack[top].isMapping {
            stack[top].items.append(consume node)
        } else if let key = stack[top].pendingKey.take() {
            if stack[top].keepsValue { stack[top].pairs.append(YAMLPair(key: key, value: consume node)) }
        } else {
            let problem = Self.checkKey(node, in: &stack[top])
            if let problem { diagnostics.append(problem) }
            stack[top].keepsValue = problem == nil
            stack[top].pendingKey = consume node
        }
        return true
    }

    /// Checks a mapping key as it arrives (a plain name, not a merge key, not seen before) and
    /// records it; the problem when it is refused.
    private static func checkKey(_ key: YAMLNode, in frame: inout Frame) -> Diagnostic? {
        guard let scalar = key.scalar else {
            return .error(.wrongNodeKind, "a mapping key must be a plain name, not \(key.kindName)", at: key.location)
        }
        let name = scalar.value
        if scalar.isPlain && name == "<<" {
            return .error(
                .mergeKeyUnsupported, "merge keys ('<<') are not supported; write the keys out in full",
                at: key.location)
        }
        if frame.pairs.count >= 8 && frame.keySet.isEmpty {
            // Room for a model's properties from the start: growing a set rehashes every key.
            frame.keySet.reserveCapacity(64)
            frame.keySet.formUnion(frame.pairs.lazy.compactMap(keyName))
        }
        let isLarge = !frame.keySet.isEmpty
        // A large mapping's set learns the key in the same lookup that asks for it.
        if isLarge
            ? !frame.keySet.insert(name).inserted
            : frame.pairs.indices.contains(where: { keyName(frame.pairs[$0]) == name })
        {
            let first = frame.pairs.first { keyName($0) == name }?.key.location
            return .error(
                .duplicateKey, "key '\(name)' appears twice in this mapping; remove one of them",
                at: key.location, notes: first.map { [.init("first '\(name)' is here", at: $0)] } ?? [])
        }
        return nil
    }

    private static func keyName(_ pair: YAMLPair) -> String? {
        if case .scalar(let scalar) = pair.key.content { return scalar.value }
        return nil
    }

    private static let knownTags: Set<String> = [
        "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq",
        "tag:yaml.org,2002:map", "!",
    ]

    /// `nil` when the tag is unsupported (a diagnostic is recorded); otherwise the tag, possibly nil.
    private mutating func checkedTag(_ raw: UnsafeMutablePointer<yaml_char_t>?, at location: SourceLocation) -> (
        value: String?, Void
    )? {
        guard let tag = string(raw) else { return (nil, ()) }
        guard Self.knownTags.contains(tag) else {
            diagnostics.append(
                .error(
                    .unsupportedTag,
                    "tag '\(tag)' is not supported; schema files use only the standard tags such as !!str",
                    at: location))
            return nil
        }
        return (tag, ())
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: Int(mark.line), column: Int(mark.column))
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(fileID: fileID, line: line + 1, column: column + 1)
    }

    private func parserError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        if parser.error == YAML_READER_ERROR {
            let (line, column) = Self.lineAndColumn(ofByte: Int(parser.problem_offset), in: source)
            return .error(
                .invalidEncoding,
                "\(problem) at byte \(parser.problem_offset); schema files must be UTF-8 text without control "
                    + "characters",
                at: SourceLocation(file: file, line: line, column: column))
        }
        let at = location(parser.problem_mark)
        var notes: [Diagnostic.Note] = []
        if let context = parser.context {
            notes.append(.init(String(cString: context), at: location(parser.context_mark)))
        }
        var message = problem
        if character(at: at) == "\t" || problem.contains("tab") {
            message += "; YAML does not allow tabs for indentation — indent with spaces"
        } else if problem.contains("mapping values are not allowed") && at.column > 1024 {
            message = "a key is longer than 1024 characters, which YAML does not allow for plain keys; shorten it"
        } else if problem.contains("could not find expected ':'") {
            message += "; check for a missing ':' (a key must also fit in 1024 characters on one line)"
        } else if problem.contains("mapping values are not allowed") {
            message += "; quote values that contain ': ' and check that the indentation lines up"
        } else if problem.contains("did not find expected key")
            || problem.contains("did not find expected node content")
        {
            message +=
                "; line this up with the keys above it (spaces only), or quote a value that starts with '-', '[' or '{'"
        } else if problem.contains("did not find expected ',' or") {
            message += "; close the [ … ] or { … } opened on the line in the note, and separate its items with ', '"
        } else if problem.contains("end of stream") || problem.contains("unexpected end") {
            message += "; close the quote or bracket opened on the line in the note"
        } else if problem.contains("cannot start any token") {
            message += "; quote the value (\"…\"): characters such as @, `, %, | and > cannot start plain text"
        } else {
            message +=
                "; check the indentation (spaces, lined up with the keys above) and quote text with ': ' or '#' in it"
        }
        return .error(.yamlSyntax, message, at: at, notes: notes)
    }

    private func character(at location: SourceLocation) -> Character? {
        var line = 1
        var index = 0
        while index < source.count && line < location.line {
            if source[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        var end = index
        while end < source.count && source[end] != UInt8(ascii: "\n") { end += 1 }
        let text = String(decoding: source[index..<end], as: UTF8.self)
        let characters = Array(text.unicodeScalars)
        let column = location.column - 1
        guard column >= 0 && column < characters.count else { return nil }
        return Character(characters[column])
    }

    /// Reader errors carry a byte offset only; columns count code points like libyaml's marks.
    static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // Count code points: every byte that is not a UTF-8 continuation byte starts one.
        let column = bytes[lineStart..<end].reduce(1) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        return (line, column)
    }
}
