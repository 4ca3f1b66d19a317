import SwiftDataGenDSL

extension Property {
    /// How an upgrade test, in a file of its own, reads the stored value as `Seed.stored` spells
    /// it: the stored property, or the typed accessor where that is private; nil where neither
    /// can be reached.
    func upgradeTestRead(of object: String, naming: NamingConfig) -> String? {
        let stored = naming.storedName(self)
        let reached: String
        if access?.isFilePrivate != true {
            reached = "\(object).\(stored)"
        } else if stored != name {
            reached = "\(object).\(name)"
        } else {
            return nil
        }
        guard kind.isEnumeration, access?.isFilePrivate == true || kind.storesEnumItself else { return reached }
        // An enum without a raw type is compared by its case name, as `Seed.stored` spells it.
        if case .attribute(.enumeration(_, nil, _), _) = kind {
            return isOptional ? "\(reached).map { \"\\($0)\" }" : "\"\\(\(reached))\""
        }
        return reached + (isOptional ? "?.rawValue" : ".rawValue")
    }

    /// The assignment that puts `seed` in the store, as `upgradeTestRead` reaches it.
    func upgradeTestWrite(_ seed: Seed, naming: NamingConfig) -> String? {
        let stored = naming.storedName(self)
        // Values of the version's own types are spelled through its schema.
        let ownType = kind.storesEnumItself || kind.isComposite
        guard access?.isFilePrivate == true else { return "\(stored) = \(ownType ? seed.typed : seed.stored)" }
        guard stored != name else { return nil }
        return "\(name) = \(seed.typed)"
    }
}
