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
