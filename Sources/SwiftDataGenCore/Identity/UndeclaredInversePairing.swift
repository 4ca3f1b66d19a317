/// When SwiftData pairs two relationships that declare no inverse, by the rule that fits every
/// Apple-computed case in `docs/version-hash-recipe.md` ("Relationships that declare no inverse"):
/// they pair when each is the other's only candidate (the only relationship of its entity, without
/// an inverse, whose destination is the other's entity) and every to-one end is optional; not when
/// a to-one end is not optional, and not when both ends carry `@Relationship(...)` and the to-many
/// has no initial value. The cases the evidence leaves open are said as such: the identity then
/// carries both readings.
enum UndeclaredInversePairing: Sendable, Equatable {
    case paired
    case unpaired
    /// Not observed: both readings are possible.
    case open

    /// One end of a candidate pair, as the generated or the app's Swift declares it.
    struct End: Sendable, Equatable {
        var isToMany: Bool
        var isOptional: Bool
        /// Carries `@Relationship(...)`.
        var isAnnotated: Bool
        /// Written with an initial value (`= []`, `= nil`, `= [P]()`).
        var hasInitialValue: Bool
        /// `minimumModelCount`/`maximumModelCount` written, or ordered.
        var isCounted: Bool
    }

    /// The rule for two ends that are each other's only candidate.
    init(_ a: End, _ b: End) {
        let toOne = [a, b].filter { !$0.isToMany }
        let toMany = [a, b].filter(\.isToMany)
        if toOne.contains(where: { !$0.isOptional }) {
            self = .unpaired
        } else if toOne.isEmpty || toMany.contains(where: \.isCounted) {
            // Many-to-many, or counted: not observed.
            self = .open
        } else if toMany.isEmpty {
            // One-to-one: observed only with both ends plain.
            self = toOne.allSatisfy({ !$0.isAnnotated }) ? .paired : .open
        } else if let one = toOne.first, let many = toMany.first {
            switch (one.isAnnotated, many.isAnnotated) {
            case (false, _): self = .paired
            case (true, true): self = many.hasInitialValue ? .open : .unpaired
            case (true, false): self = .open
            }
        } else {
            self = .open
        }
    }
}
