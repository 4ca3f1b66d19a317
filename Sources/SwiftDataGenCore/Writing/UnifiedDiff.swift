/// A unified diff of two texts, for `check` to show what is stale. Myers' algorithm keeps it
/// fast on large generated files with few changes.
public enum UnifiedDiff {
    public static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edits = script(a, b)
        var output = ["--- \(oldName)", "+++ \(newName)"]
        var index = 0
        while index < edits.count {
            guard edits[index].kind != .same else {
                index += 1
                continue
            }
            let start = max(0, index - context)
            var end = index
            var lastChange = index
            while end < edits.count && (edits[end].kind != .same || end - lastChange <= context * 2) {
                if edits[end].kind != .same { lastChange = end }
                end += 1
            }
            end = min(edits.count, lastChange + context + 1)
            let hunk = edits[start..<end]
            let oldStart = (hunk.first { $0.kind != .insert }?.oldIndex ?? 0) + 1
            let newStart = (hunk.first { $0.kind != .delete }?.newIndex ?? 0) + 1
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            output.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
            for edit in hunk {
                switch edit.kind {
                case .same: output.append(" " + a[edit.oldIndex])
                case .delete: output.append("-" + a[edit.oldIndex])
                case .insert: output.append("+" + b[edit.newIndex])
                }
            }
            index = end
        }
        return output.joined(separator: "\n") + "\n"
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        var oldIndex: Int
        var newIndex: Int
    }

    static func script(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count
        let m = b.count
        let max = n + m
        // Past this many edits a whole-file replacement reads as well and bounds memory.
        let editLimit = 4000
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        outer: for d in 0...max {
            if d > editLimit {
                return (0..<n).map { Edit(kind: .delete, oldIndex: $0, newIndex: 0) }
                    + (0..<m).map { Edit(kind: .insert, oldIndex: n, newIndex: $0) }
            }
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? v[k + 1 + max] : v[k - 1 + max] + 1
                var y = x - k
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[k + max] = x
                if x >= n && y >= m { break outer }
            }
        }
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[previousK + max]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                edits.append(Edit(kind: .same, oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX {
                    edits.append(Edit(kind: .insert, oldIndex: x, newIndex: y - 1))
                } else {
                    edits.append(Edit(kind: .delete, oldIndex: x - 1, newIndex: y))
                }
                x = previousX
                y = previousY
            }
        }
        return edits.reversed()
    }
}
