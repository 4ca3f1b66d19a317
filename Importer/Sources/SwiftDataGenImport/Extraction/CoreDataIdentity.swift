/// What Core Data puts into each entity's version hash, read straight from a model version's XML
/// and written in the text the generator's `StoreIdentity.checksumText` writes for a SwiftData
/// version (entity name, superentity, uniqueness; per stored property its name, type,
/// optionality, hash-relevant options, modifier; per relationship its destination, to-many and
/// counts, and `ordered=true`, which SwiftData cannot state). Equal texts per entity mean the
/// generated models open the Core Data store as it is.
public enum CoreDataIdentity {
    /// Core Data attribute types by the storage names `StoreIdentity` uses.
    static let storage: [String: String] = [
        "Integer 16": "integer16", "Integer 32": "integer32", "Integer 64": "integer64", "Double": "double",
        "Float": "float", "Decimal": "decimal", "String": "string", "Boolean": "boolean", "Date": "date",
        "Binary": "binary", "UUID": "uuid", "URI": "uri", "Transformable": "transformable",
    ]

    /// Entity name → its checksum text, for one `<model>`.
    public static func checksumTexts(of model: XMLElement) -> [String: String] {
        var texts: [String: String] = [:]
        for entity in model.children(named: "entity") {
            guard let name = entity.attribute("name") else { continue }
            let groups = entity.children(named: "uniquenessConstraints").flatMap {
                $0.children(named: "uniquenessConstraint")
            }.map {
                $0.children(named: "constraint").compactMap { $0.attribute("value") }.sorted().joined(separator: ",")
            }
            .sorted()
            var lines = [
                "entity \(name) super=\(entity.attribute("parentEntity") ?? "-") "
                    + "unique=\(groups.isEmpty ? "-" : groups.joined(separator: ";"))"
            ]
            var properties: [(String, String)] = []
            for element in entity.children where element.attribute("transient") != "YES" {
                guard let property = element.attribute("name") else { continue }
                let modifier = element.attribute("versionHashModifier") ?? "-"
                switch element.name {
                case "attribute":
                    let type = element.attribute("attributeType") ?? "Undefined"
                    var flags: [String] = []
                    if element.attribute("allowsExternalBinaryDataStorage") == "YES" { flags.append("externalStorage") }
                    if element.attribute("preserveAfterDeletion") == "YES" { flags.append("preserveValueOnDeletion") }
                    let flagText = flags.isEmpty ? "-" : flags.sorted().joined(separator: ",")
                    properties.append(
                        (
                            property,
                            "  \(property) attribute \(storage[type] ?? type.lowercased()) "
                                + "optional=\(element.attribute("optional") == "YES") flags=\(flagText) "
                                + "modifier=\(modifier)"
                        ))
                case "relationship":
                    let toMany = element.attribute("toMany") == "YES"
                    // A to-one's counts are not stated by SwiftData's macro: the identity counts them as 0.
                    let minimum = toMany ? Int(element.attribute("minCount") ?? "0") ?? 0 : 0
                    let maximum = toMany ? Int(element.attribute("maxCount") ?? "0") ?? 0 : 0
                    properties.append(
                        (
                            property,
                            "  \(property) relationship \(element.attribute("destinationEntity") ?? "-") "
                                + "many=\(toMany) min=\(minimum) max=\(maximum) modifier=\(modifier)"
                                + (element.attribute("ordered") == "YES" ? " ordered=true" : "")
                        ))
                default: continue
                }
            }
            lines += properties.sorted { $0.0 < $1.0 }.map(\.1)
            texts[name] = lines.joined(separator: "\n")
        }
        return texts
    }
}
