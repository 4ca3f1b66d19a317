/// A YAML node as the DSL decoder needs it: its content, where it started, and for scalars the
/// style they were written in, so `"1"` and `1`, `"no"` and `no` stay distinguishable.
public struct YAMLNode: Sendable {
    public enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var content: Content
    public var location: SourceLocation
    /// The resolved explicit tag (`tag:yaml.org,2002:str`), or nil when none was written.
    public var tag: String?

    public init(_ content: Content, at location: SourceLocation, tag: String? = nil) {
        self.content = content
        self.location = location
        self.tag = tag
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let s) = content { return s }
        return nil
    }

    public var kindName: String {
        switch content {
        case .scalar: return "a scalar"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}

public struct YAMLScalar: Sendable, Hashable {
    public enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public var value: String
    public var style: Style

    public var isPlain: Bool { style == .plain }

    /// A plain empty scalar or `~`/`null` written plain is YAML's null; `''` is the empty string.
    public var isNull: Bool {
        style == .plain && (value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL")
    }
}
