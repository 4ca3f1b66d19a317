import Foundation
import SwiftData

// Versions declared in extensions of a namespace, one file each, as apps with many versions
// keep them; the inverse is written through the schema (`\Schemas.V1.Page.document`) and once
// through the module (`\NamespaceExtension.Schemas.V3.Page.document`, the module being NamespaceExtension).

enum Schemas {}

typealias Document = Schemas.V3.Document
typealias Page = Schemas.V3.Page
