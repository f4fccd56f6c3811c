import Foundation

/// A set of index changes to a store: indexes to create (`CREATE INDEX` text) and existing indexes to
/// drop (by name). What `.expert`, our advice, a searched subset or "no change" proposes; the benchmark
/// treats every one alike, whoever proposed it.
package struct ChangeSet: Hashable, Sendable {
    /// `CREATE INDEX` statements, in the order they are listed.
    package var creates: [String]
    /// Existing indexes to drop, by name.
    package var drops: [String]

    package init(creates: [String] = [], drops: [String] = []) {
        self.creates = creates
        self.drops = drops
    }

    /// No change: the store as it is.
    package static let none = ChangeSet()

    package var changeCount: Int { creates.count + drops.count }
    package var isEmpty: Bool { creates.isEmpty && drops.isEmpty }

    /// `table(columns…) WHERE …`: a `CREATE INDEX` without its name, quotes or spacing, lower-cased outside
    /// string literals, for comparing sets made by different advisors (ours quote, `.expert`'s do not).
    package static func key(_ create: String) -> String {
        let words = SQLWords.split(create)
        guard let on = words.firstIndex(where: { $0.isKeyword("ON") }) else { return create }
        var out = ""
        var previous: SQLWords.Word?
        for word in words[(on + 1)...] where word.text != ";" {
            let text: String
            switch word.kind {
            case .identifier: text = word.value.lowercased()
            case .string, .number, .parameter: text = word.text
            case .keyword: text = word.text.uppercased()
            case .symbol: text = word.text
            }
            if let previous, needsSpace(previous, word) { out += " " }
            out += text
            previous = word
        }
        return out.replacingOccurrences(of: " ASC", with: "").replacingOccurrences(of: " COLLATE BINARY", with: "")
    }

    private static func needsSpace(_ a: SQLWords.Word, _ b: SQLWords.Word) -> Bool {
        if a.isSymbol("(") || b.isSymbol(")") || b.isSymbol(",") { return false }
        if b.isSymbol("(") { return !(a.kind == .identifier) }
        if a.isSymbol(".") || b.isSymbol(".") { return false }
        return true
    }

    /// The name a `CREATE INDEX [IF NOT EXISTS] name ON …` gives its index; nil when it has none.
    package static func name(_ create: String) -> String? {
        let words = SQLWords.split(create)
        guard let index = words.firstIndex(where: { $0.isKeyword("INDEX") }),
              let on = words.firstIndex(where: { $0.isKeyword("ON") }), on > index + 1 else { return nil }
        let last = words[on - 1]
        return last.kind == .identifier ? last.value : nil
    }

    /// The table a `CREATE INDEX … ON table (…)` is on.
    package static func table(_ create: String) -> String? {
        let words = SQLWords.split(create)
        guard let on = words.firstIndex(where: { $0.isKeyword("ON") }), on + 1 < words.count else { return nil }
        return words[on + 1].value
    }

    /// True when the `CREATE INDEX` has a `WHERE` clause (a partial index, partialindex.html).
    package static func isPartial(_ create: String) -> Bool {
        SQLWords.split(create).contains { $0.isKeyword("WHERE") }
    }

    /// The changes as one sorted list of keys (`DROP name` for a drop): equal lists, equal sets.
    package var keys: [String] { (creates.map(Self.key) + drops.map { "DROP \($0)" }).sorted() }

    /// The same indexes created (whatever their names) and the same indexes dropped.
    package func isSame(as other: ChangeSet) -> Bool { keys == other.keys }

    /// The creates in the order they are built on every copy and clone: drops first (see ``drops``), then
    /// full indexes before partial ones on the same table and leading key, so that of two indexes the planner
    /// rates equal (it takes the one created last) the partial one wins wherever it is built; otherwise in
    /// key order, so that two sets holding the same indexes build them alike.
    package var buildOrder: [String] {
        creates.sorted { a, b in
            let pa = Self.isPartial(a), pb = Self.isPartial(b)
            if pa != pb { return !pa }
            return Self.key(a) < Self.key(b)
        }
    }

    /// `self` with `other`'s changes added (a create whose key is already there is not repeated).
    package func adding(_ other: ChangeSet) -> ChangeSet {
        var result = self
        for create in other.creates where !result.creates.contains(where: { Self.key($0) == Self.key(create) }) { result.creates.append(create) }
        for drop in other.drops where !result.drops.contains(drop) { result.drops.append(drop) }
        return result
    }
}
