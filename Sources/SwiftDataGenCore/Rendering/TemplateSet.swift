/// The template sources the renderer uses, by name (`version`, `current`, `plan`, partials).
public struct TemplateSet: Sendable {
    public static let requiredNames = ["version", "model", "current", "plan", "header", "hooks", "upgrade-test"]
    public static let fileExtension = "mustache"

    public var sources: [String: String]
    /// The project's own templates, untouched: rendered strictly, since each has a view model
    /// made for it. A user's templates keep the Mustache spec's lookup in enclosing contexts.
    public var isBundled: Bool

    public init(sources: [String: String], isBundled: Bool = false) {
        self.sources = sources
        self.isBundled = isBundled
    }

    /// The bundled set with any same-named template from `overrides` taking its place.
    public func overridden(by overrides: [String: String]) -> TemplateSet {
        TemplateSet(sources: sources.merging(overrides) { _, user in user }, isBundled: isBundled && overrides.isEmpty)
    }
}
