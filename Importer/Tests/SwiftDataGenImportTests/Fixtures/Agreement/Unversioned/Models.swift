import Foundation
import SwiftData

// An app that never versioned: plain @Model classes.
@Model final class Recipe {
    var title: String = ""
    @Relationship(deleteRule: .cascade, inverse: \Step.recipe) var steps: [Step] = []
    init() {}
}

@Model final class Step {
    var text: String = ""
    var recipe: Recipe?
    init() {}
}
