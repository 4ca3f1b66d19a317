/// Checks a `default:` literal against the property's type and turns it into a typed literal.
/// Strict on purpose: `"1"` is not an Int and `yes` is not a Bool.
enum DefaultValueResolver {
    static func resolve(
        _ node: YAMLNode, type: ValueType, isArray: Bool, isOptional: Bool, enums: [String: EnumDecl]
    ) -> Result<LiteralValue, Diagnostic> {
        if let scalar = node.scalar, scalar.isNull, node.tag == nil {
            return isOptional
                ? .success(.null)
                : .failure(
                    .error(
                        .defaultTypeMismatch,
                        "default is null but the property is not optional; give a value or make the type optional",
                        at: node.location))
        }
        if isArray {
            guard case .sequence(let items) = node.content else {
                return .failure(
                    .error(
                        .defaultTypeMismatch, "default of an array property must be a list, such as []",
                        at: node.location))
            }
            var values: [LiteralValue] = []
            for item in items {
                switch element(item, type: type, enums: enums) {
                case .success(let value): values.append(value)
                case .failure(let diagnostic): return .failure(diagnostic)
                }
            }
            return .success(.array(values))
        }
        return element(node, type: type, enums: enums)
    }

    private static func element(_ node: YAMLNode, type: ValueType, enums: [String: EnumDecl]) -> Result<
        LiteralValue, Diagnostic
    > {
        guard let scalar = node.scalar else {
            return .failure(mismatch(node, "a single value, not \(node.kindName)"))
        }
        let text = scalar.value
        switch type {
        case .composite(let name):
            return .failure(
                .error(
                    .defaultTypeMismatch,
                    "a \(name) has no literal; give its initial value with expression: \"\(name)(…)\"",
                    at: node.location))
        case .dictionary:
            return .failure(
                .error(
                    .defaultTypeMismatch,
                    "a dictionary has no literal default but null; give its initial value with expression: \"[:]\"",
                    at: node.location))
        case .enumeration(let name, _, _):
            guard let decl = enums[name], decl.cases.contains(where: { $0.name == text }) else {
                let cases = enums[name]?.cases.map(\.name) ?? []
                return .failure(
                    .error(
                        .defaultTypeMismatch,
                        "'\(text)' is not a case of \(name); write one of: \(cases.joined(separator: ", "))",
                        at: node.location))
            }
            if decl.cases.contains(where: { $0.name == text && !$0.values.isEmpty }) {
                return .failure(
                    .error(
                        .defaultTypeMismatch,
                        "case '\(text)' of \(name) has associated values, which a default cannot write; give the "
                            + "initial value with expression: \".\(text)(…)\", or choose a case without values",
                        at: node.location))
            }
            return .success(.enumCase(text))
        case .scalar(let scalarType):
            return literal(text, scalar: scalar, as: scalarType, at: node.location)
        }
    }

    static func literal(_ text: String, scalar: YAMLScalar, as type: ScalarType, at location: SourceLocation) -> Result<
        LiteralValue, Diagnostic
    > {
        let node = YAMLNode(.scalar(scalar), at: location)
        switch type {
        case .string:
            return .success(.string(text))
        case .bool:
            guard scalar.isPlain, text == "true" || text == "false" else {
                return .failure(mismatch(node, "true or false"))
            }
            return .success(.bool(text == "true"))
        case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64:
            guard scalar.isPlain, fits(text, in: type) else {
                return .failure(
                    mismatch(
                        node,
                        "a whole number that fits in "
                            + "\(type.rawValue)\(scalar.isPlain ? "" : ", written without quotes")"
                    ))
            }
            return .success(.integer(text))
        case .double, .float, .decimal:
            guard scalar.isPlain, isDecimalNumber(text) else {
                return .failure(
                    mismatch(node, "a number such as 1.5\(scalar.isPlain ? "" : ", written without quotes")"))
            }
            guard fitsRange(text, of: type) else {
                return .failure(
                    mismatch(
                        node,
                        "a number within \(type.rawValue)'s range ("
                            + (type == .decimal
                                ? "exponents -128 to 127, as Decimal(string:) would otherwise give nil and trap"
                                : "it would become infinity or zero") + ")"
                    ))
            }
            return .success(type == .decimal ? .decimal(text) : .float(text))
        case .date:
            guard let seconds = secondsSince1970(text) else {
                return .failure(mismatch(node, "an ISO 8601 date such as 2024-01-31T00:00:00Z"))
            }
            return .success(.date(secondsSince1970: seconds))
        case .uuid:
            guard FoundationLiterals.isUUID(text) else { return .failure(mismatch(node, "a UUID such as 2F1A…-…")) }
            return .success(.uuid(text.uppercased()))
        case .url:
            guard FoundationLiterals.isAbsoluteURL(text) else {
                return .failure(mismatch(node, "an absolute URL with a scheme, with spaces and quotes percent-encoded"))
            }
            return .success(.url(text))
        case .data:
            return .failure(
                .error(
                    .defaultTypeMismatch,
                    "Data has no literal form; write the Swift in `expression:` instead, such as expression: "
                        + "\"Data()\"",
                    at: location))
        }
    }

