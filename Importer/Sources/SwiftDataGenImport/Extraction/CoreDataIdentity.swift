import SwiftDataGenCore

/// The model Core Data hashes, read straight from a model version's XML: entities with their
/// parent, uniqueness constraints in declared order and modifier; attributes and relationships
/// with what enters their version hashes. `StoreIdentity(entities:)` computes Apple's hashes from
/// it, so a generated version opens a Core Data store exactly when their hashes are equal.
public enum CoreDataIdentity {
    /// Core Data's attribute types by the names the model file uses.
    static let types: [String: CoreDataAttributeType] = [
        "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64, "Decimal": .decimal,
        "Double": .double, "Float": .float, "String": .string, "Boolean": .boolean, "Date": .date,
        "Binary": .binaryData, "UUID": .uuid, "URI": .uri, "Transformable": .transformable,
        "Object ID": .objectID, "Composite": .composite,
    ]

    /// The entities of one `<model>`.
    public static func entities(of model: XMLElement) -> [CoreDataEntity] {
        let composites = Dictionary(
            model.children(named: "composite").compactMap { element in element.attribute("name").map { ($0, element) }
            },
            uniquingKeysWith: { first, _ in first })
        func property(_ element: XMLElement, of entity: String) -> CoreDataProperty? {
            Self.property(element, of: entity, composites: composites, visiting: [])
        }
        return model.children(named: "entity").compactMap { entity in
            guard let name = entity.attribute("name") else { return nil }
            let constraints = entity.children(named: "uniquenessConstraints").flatMap {
                $0.children(named: "uniquenessConstraint")
            }.map { $0.children(named: "constraint").compactMap { $0.attribute("value") } }
            return CoreDataEntity(
                name: name, parent: entity.attribute("parentEntity"),
                isAbstract: entity.attribute("isAbstract") == "YES",
                properties: entity.children.compactMap { property($0, of: name) }, uniquenessConstraints: constraints,
                hashModifier: entity.attribute("versionHashModifier"))
        }
    }

    /// An attribute or relationship; a composite attribute with the elements of the `<composite>`
    /// it names, as Core Data declares them.
    private static func property(
        _ element: XMLElement, of entity: String, composites: [String: XMLElement], visiting: Set<String>
    ) -> CoreDataProperty? {
        guard let name = element.attribute("name") else { return nil }
        let optional = element.attribute("optional") == "YES"
        let transient = element.attribute("transient") == "YES"
        let modifier = element.attribute("versionHashModifier")
        switch element.name {
        case "attribute" where element.attribute("attributeType") == "Composite":
            let held = element.attribute("composite") ?? ""
            let elements =
                visiting.contains(held)
                ? []
                : composites[held]?.children(named: "attribute").compactMap {
                    property($0, of: entity, composites: composites, visiting: visiting.union([held]))
                } ?? []
            return CoreDataProperty(
                name: name, isOptional: optional, isTransient: transient, hashModifier: modifier,
                kind: .composite(elements: elements))
        case "attribute":
            let type = types[element.attribute("attributeType") ?? ""] ?? .undefined
            return CoreDataProperty(
                name: name, isOptional: optional, isTransient: transient, hashModifier: modifier,
                kind: .attribute(
                    type, externalStorage: element.attribute("allowsExternalBinaryDataStorage") == "YES",
                    preservedOnDeletion: element.attribute("preserveAfterDeletion") == "YES"))
        case "relationship":
            let toMany = element.attribute("toMany") == "YES"
            let inverse = element.attribute("inverseName")
            let destination = element.attribute("destinationEntity") ?? ""
            return CoreDataProperty(
                name: name, isOptional: optional, isTransient: transient, hashModifier: modifier,
                kind: .relationship(
                    CoreDataRelationship(
                        destination: destination, inverse: destination == entity && inverse == name ? nil : inverse,
                        minCount: Int(element.attribute("minCount") ?? "") ?? 0,
                        maxCount: Int(element.attribute("maxCount") ?? "") ?? (toMany ? 0 : 1),
                        isOrdered: element.attribute("ordered") == "YES")))
        default:
            return nil
        }
    }
}
