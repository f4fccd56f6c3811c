/// Swift names for Core Data / SwiftData columns, and index names in SwiftData's convention.
///
/// Column names lose the attribute's case (`folderID` is stored as `ZFOLDERID`). The spelling is
/// recovered, in order, from the model the store caches (`Z_MODELCACHE`, ``StoreModelCache``: every
/// attribute and to-one relationship with its case), from the store's own index names (Core Data names
/// fetch indexes `Z_<Entity>_<attribute>…` and SwiftData `Z_<Entity>_SwiftDataIndexOnBinary<attributes…>`),
/// or else by splitting the column name into common English words (`ZISARCHIVED` → `isArchived`); the
/// latter is a guess.
public struct SwiftDataNaming: Sendable {
    /// Spellings recovered from index names, by upper-cased spelling.
    private var known: [String: String] = [:]

    /// Learns spellings from the store's cached model and the names of its indexes.
    public init(schema: Schema) {
        if let model = schema.coreData?.cachedModel?.model {
            for entity in model.entities {
                for name in entity.attributes.filter({ !$0.isTransient }).map(\.name) + entity.relationships.filter({ !$0.isToMany }).map(\.name) {
                    if known[name.uppercased()] == nil { known[name.uppercased()] = name }
                }
            }
        }
        for index in schema.indexes where index.name.hasPrefix("Z_") {
            var parts = index.name.split(separator: "_").map(String.init)
            guard parts.count >= 3 else { continue }
            parts.removeFirst(2)  // "Z", entity
            let columns = index.columns.compactMap { $0.name?.uppercased() }.map { $0.hasPrefix("Z") ? String($0.dropFirst()) : $0 }
            for part in parts {
                if let range = part.range(of: "SwiftDataIndexOnBinary") {
                    learn(concatenation: String(part[range.upperBound...]), columns: columns)
                } else if part.first?.isLowercase == true, columns.contains(part.uppercased()), known[part.uppercased()] == nil {
                    known[part.uppercased()] = part
                }
            }
        }
    }

    /// The property name for `column` and whether it is a guess. `ZFOLDERID` → (`folderID`, guessed).
    public func propertyName(forColumn column: String) -> (name: String, isGuess: Bool) {
        var bare = column
        if bare.hasPrefix("Z"), bare.count > 1, !bare.hasPrefix("Z_") { bare.removeFirst() }
        if let spelled = known[bare.uppercased()] { return (spelled, false) }
        return (Self.camelCase(bare), true)
    }

    /// `Z_<Entity>_SwiftDataIndexOnBinary<property names…>`, the name SwiftData gives an `#Index`, so that
    /// an index created on an existing store matches the one SwiftData creates on new stores.
    public static func indexName(entity: String, properties: [String]) -> String {
        "Z_\(entity)_SwiftDataIndexOnBinary" + properties.joined()
    }