    private static func mismatch(_ node: YAMLNode, _ expected: String) -> Diagnostic {
        .error(
            .defaultTypeMismatch,
            "default '\(node.scalar?.value ?? "")' does not fit the property's type: expected \(expected)",
            at: node.location)
    }

    private static func fits(_ text: String, in type: ScalarType) -> Bool {
        switch type {
        case .int: return Int(text) != nil
        case .int8: return Int8(text) != nil
        case .int16: return Int16(text) != nil
        case .int32: return Int32(text) != nil
        case .int64: return Int64(text) != nil
        case .uint: return UInt(text) != nil
        case .uint8: return UInt8(text) != nil
        case .uint16: return UInt16(text) != nil
        case .uint32: return UInt32(text) != nil
        case .uint64: return UInt64(text) != nil
        default: return false
        }
    }

    /// Whether a number written as `isDecimalNumber` accepts keeps its value in the type: a Double
    /// or Float that would round to infinity or to zero, or a Decimal beyond its exponent range
    /// (where `Decimal(string:)` gives nil and the generated unwrap traps), does not.
    /// FoundationLiteralsTests holds the Decimal rule to `Decimal(string:)` itself.
    static func fitsRange(_ text: String, of type: ScalarType) -> Bool {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let nonzero = mantissa.contains { ("1"..."9").contains($0) }
        switch type {
        case .double:
            guard let value = Double(text) else { return false }
            return value.isFinite && (value != 0 || !nonzero)
        case .float:
            guard let value = Float(text) else { return false }
            return value.isFinite && (value != 0 || !nonzero)
        case .decimal:
            // The exponent of the first significant digit, as in 1.2e5 → 5; Decimal keeps -128...127.
            let written = mantissa.count < text.count ? Int(text.dropFirst(mantissa.count + 1)) ?? 0 : 0
            let whole = mantissa.filter { $0 != "-" }.split(separator: ".", omittingEmptySubsequences: false)
            let integerDigits = whole[0].drop { $0 == "0" }.count
            let leadingFractionZeros = whole.count == 2 ? whole[1].prefix { $0 == "0" }.count : 0
            let exponent = integerDigits > 0 ? written + integerDigits - 1 : written - leadingFractionZeros - 1
            // Foundation's parser also gives nil when the last digit written falls below 10^-128,
            // and a zero keeps the exponent of its last digit.
            let lastDigit = written - (whole.count == 2 ? whole[1].count : 0)
            guard nonzero else { return (-128...127).contains(lastDigit) }
            return (-128...127).contains(exponent) && lastDigit >= -128
        default:
            return true
        }
    }

    /// `-12`, `3.25`, `1e-3`: the forms that are valid Swift float literals as written.
    static func isDecimalNumber(_ text: String) -> Bool {
        var chars = Substring(text)
        if chars.first == "-" { chars = chars.dropFirst() }
        let mantissaEnd = chars.firstIndex { $0 == "e" || $0 == "E" } ?? chars.endIndex
        let mantissa = chars[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            return false
        }
        if mantissaEnd < chars.endIndex {
            var exponent = chars[chars.index(after: mantissaEnd)...]
            if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, exponent.count <= 3, exponent.allSatisfy(\.isASCIIDigit) else { return false }
        }
        return text.count <= 64
    }

    /// Whole seconds since 1970 as text, so the output never depends on float formatting or on
    /// the machine's calendar. Accepts `2024-01-31`, `2024-01-31T08:30:00Z` and `…+02:00`
    /// (fractions of a second are dropped).
    static func secondsSince1970(_ text: String) -> String? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, !range.isEmpty else { return nil }
            var value = 0
            for c in chars[range] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard chars.count >= 10, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day)
        else { return nil }
        var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400
        guard chars.count > 10 else { return String(seconds) }
        guard chars.count >= 20, chars[10] == UInt8(ascii: "T"), chars[13] == UInt8(ascii: ":"),
            chars[16] == UInt8(ascii: ":"),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            hour < 24, minute < 60, second < 60
        else { return nil }
        seconds += hour * 3600 + minute * 60 + second
        var index = 19
        if chars[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 { index += 1 }
            guard index > start, index < chars.count else { return nil }
        }
        if chars[index] == UInt8(ascii: "Z") {
            return index + 1 == chars.count ? String(seconds) : nil
        }
        guard chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-"), index + 6 == chars.count,
            chars[index + 3] == UInt8(ascii: ":"), let offsetHours = number(index + 1..<index + 3),
            let offsetMinutes = number(index + 4..<index + 6), offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let offset = offsetHours * 3600 + offsetMinutes * 60
        seconds += chars[index] == UInt8(ascii: "+") ? -offset : offset
        return String(seconds)
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
