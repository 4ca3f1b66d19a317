/// Which texts Foundation's failable initializers accept, decided without Foundation: a default
/// becomes `UUID(uuidString: "…")!` or `URL(string: "…")!` in generated code, so a text passed
/// here must parse on every platform, and each check is at least as strict as Foundation.
enum FoundationLiterals {
    /// `UUID(uuidString:)`: 8-4-4-4-12 hexadecimal digits.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        return bytes.indices.allSatisfy { index in
            [8, 13, 18, 23].contains(index) ? bytes[index] == UInt8(ascii: "-") : isHexDigit(bytes[index])
        }
    }

    /// `URL(string:)` with a scheme: an absolute URI as RFC 3986 writes it (scheme, then an
    /// authority with a bracketed IPv6 host or a name and a port up to 65535, path, query, fragment).
    static func isAbsoluteURL(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
            bytes[..<colon].allSatisfy({
                isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return false }
        var rest = bytes[(colon + 1)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isEncoded(rest[(hash + 1)...], extra: "/?:@") else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isEncoded(rest[(question + 1)...], extra: "/?:@") else { return false }
            rest = rest[..<question]
        }
        if rest.starts(with: Array("//".utf8)) {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            guard isAuthority(afterSlashes[..<end]) else { return false }
            rest = afterSlashes[end...]
        }
        return isEncoded(rest, extra: "/:@")
    }

    private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostAndPort = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            guard isEncoded(authority[..<at], extra: ":") else { return false }
            hostAndPort = authority[(at + 1)...]
        }
        var host = hostAndPort
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")),
                isIPv6(hostAndPort[(hostAndPort.startIndex + 1)..<close])
            else { return false }
            host = hostAndPort[...close]
        } else if let colon = hostAndPort.firstIndex(of: UInt8(ascii: ":")) {
            host = hostAndPort[..<colon]
        }
        let port = hostAndPort[host.endIndex...]
        if !port.isEmpty {
            guard port.first == UInt8(ascii: ":") else { return false }
            let digits = port.dropFirst()
            guard digits.count <= 5, digits.allSatisfy(isDigit), digits.reduce(0, { $0 * 10 + Int($1 - 48) }) <= 65_535
            else { return false }
        }
        return host.first == UInt8(ascii: "[") || isEncoded(host, extra: "")
    }

    /// Eight groups of one to four hex digits, or fewer around one `::`; the last two may be an
    /// IPv4 address.
    private static func isIPv6(_ text: ArraySlice<UInt8>) -> Bool {
        let string = String(decoding: text, as: UTF8.self)
        let halves = string.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        func groups(_ part: Substring) -> Int? {
            guard !part.isEmpty else { return 0 }
            var count = 0
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1 && piece.contains(".") {
                    let octets = piece.split(separator: ".", omittingEmptySubsequences: false)
                    guard octets.count == 4,
                        octets.allSatisfy({
                            (1...3).contains($0.count) && $0.utf8.allSatisfy(isDigit)
                                && Int($0).map { $0 <= 255 } == true
                        })
                    else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(piece.count), piece.utf8.allSatisfy(isHexDigit) else { return nil }
                    count += 1
                }
            }
            return count
        }
        guard let first = groups(halves[0]) else { return false }
        if halves.count == 1 { return first == 8 }
        guard !halves[1].hasPrefix(":"), let second = groups(halves[1]) else { return false }
        return first + second <= 7
    }

    /// Unreserved characters, sub-delimiters, `extra`, and `%` with two hex digits.
    private static func isEncoded(_ bytes: ArraySlice<UInt8>, extra: String) -> Bool {
        let allowed = Array("-._~!$&'()*+,;=".utf8) + Array(extra.utf8)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard isLetter(byte) || isDigit(byte) || allowed.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }
}
