/// The template sources the renderer uses, by name (`version`, `current`, `plan`, partials).
public struct TemplateSet: Sendable {
    public static let requiredNames = ["version", "model", "current", "plan", "header", "hooks", "upgrade-test"]
    public static let fileExtension = "mustache"

    public var sources: [String: String]

    public init(sources: [String: String]) {
        self.sources = sources
    }

    /// The bundled set with any same-named template from `overrides` taking its place.
    public func overridden(by overrides: [String: String]) -> TemplateSet {
        TemplateSet(sources: sources.merging(overrides) { _, user in user })
    }
}

