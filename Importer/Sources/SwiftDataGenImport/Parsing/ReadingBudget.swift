/// Every limit on what the importer reads from files it did not write, in one place. Within them
/// each reader makes one linear pass and holds at most a small multiple of its input: a shared
/// object of a property list or keyed archive is read once and shared, never copied per reference.
/// Input beyond a limit is refused with what was too large; `scripts/hostile-inputs.sh` measures
/// time and memory on inputs just over each.
public enum ReadingBudget {
    /// A Core Data model file (`.xcdatamodel/contents`) or an XML property list.
    public static let xmlBytes = 32 << 20
    public static let xmlDepth = 64
    public static let xmlElements = 500_000
    /// Attributes of one XML element: a model's element has a dozen.
    public static let xmlAttributes = 10_000
    /// A Swift source file the importer parses, and all of them together: an app's model files are
    /// tens of kilobytes (the 19,659-line app of BENCHMARKS.md is 0.7 MB in eight files), and the
    /// import's time is linear in the text, about 3 s for 512 KB of models in a debug build
    /// (BENCHMARKS.md, "Swift the importer reads: size"), so a run ends within about 6 s.
    public static let swiftSourceBytes = 512 << 10
    public static let swiftSourcesTotalBytes = 1 << 20
    /// How deep a Swift file may nest (`SwiftNesting`): brackets of any kind up to the release
    /// Swift parser's own nesting cap (past it the parser drops the code inside; a debug build's
    /// cap is 20, and what it drops is caught as a parse error), square brackets to where their
    /// parse time stays under half a second, `#if` blocks far past any app (1 000 took 0.55 s).
    /// Figures in BENCHMARKS.md, "Swift the importer reads".
    static let swiftNesting = SwiftNesting.Limits(
        brackets: 256, squareBrackets: 12, conditionals: 64, tokens: swiftSourceTokens)
    /// Tokens of one Swift file (a word, a symbol, a literal, a comment each count one): a model
    /// file of 512 KB holds about 100 000.
    public static let swiftSourceTokens = 150_000
    /// A value kept in a store: `Z_METADATA`'s property list, `Z_MODELCACHE` as compressed.
    public static let storeValueBytes = 16 << 20
    /// `Z_MODELCACHE` inflated.
    public static let inflatedModelBytes = 64 << 20
    /// Nesting of a property list's containers.
    public static let propertyListDepth = 64
    /// Tables of a store, and rows any schema query returns (`Z_PRIMARYKEY`, a table's columns).
    public static let storeTables = 10_000
    public static let queryRows = 20_000
    /// Members a model archive's walk visits (entities, their properties, constraints): an app's
    /// model has thousands.
    public static let archiveMembers = 1_000_000
}
