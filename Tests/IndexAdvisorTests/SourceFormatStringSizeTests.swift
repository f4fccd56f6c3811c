import Testing
@testable import IndexAdvisor

/// Long `NSPredicate(format:)` strings: tokenized from their bytes into one token a lexeme (no array of
/// characters), read up to ``PredicateFormatParser/maxFormatBytes``, and past it refused for that site alone.
@Suite("Long NSPredicate format strings")
struct SourceFormatStringSizeTests {
    static let model = """
        import CoreData

        final class Shipment: NSManagedObject {
            @NSManaged var label: String
            @NSManaged var parcels: Int32
        }
        """

    func sites(_ code: String) -> [FetchSite] {
        SourceScanner.scan([(path: "Shipment.swift", text: Self.model), (path: "Fetches.swift", text: code)]).sites
    }

    // Regression (issue 39, F7): the tokenizer made a `[Character]` of the whole string (16 bytes a
    // character), so a 20 MB format string took 420 MB and a 100 MB one ran the process out of memory.
    @Test("a 900,000-byte constant is one token of its own bytes: seven tokens in all")
    func oneTokenPerLexeme() throws {
        let constant = String(repeating: "q", count: 900_000)
        let tokens = try PredicateFormatTokenizer.tokenize("label == '\(constant)' AND parcels > %d")
        #expect(tokens == [.word("label"), .symbol("=="), .string(constant), .word("AND"), .word("parcels"), .symbol(">"), .argument])
        guard case .string(let text) = tokens[2] else { Issue.record("no string token"); return }
        #expect(text.utf8.count == 900_000)
    }

    @Test("Unicode words, white space and marks, escapes, options, numbers and %K as a Character reading gave them")
    func unicodeAndEscapes() throws {
        let format = "naïve == 'crème' AND 名前 BEGINSWITH[cd] %@ AND box.size >= 1.5 AND %K != nil"
        #expect(try PredicateFormatTokenizer.tokenize(format) == [
            .word("naïve"), .symbol("=="), .string("crème"), .word("AND"), .word("名前"), .word("BEGINSWITH"), .symbol("[cd]"), .argument,
            .word("AND"), .word("box.size"), .symbol(">="), .number("1.5"), .word("AND"), .key, .symbol("!="), .word("nil"),
        ])
        // A decomposed é stays in its word; a no-break space separates; a backslash keeps the byte after it.
        #expect(try PredicateFormatTokenizer.tokenize("cafe\u{301}\u{A0}=> 'it\\'s' || \"a\\\\b\" <> %lld") == [
            .word("cafe\u{301}"), .symbol("=>"), .string("it's"), .symbol("||"), .string("a\\b"), .symbol("<>"), .argument,
        ])
        #expect(throws: Untranslatable(reason: "NSPredicate format ends with `%`")) { try PredicateFormatTokenizer.tokenize("parcels > %ll") }
        // An unterminated constant runs to the end.
        #expect(try PredicateFormatTokenizer.tokenize("label == 'open") == [.word("label"), .symbol("=="), .string("open")])
    }

    @Test("at 1,000,000 bytes a format string is read; one byte more and that site alone is refused, counted in bytes")
    func limitPerSite() throws {
        let prefix = "label == '"
        let fill = PredicateFormatParser.maxFormatBytes - prefix.utf8.count - 1
        let atLimit = prefix + String(repeating: "z", count: fill) + "'"
        let overLimit = prefix + String(repeating: "z", count: fill + 1) + "'"
        // 'é' is two bytes: 500,000 of them are over the limit though they are half as many characters.
        let wide = prefix + String(repeating: "é", count: 500_000) + "'"
        #expect(atLimit.utf8.count == 1_000_000)
        let code = [atLimit, overLimit, wide, "parcels > 4"].enumerated().map { index, format in
            "func f\(index)(_ c: NSManagedObjectContext) throws {\n    let r = NSFetchRequest<Shipment>(entityName: \"Shipment\")\n"
                + "    r.predicate = NSPredicate(format: \"\(format)\")\n    _ = try c.fetch(r)\n}"
        }.joined(separator: "\n")
        let found = sites(code)
        try #require(found.count == 4)
        #expect(found[0].sql?.hasSuffix("WHERE  t0.ZLABEL = ?") == true)
        #expect(found[0].bindings == [.text(String(repeating: "z", count: fill))])
        #expect(found[1].untranslatedReason == "NSPredicate format string too long (1,000,001 bytes, limit 1,000,000): not read")
        #expect(found[2].untranslatedReason == "NSPredicate format string too long (1,000,011 bytes, limit 1,000,000): not read")
        #expect(found[3].sql?.hasSuffix("WHERE  t0.ZPARCELS > ?") == true)
    }

    @Test("a message about a long format string quotes its first 80 characters")
    func shortMessages() {
        let format = "parcels > 1 " + String(repeating: "x", count: 10_000)
        let reason = sites("let r = NSFetchRequest<Shipment>(entityName: \"Shipment\")\nr.predicate = NSPredicate(format: \"\(format)\")").first?.untranslatedReason
        #expect(reason == "NSPredicate format `\(format.prefix(80))…`: unexpected text after the predicate")
    }

    @Test("the lexer makes a long plain literal from its bytes in one copy; escaped and raw ones as before")
    func lexerLiterals() {
        let long = String(repeating: "w", count: 3_000_000)
        let tokens = SwiftLexer.tokenize("let s = \"\(long)\"\nlet t = \"a\\\"b\\u{E9}\"\nlet u = #\"x\"y\\n\"#")
        let strings = tokens.filter { $0.kind == .string }
        #expect(strings.map(\.text.utf8.count).first == 3_000_000)
        #expect(strings.dropFirst().map(\.text) == ["a\"bé", "x\"y\\n"])
        #expect(strings.map(\.line) == [1, 2, 3])
    }
}
