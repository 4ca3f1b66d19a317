/// CloudKit rules: every attribute optional or defaulted, every relationship optional. (Unique
/// constraints and deny are refused where they are resolved.)
extension VersionResolver {
    /// CloudKit's rules hold from the version that turned sync on (`cloudKit: { from: … }`).
    var syncsWithCloudKit: Bool { config.cloudKit.applies(to: file.version.value) }

    mutating func checkCloudKit(_ models: [ModelDecl]) {
        for model in models {
            for property in model.properties where property.isStored {
                switch property.kind {
                case .attribute:
                    if !property.isOptional && property.defaultValue == nil {
                        diagnostics.append(
                            .error(
                                .cloudKitRequiredAttribute,
                                "CloudKit needs every attribute optional or defaulted; give "
                                    + "'\(model.name).\(property.name)' a default or make it optional",
                                at: property.location))
                    }
                case .relationship:
                    if !property.isOptional {
                        diagnostics.append(
                            .error(
                                .cloudKitRequiredRelationship,
                                "CloudKit needs every relationship optional; make "
                                    + "'\(model.name).\(property.name)' optional by adding '?' to its type",
                                at: property.location))
                    }
                }
            }
        }
    }
}
