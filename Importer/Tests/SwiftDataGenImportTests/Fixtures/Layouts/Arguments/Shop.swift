import Foundation
import SwiftData

// Macro and attribute arguments in every spelling Swift takes for a key path (`\.x`, `\Type.x`,
// `\Schema.Type.x`, `\Module.Schema.Type.x`, the module being Arguments), in a version declared
// in an extension of a namespace; an R-tree index, which the DSL does not write, is noted.

enum Shop {}

extension Shop {
    enum V1: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
        static var models: [any PersistentModel.Type] { [Vendor.self, Shop.V1.Product.self] }

        @Model
        final class Vendor {
            #Unique<Vendor>([\.code])
            var code: String = ""
            @Relationship(deleteRule: .cascade, maximumModelCount: 500, inverse: \Shop.V1.Product.vendor)
            var products: [Product] = []

            init() {}
        }

        @Model
        final class Product {
            #Unique<Product>([\Product.sku], [\.name, \Shop.V1.Product.size])
            #Index<Product>([\.name], [\Arguments.Shop.V1.Product.sku])
            #Index<Product>(.binary([\.size]), .rtree([\.weight]))
            var sku: String = ""
            @Attribute(.spotlight, originalName: "title", hashModifier: "v1")
            var name: String = ""
            var size: Int = 0
            var weight: Double = 0
            @Attribute(.externalStorage) var photo: Data?
            @Relationship(deleteRule: .nullify) var vendor: Vendor?

            init() {}
        }
    }
}
