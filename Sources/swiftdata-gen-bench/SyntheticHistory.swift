/// A large schema history with the shapes real ones have: renames every version, conversions
/// through bridges, relationships with inverses, enums, indexes and defaults. Nothing is removed,
/// so no step warns of data loss. A model gains one property per conversion it has been through,
/// on top of `properties`.
struct SyntheticHistory {
    var versions = 10
    var models = 200
    var properties = 30

    var config: String { "platforms: { iOS: 18, macOS: 15 }\n" }

    func versionFile(_ v: Int) -> String {
        var out =
            "schema: Bench\nversion: \(v).0.0\nenums:\n  Status: { rawType: String, cases: [draft, live, gone] "
            + "}\nmodels:\n"
        for i in 0..<models {
            let name = modelName(i)
            out += "  \(name):\n    indexes: [[text]]\n    properties:\n"
            out += v == 1 ? "      name1: String\n" : "      name\(v): { type: String, renamedFrom: name\(v - 1) }\n"
            out += "      text: String\n"
            var count = 2
            for earlier in 2...max(2, v) where earlier <= v && i % 20 == earlier % 20 {
                out +=
                    earlier == v
                    ? "      num\(earlier): { type: Int, default: 0, from: { property: text, convert: \"Int($0) "
                        + "?? 0\" } }\n"
                    : "      num\(earlier): { type: Int, default: 0 }\n"
            }
            if i + 1 < models {
                out += "      next: { type: \(modelName(i + 1))?, inverse: previous }\n"
                count += 1
            }
            if i > 0 {
                out += "      previous: \"[\(modelName(i - 1))]\"\n"
                count += 1
            }
            var k = 0
            while count < properties {
                switch k % 6 {
                case 0: out += "      s\(k): String?\n"
                case 1: out += "      i\(k): { type: Int, default: 0 }\n"
                case 2: out += "      d\(k): Double?\n"
                case 3: out += "      t\(k): { type: Date, default: 2024-01-01T00:00:00Z }\n"
                case 4: out += "      b\(k): { type: Bool, default: false }\n"
                default: out += "      e\(k): { type: Status, default: draft }\n"
                }
                k += 1
                count += 1
            }
        }
        return out
    }

    /// `M007`: zero-padded to the widest number, so names sort in model order at any count.
    private func modelName(_ i: Int) -> String {
        let width = max(3, String(max(models - 1, 0)).count)
        return "M" + String(repeating: "0", count: max(0, width - String(i).count)) + String(i)
    }
}
