/// Graphviz DOT of the same picture, for an SVG in the docs or a review tool: entities as tables,
/// crow's-foot ends, and a step's changes in colour as well as in words.
public enum DOTDiagram {
    public static func render(_ picture: SchemaPicture) -> String {
        let caption =
            [picture.title] + picture.stages.map { "stage: " + $0 } + picture.otherChanges.map { "also: " + $0 }
        var lines = [
            "digraph schema {",
            "    graph [rankdir=LR, fontname=\"Helvetica\", fontsize=12, labelloc=t, labeljust=l, "
                + "label=\(quoted(lines: caption))];",
            "    node [shape=plaintext, fontname=\"Helvetica\", fontsize=11];",
            "    edge [fontname=\"Helvetica\", fontsize=10, dir=both];",
        ]
        for entity in picture.entities {
            lines.append("    \(quoted(entity.name)) [label=<\(table(entity))>];")
        }
        for link in picture.links {
            let colour = Palette(link.mark)
            var attributes = [
                "arrowtail=\(arrow(link.multiplicity(at: link.from)))",
                "arrowhead=\(arrow(link.multiplicity(at: link.to)))",
                "label=\(quoted(link.label))",
            ]
            if link.isOneWay { attributes.append("style=dashed") }
            if let ink = colour?.ink { attributes += ["color=\"\(ink)\"", "fontcolor=\"\(ink)\""] }
            lines.append(
                "    \(quoted(link.from.entity)) -> \(quoted(link.to.entity)) [\(attributes.joined(separator: ", "))];")
        }
        for item in picture.inheritance {
            lines.append(
                "    \(quoted(item.subclass)) -> \(quoted(item.superclass)) "
                    + "[dir=forward, arrowhead=empty, style=dashed, label=\"subclass\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The colours of a change: a fill for rows and an ink for text and lines.
    struct Palette {
        var fill: String
        var ink: String

        init?(_ mark: SchemaPicture.Mark) {
            switch mark {
            case .same: return nil
            case .added: (fill, ink) = ("#e6f4ea", "#1b7f3b")
            case .removed: (fill, ink) = ("#fce8e6", "#b3261e")
            case .renamed: (fill, ink) = ("#e8f0fe", "#1a5fb4")
            case .converted: (fill, ink) = ("#fff4e0", "#a35200")
            case .changed: (fill, ink) = ("#f3e8fd", "#6a3fa0")
            }
        }
    }

    private static func table(_ entity: SchemaPicture.Entity) -> String {
        var rows: [String] = []
        let head = Palette(entity.mark)
        var title = "<b>\(escaped(entity.name))</b>"
        if let words = entity.mark.words { title += "<br/><font point-size=\"9\">\(escaped(words))</font>" }
        rows.append("<tr><td bgcolor=\"\(head?.fill ?? "#e8e8e8")\">\(title)</td></tr>")
        for attribute in entity.attributes {
            let colour = Palette(attribute.mark)
            var text = "\(escaped(attribute.name)): \(escaped(attribute.type))\(attribute.isOptional ? "?" : "")"
            if attribute.isUnique { text += " <i>unique</i>" }
            if case .removed = attribute.mark { text = "<s>\(text)</s>" }
            if let words = attribute.mark.words { text += "<br/><font point-size=\"9\">\(escaped(words))</font>" }
            if let ink = colour?.ink { text = "<font color=\"\(ink)\">\(text)</font>" }
            let fill = colour.map { " bgcolor=\"\($0.fill)\"" } ?? ""
            rows.append("<tr><td align=\"left\" balign=\"left\"\(fill)>\(text)</td></tr>")
        }
        for note in entity.notes {
            rows.append("<tr><td align=\"left\"><i>\(escaped(note))</i></td></tr>")
        }
        return "<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">" + rows.joined() + "</table>"
    }

    /// Crow's foot: a bar for one, a circle for zero, a crow for many; the tip is the maximum.
    static func arrow(_ multiplicity: SchemaPicture.Multiplicity) -> String {
        switch multiplicity {
        case .zeroOrOne: return "teeodot"
        case .exactlyOne: return "teetee"
        case .zeroOrMore: return "crowodot"
        case .oneOrMore: return "crowtee"
        }
    }

    /// A DOT string: quotes and backslashes escaped, control characters as spaces.
    static func quoted(_ text: String) -> String {
        "\"" + inner(text) + "\""
    }

    /// Left-justified lines (`\l`), for the graph's label.
    static func quoted(lines: [String]) -> String {
        "\"" + lines.map { inner($0) + "\\l" }.joined() + "\""
    }

    private static func inner(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text inside an HTML-like label.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
