import SwiftDataGenDSL

/// Rules about a version file as a file.
enum FileRules {
    static let version: [Rule<VersionSubject>] = [
        Rule(
            .versionFileNameMismatch,
            example: [("2.0.0.yaml", "schema: App\nversion: 3.0.0\nmodels:\n  A:\n    properties:\n      a: String\n")],
            check: fileNameMatchesVersion)
    ]

    /// `2.0.0.yaml` holding `version: 3.0.0` is most often a copied file whose number was not
    /// changed, or changed in one place only.
    @Sendable static func fileNameMatchesVersion(_ subject: VersionSubject) -> [Diagnostic] {
        let version = subject.version
        var stem = Substring(version.file.split(separator: "/").last ?? "")
        if let dot = stem.lastIndex(of: ".") { stem = stem[..<dot] }
        guard let named = SemanticVersion(parsing: String(stem)), named != version.version else { return [] }
        return [
            .warning(
                .versionFileNameMismatch,
                "this file is named \(stem) but declares version \(version.version); rename the file or fix "
                    + "version: so the two agree",
                at: version.location)
        ]
    }
}
