/// Mermaid `erDiagram` text, which GitHub, GitLab and Notion draw with no tool installed.
///
/// Written to the grammar every Mermaid release since 9 reads (no styling statements, which
/// older renderers refuse, failing the whole diagram): a change is said in the rows' comments and
/// the relationship labels. A name Mermaid reads as a keyword is quoted (entities) or shown with a
/// trailing `_` and its real name in the comment (attributes).
public enum MermaidDiagram {
    public static func render(_ picture: SchemaPicture) -> String {
        var lines = ["erDiagram"]
        for entity in picture.entities {
            let rows = entityRows(entity) + entity.attributes.map(attributeRow)
            if rows.isEmpty {
                lines.append("    \(entityName(entity.name))")
            } else {
                lines.append("    \(entityName(entity.name)) {")
                lines += rows.map { "        " + $0 }
                lines.append("    }")
            }
        }
        for link in picture.links {
            let line = link.isOneWay ? ".." : "--"
            let left = leftToken(link.multiplicity(at: link.from))
            let right = rightToken(link.multiplicity(at: link.to))
            lines.append(
                "    \(entityName(link.from.entity)) \(left)\(line)\(right) \(entityName(link.to.entity)) : "
                    + quoted(link.label))
        }
        for item in picture.inheritance {
            lines.append(
                "    \(entityName(item.superclass)) ||..o| \(entityName(item.subclass)) : "
                    + quoted("superclass of \(item.subclass)"))
        }
        for stage in picture.stages { lines.append("    %% stage: " + comment(stage)) }
        for change in picture.otherChanges { lines.append("    %% also: " + comment(change)) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func entityRows(_ entity: SchemaPicture.Entity) -> [String] {
        var rows: [String] = []
        switch entity.mark {
        case .same: break
        case .added: rows.append("model added")
        case .removed(let fate): rows.append("model removed " + quoted(fate))
        case .renamed(let from): rows.append("model renamed " + quoted("from \(from)"))
        case .converted(let how): rows.append("model converted " + quoted(how))
        case .changed(let what): rows.append("model changed " + quoted(what.joined(separator: "; ")))
        }
        if !entity.notes.isEmpty { rows.append("model constraints " + quoted(entity.notes.joined(separator: "; "))) }
        return rows
    }

    private static func attributeRow(_ attribute: SchemaPicture.Attribute) -> String {
        var words: [String] = []
        // Mermaid's type word cannot start with `[`: `[String]` is drawn `String[]`, and
        // `[String: Note]` `Note[String]`.
        var spelled = attribute.type
        if spelled.hasPrefix("[") {
            let inner = spelled.dropFirst().dropLast()
            let parts = inner.split(separator: ":", maxSplits: 1).map { $0.split(separator: " ").joined() }
            spelled = parts.count == 2 ? "\(parts[1])[\(parts[0])]" : String(inner) + "[]"
        }
        let type = attributeWord(spelled)
        let name = attributeWord(attribute.name)
        if type != spelled { words.append("type \(attribute.type)") }
        if name != attribute.name { words.append("named \(attribute.name)") }
        if attribute.isOptional { words.append("optional") }
        if let mark = attribute.mark.words { words.append(mark) }
        var row = "\(type) \(name)"
        if attribute.isUnique { row += " UK" }
        if !words.isEmpty { row += " " + quoted(words.joined(separator: ", ")) }
        return row
    }

    /// Words Mermaid's ER lexer takes for its own, in any case.
    static let keywords: Set<String> = [
        "erdiagram", "acctitle", "accdescr", "direction", "style", "classdef", "class", "to", "optionally", "one",
        "zero", "only", "many", "u", "title", "end", "pk", "fk", "uk", "md_parent",
    ]

    static func entityName(_ name: String) -> String {
        keywords.contains(name.lowercased()) ? "\"\(name)\"" : name
    }

    /// A word that starts with a key (`PK`, `FK`, `UK`, then no letter, digit or `_`) is read as
    /// the key: shown with `_` after it.
    static func attributeWord(_ word: String) -> String {
        let head = word.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard ["pk", "fk", "uk"].contains(head.lowercased()) else { return word }
        return head + "_" + word.dropFirst(head.count)
    }

    /// A Mermaid comment string: double quotes cannot be escaped inside one.
    static func quoted(_ text: String) -> String {
        "\"" + comment(text).replacingQuotes() + "\""
    }

    /// One line, no control characters.
    static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    }

    static func leftToken(_ multiplicity: SchemaPicture.Multiplicity) -> String {
        switch multiplicity {
        case .zeroOrOne: return "|o"
        case .exactlyOne: return "||"
        case .zeroOrMore: return "}o"
        case .oneOrMore: return "}|"
        }
    }

    static func rightToken(_ multiplicity: SchemaPicture.Multiplicity) -> String {
        switch multiplicity {
        case .zeroOrOne: return "o|"
        case .exactlyOne: return "||"
        case .zeroOrMore: return "o{"
        case .oneOrMore: return "|{"
        }
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        String(map { $0 == "\"" ? "'" : $0 })
    }
}