    private mutating func learn(concatenation: String, columns: [String]) {
        var rest = Substring(concatenation)
        while !rest.isEmpty {
            guard let column = columns.filter({ rest.uppercased().hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return }
            if known[column] == nil { known[column] = String(rest.prefix(column.count)) }
            rest = rest.dropFirst(column.count)
        }
    }

    /// Splits an upper- or lower-case run into known words and joins them in lower camel case; acronyms
    /// `ID`, `URL`, `UUID` stay upper case after the first word. Unknown text stays lower case.
    static func camelCase(_ name: String) -> String {
        let lower = Array(name.lowercased())
        let n = lower.count
        guard n > 0 else { return name }
        // best[i]: (known letters covered, word count) for lower[i...], and the cut after i.
        var best = [(covered: Int, words: Int)](repeating: (0, 0), count: n + 1)
        var cut = [Int](repeating: n, count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            // Default: one unknown letter.
            best[i] = (best[i + 1].covered, best[i + 1].words + 1)
            cut[i] = i + 1
            for length in stride(from: 2, through: min(12, n - i), by: 1) where vocabulary.contains(String(lower[i..<(i + length)])) {
                let candidate = (covered: best[i + length].covered + length, words: best[i + length].words + 1)
                if candidate.covered > best[i].covered || (candidate.covered == best[i].covered && candidate.words < best[i].words) {
                    best[i] = candidate
                    cut[i] = i + length
                }
            }
        }
        var words: [(text: String, isKnown: Bool)] = []
        var i = 0
        while i < n {
            let piece = String(lower[i..<cut[i]])
            if cut[i] - i == 1, !vocabulary.contains(piece) {
                if let last = words.last, !last.isKnown { words[words.count - 1].text += piece } else { words.append((piece, false)) }
            } else {
                words.append((piece, true))
            }
            i = cut[i]
        }
        let underscore = name.contains("_")
        if underscore { return name.lowercased() }
        // An inflection right after a known word is part of it: `start` + `ed` is `started`, `count` + `s` is `counts`.
        var inflected: [(text: String, isKnown: Bool)] = []
        for word in words {
            if !word.isKnown, Self.inflections.contains(word.text), let last = inflected.last, last.isKnown, last.text.count > 3 {
                inflected[inflected.count - 1].text += word.text
            } else {
                inflected.append(word)
            }
        }
        return mergingShortWordsIntoUnknown(inflected).enumerated().map { offset, word in
            if offset == 0 { return word }
            if acronyms.contains(word) { return word.uppercased() }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
    }

    /// Endings that make a known word another form of it.
    private static let inflections: Set<String> = ["ed", "d", "s", "es", "ing", "er", "ers"]

    /// Words kept upper case after the first word.
    private static let acronyms: Set<String> = ["id", "url", "uuid", "html", "json", "pdf"]

    /// The words, with a known word of three letters or fewer next to an unknown run made part of it: a short
    /// word inside a word the vocabulary lacks is a coincidence of letters (`ZCOLLECTIONID` is `collectionID`,
    /// not `collectiOnID`; `ZISPENDING` is `isPending`, not `isPEndInG`). A leading `is` or `has` and the
    /// acronyms stay words.
    private static func mergingShortWordsIntoUnknown(_ input: [(text: String, isKnown: Bool)]) -> [String] {
        var words = input
        func absorbable(_ offset: Int) -> Bool {
            let word = words[offset]
            return word.isKnown && word.text.count <= 3 && !acronyms.contains(word.text)
                && !(offset == 0 && ["is", "has"].contains(word.text))
                // `…edAt`, a date's usual name (`finishedAt`): the `at` after a past participle stays a word.
                && !(offset == words.count - 1 && word.text == "at" && offset > 0 && words[offset - 1].text.hasSuffix("ed"))
        }
        var changed = true
        while changed {
            changed = false
            for offset in words.indices where !words[offset].isKnown {
                if offset + 1 < words.count, absorbable(offset + 1) || !words[offset + 1].isKnown {
                    words[offset].text += words[offset + 1].text
                    words.remove(at: offset + 1)
                    changed = true
                    break
                }
                if offset > 0, absorbable(offset - 1) {
                    words[offset].text = words[offset - 1].text + words[offset].text
                    words.remove(at: offset - 1)
                    changed = true
                    break
                }
            }
        }
        return words.map(\.text)
    }

    private static let vocabulary: Set<String> = [
        "id", "is", "has", "at", "on", "by", "of", "to", "in", "for", "last", "first", "next", "previous",
        "created", "updated", "modified", "deleted", "archived", "pinned", "hidden", "visible", "starred", "favorite",
        "expired", "read", "seen", "sent", "delivered", "completed", "done", "enabled", "active", "locked", "synced",
        "date", "time", "timestamp", "day", "week", "month", "year", "period", "start", "end", "due", "added",
        "recorded", "published", "watched", "played", "opened", "viewed", "expiration", "destruction", "server",
        "name", "title", "body", "text", "content", "summary", "description", "note", "notes", "slug", "label",
        "remote", "local", "folder", "user", "account", "owner", "author", "parent", "child", "item", "items", "list",
        "type", "kind", "status", "state", "count", "index", "order", "sort", "position", "priority", "rank", "level",
        "uuid", "url", "email", "phone", "display", "full", "group", "tag", "tags", "category", "score", "rating",
        "price", "amount", "total", "value", "key", "hash", "version", "sync", "client", "device", "session", "event",
        "message", "thread", "chat", "conversation", "venue", "artist", "album", "track", "duration", "recording",
        "latitude", "longitude", "location", "city", "country", "code", "color", "image", "photo", "file", "path",
        "size", "data", "customer", "product", "quantity", "line", "number", "project", "task", "reminder", "sender",
        "nonce", "obfuscated", "install", "launch", "channel", "playlist", "movie", "category", "plot", "poster",
        "unique", "external", "internal", "identifier", "source", "target", "origin", "width", "height", "ms", "profile",
    ]
}
