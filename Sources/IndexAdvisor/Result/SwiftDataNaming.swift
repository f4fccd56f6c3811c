/// Swift names for Core Data / SwiftData columns, and index names in SwiftData's convention.
///
/// Column names lose the attribute's case (`folderID` is stored as `ZFOLDERID`). The spelling is
/// recovered, in order, from the model the store caches (`Z_MODELCACHE`, ``StoreModelCache``: every
/// attribute and to-one relationship with its case), from the store's own index names (Core Data names
/// fetch indexes `Z_<Entity>_<attribute>…` and SwiftData `Z_<Entity>_SwiftDataIndexOnBinary<attributes…>`;
/// a name that spells a column but for a tail without case, `isbn` on `ZISBN13`, spells it too), or else by
/// splitting the column name into common English words and the words of the store's own names (its
/// entities, and the fetch indexes the app named: `sortSubtitle` teaches `subtitle`), which is a guess.
public struct SwiftDataNaming: Sendable {
    /// Spellings recovered from the cached model and index names, by upper-cased spelling.
    private var known: [String: String] = [:]
    /// Where each of ``known`` came from: `Z_MODELCACHE`, or the index whose name spells it.
    private var sources: [String: String] = [:]
    /// Lower-cased words of the store's entity and index names, for the guesses.
    private var words: Set<String> = []

    /// Learns spellings from the store's cached model and the names of its indexes.
    public init(schema: Schema) {
        if let model = schema.coreData?.cachedModel?.model {
            for entity in model.entities {
                for name in entity.attributes.filter({ !$0.isTransient }).map(\.name) + entity.relationships.filter({ !$0.isToMany }).map(\.name) {
                    learn(name, from: StoreModelCache.sourceName)
                }
            }
        }
        for entity in schema.coreData?.entities ?? [] { words.formUnion(Self.words(of: entity.name)) }
        for index in schema.indexes where index.name.hasPrefix("Z_") {
            var parts = index.name.split(separator: "_").map(String.init)
            guard parts.count >= 3 else { continue }
            parts.removeFirst(2)  // "Z", entity
            let columns = index.columns.compactMap { $0.name?.uppercased() }.map { $0.hasPrefix("Z") ? String($0.dropFirst()) : $0 }
            for part in parts {
                if let range = part.range(of: "SwiftDataIndexOnBinary") {
                    learn(concatenation: String(part[range.upperBound...]), columns: columns, from: index.name)
                } else if part.first?.isLowercase == true {
                    words.formUnion(Self.words(of: part))
                    // The part spells a key column, or all of it but a tail that has no case (`isbn` of `ISBN13`).
                    for column in columns where column.hasPrefix(part.uppercased()) {
                        let tail = column.dropFirst(part.count)
                        guard tail.allSatisfy({ $0.lowercased() == $0.uppercased() }) else { continue }
                        learn(part + tail, from: index.name)
                    }
                }
            }
        }
    }

    /// Where the spelling of `column` came from: `Z_MODELCACHE`, or the index whose name spells it; nil
    /// when it is a guess.
    public func source(forColumn column: String) -> String? {
        sources[Self.bare(column).uppercased()]
    }

    private mutating func learn(_ name: String, from source: String) {
        guard known[name.uppercased()] == nil else { return }
        known[name.uppercased()] = name
        sources[name.uppercased()] = source
        words.formUnion(Self.words(of: name))
    }

    /// `ZFOLDERID` → `FOLDERID`.
    private static func bare(_ column: String) -> String {
        var bare = column
        if bare.hasPrefix("Z"), bare.count > 1, !bare.hasPrefix("Z_") { bare.removeFirst() }
        return bare
    }

    /// The words of a camel-cased name, lower-cased, of three letters or more: `sortSubtitle` → `sort`, `subtitle`.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase || !character.isLetter, !current.isEmpty {
                words.append(current)
                current = ""
            }
            if character.isLetter { current.append(character) }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }.filter { $0.count >= 3 && $0.allSatisfy(\.isASCII) }
    }

    /// The property name for `column` and whether it is a guess. `ZFOLDERID` → (`folderID`, guessed).
    public func propertyName(forColumn column: String) -> (name: String, isGuess: Bool) {
        let bare = Self.bare(column)
        if let spelled = known[bare.uppercased()] { return (spelled, false) }
        return (Self.camelCase(bare, words: words), true)
    }

    /// `Z_<Entity>_SwiftDataIndexOnBinary<property names…>`, the name SwiftData gives an `#Index`, so that
    /// an index created on an existing store matches the one SwiftData creates on new stores.
    public static func indexName(entity: String, properties: [String]) -> String {
        "Z_\(entity)_SwiftDataIndexOnBinary" + properties.joined()
    }

    private mutating func learn(concatenation: String, columns: [String], from source: String) {
        var rest = Substring(concatenation)
        while !rest.isEmpty {
            guard let column = columns.filter({ rest.uppercased().hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return }
            learn(String(rest.prefix(column.count)), from: source)
            rest = rest.dropFirst(column.count)
        }
    }

    /// Splits an upper- or lower-case run into known words and joins them in lower camel case; acronyms
    /// `ID`, `URL`, `UUID` stay upper case after the first word. Unknown text stays lower case.
    static func camelCase(_ name: String, words learned: Set<String> = []) -> String {
        let vocabulary = Self.vocabulary.union(learned)
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
        // Once short words are merged into an unknown run, an ending may stand alone after a known word:
        // `read` + `in` + `g` is `read` + `ing`, which is `reading` (`finishedReading`, not `finishedReadIng`).
        var merged: [String] = []
        for word in mergingShortWordsIntoUnknown(inflected) {
            if Self.inflections.contains(word.text), !word.isKnown, let last = merged.last, last.count > 3, vocabulary.contains(last) {
                merged[merged.count - 1] += word.text
            } else {
                merged.append(word.text)
            }
        }
        return merged.enumerated().map { offset, word in
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
    private static func mergingShortWordsIntoUnknown(_ input: [(text: String, isKnown: Bool)]) -> [(text: String, isKnown: Bool)] {
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
        return words
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
