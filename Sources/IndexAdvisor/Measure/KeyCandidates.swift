/// Other values like a text a row or the app gave, for a unique expression that a text past the column's
/// largest does not make new (``FreshKeys``): `substr(code, 1, 4)` reads only a code's first four characters,
/// and `doc ->> '$.k'` fails on a document with digits after it ("malformed JSON"), so `'3000'` + `'0'` and
/// `'{"k":9}'` + `'0'` are no free keys.
///
/// Each call draws again, wider each attempt. A text has its leading characters drawn again, each of its
/// kind (an ASCII digit another digit, a letter another letter of the same case; everything else stays):
/// the first one, then the first 4, 9, 16 … (the attempt's square), and past its end more characters of
/// its last letter's or digit's kind. A JSON object or array keeps its keys and shape, and every number
/// and text in it is drawn again (`json_set` on its paths from `json_tree`): a number with one digit more
/// each attempt, a text as above. Seeded, so runs repeat. Whether a value drawn is free is the caller's
/// to ask SQLite: nothing here knows the expression.
struct KeyCandidates {
    let connection: SQLiteConnection
    private var generator = SeededGenerator(seed: 0x6672_6573_686B_6579)

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Most characters added past a text's end, and most values of a document drawn again (`json_set`
    /// takes two arguments for each, and SQLite's functions take at most 127 by default).
    static let maxAddedCharacters = 32
    static let maxDocumentValues = 60

    /// A value like `value` for attempt `attempt` (1 or more), or nil when `value` is no text.
    mutating func value(like value: SQLValue, attempt: Int) -> SQLValue? {
        guard case .text(let text) = value else { return nil }
        return .text(redrawnDocument(text, attempt: attempt) ?? redrawn(text, attempt: attempt))
    }

    /// `document` with every number and text in it drawn again; nil when it is no JSON object or array.
    private mutating func redrawnDocument(_ document: String, attempt: Int) -> String? {
        let leaves = "SELECT fullkey, atom FROM json_tree(?1) WHERE json_type(?1) IN ('object', 'array') AND type IN ('integer', 'real', 'text') LIMIT \(Self.maxDocumentValues)"
        guard let rows = try? connection.query(leaves, [.text(document)]), !rows.isEmpty else { return nil }
        var arguments: [SQLValue] = [.text(document)]
        for row in rows {
            arguments += [row[0], redrawn(row[1], attempt: attempt)]
        }
        let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
        return try? connection.scalar("SELECT json_set(\(placeholders))", arguments)?.textValue
    }

    /// A number or text of a document drawn again (others as they are).
    private mutating func redrawn(_ value: SQLValue, attempt: Int) -> SQLValue {
        switch value {
        case .integer(let integer):
            let drawn = randomNumber(digits: digits(of: Double(integer)) + attempt)
            return .integer(integer < 0 ? -drawn : drawn)
        case .real(let real):
            let whole = real.rounded(.towardZero)
            let drawn = Double(randomNumber(digits: digits(of: whole) + attempt))
            return .real((real < 0 ? -drawn : drawn) + (real - whole))
        case .text(let text): return .text(redrawn(text, attempt: attempt))
        default: return value
        }
    }

    /// `text` with its first `attempt`² characters drawn again, each of its kind, and past its end as many
    /// more (at most ``maxAddedCharacters``) of the kind of its last ASCII letter or digit.
    private mutating func redrawn(_ text: String, attempt: Int) -> String {
        let count = attempt * attempt
        var characters = Array(text)
        for index in characters.indices.prefix(count) {
            characters[index] = character(like: characters[index])
        }
        let last = characters.last { $0.isASCII && ($0.isLetter || $0.isNumber) } ?? "a"
        characters += (0..<min(Self.maxAddedCharacters, max(0, count - characters.count))).map { _ in character(like: last) }
        return String(characters)
    }

    /// A random ASCII digit, lower-case or upper-case letter for one of those; any other character as it is.
    private mutating func character(like character: Character) -> Character {
        let alphabets = ["0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"].map(Array.init)
        guard character.isASCII, let alphabet = alphabets.first(where: { $0.contains(character) }) else { return character }
        return alphabet[Int(generator.next() % UInt64(alphabet.count))]
    }

    /// A random number of `digits` decimal digits (at most 18), not starting with 0 unless it is one digit.
    private mutating func randomNumber(digits: Int) -> Int64 {
        let digits = min(18, max(1, digits))
        let low: Int64 = digits == 1 ? 0 : (1..<digits).reduce(1) { value, _ in value * 10 }
        let high = (0..<digits).reduce(Int64(1)) { value, _ in value * 10 }
        return low + Int64(generator.next() % UInt64(high - low))
    }

    /// The decimal digits of `number`'s whole part (18 for one past the 64-bit range).
    private func digits(of number: Double) -> Int {
        number.magnitude < 1e18 ? String(Int64(number.magnitude)).count : 18
    }
}
