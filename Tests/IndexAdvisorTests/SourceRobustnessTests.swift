import Testing
import Foundation
@testable import IndexAdvisor

/// `--source` on unusual input: names that refer to themselves, line endings, deep nesting, encodings,
/// overlapping paths. Each case is one the scanner once crashed on or misread.
@Suite("Fetch sites in unusual Swift source")
struct SourceRobustnessTests {
    static let model = """
        @Model final class Recipe {
            var title: String
            var rating: Int
            var createdAt: Date
        }
        """

    func sites(_ code: String) -> [FetchSite] {
        SourceScanner.scan([(path: "Recipe.swift", text: Self.model), (path: "Code.swift", text: code)]).sites
    }

    // Regression: following a name to its initializer recursed without end when the initializer named
    // itself (a shadowed parameter, `self.x`, two statics naming each other), and crashed the scan.
    @Test("a predicate or sort named by itself is reported as built at run time, not followed for ever")
    func selfReferringNames() {
        let cases = [
            "func load(_ context: ModelContext, predicate: Predicate<Recipe>?) throws {\n    let predicate = predicate\n    _ = try context.fetch(FetchDescriptor<Recipe>(predicate: predicate))\n}",
            "struct Q {\n    let predicate: Predicate<Recipe>\n    func run(_ context: ModelContext) throws {\n        let predicate = self.predicate\n        _ = try context.fetch(FetchDescriptor<Recipe>(predicate: predicate))\n    }\n}",
            "enum Filters {\n    static let recent = Filters.favourites\n    static let favourites = Filters.recent\n}\nfunc load(_ context: ModelContext) throws {\n    _ = try context.fetch(FetchDescriptor<Recipe>(predicate: Filters.recent))\n}",
        ]
        // The property `Q.predicate` has no value in the file: it is set at run time, and the reason says so.
        let reasons = ["is built at run time (a dynamic predicate, not a #Predicate or format literal in this file)",
                       "is built at run time (`predicate` is declared without a value)",
                       // Two static members naming each other: followed as members, each once.
                       "the predicate `Filters.recent` (Code.swift:2) leads back to itself"]
        for (code, reason) in zip(cases, reasons) {
            let found = sites(code)
            #expect(found.count == 1, "\(code)")
            #expect(found.first?.sql == nil)
            #expect(found.first?.untranslatedReason?.hasSuffix(reason) == true, "\(code)")
        }
        let sorted = sites("final class S {\n    var sort: [SortDescriptor<Recipe>]\n    init(sort: [SortDescriptor<Recipe>]) { self.sort = sort }\n    func load(_ context: ModelContext) throws {\n        let sort = self.sort\n        _ = try context.fetch(FetchDescriptor<Recipe>(sortBy: sort))\n    }\n}")
        #expect(sorted.count == 1)
        #expect(sorted.first?.untranslatedReason == "the sort `self.sort` is built at run time (`sort` is assigned in another function on line 3)")
        // A name followed once, then again beside it, is still read.
        let twice = sites("let byTitle = [SortDescriptor(\\Recipe.title)]\nlet both = FetchDescriptor<Recipe>(predicate: #Predicate { $0.rating > 3 }, sortBy: byTitle)\nlet again = FetchDescriptor<Recipe>(sortBy: byTitle)")
        #expect(twice.compactMap(\.sql).count == 2)
    }

    // Regression: the frequency comment was looked up in lines split at "\n" only, where "\r\n" is one
    // Character, so a CRLF file's line numbers disagreed with the lexer's and the lookup ran off the end
    // (a crash); a lone "\r" did not end a `//` comment, which swallowed the rest of the file.
    @Test("CRLF, CR-only and mixed line endings: sites found, their lines as an editor shows them, freq comments read")
    func lineEndings() {
        let lines = [
            "import SwiftData",
            "func load(_ context: ModelContext) throws {",
            "    // indexadvisor: freq 7",
            "    _ = try context.fetch(FetchDescriptor<Recipe>(sortBy: [SortDescriptor(\\.title)]))",
            "    let s = \"\"\"",
            "        a",
            "        \"\"\"",
            "    /* block",
            "       comment */",
            "    // indexadvisor: freq 3",
            "    _ = try context.fetch(FetchDescriptor<Recipe>(predicate: #Predicate { $0.rating > 2 }))",
            "}",
        ]
        for (ending, name) in [("\r\n", "CRLF"), ("\r", "CR"), ("\n", "LF")] {
            let found = sites(lines.joined(separator: ending) + ending)
            #expect(found.map(\.line) == [4, 11], "\(name)")
            #expect(found.map(\.frequency) == [7, 3], "\(name)")
            #expect(found.allSatisfy { $0.sql != nil }, "\(name)")
        }
        // Mixed: each line end as the editor shows it.
        var mixed = ""
        for (index, line) in lines.enumerated() { mixed += line + ["\r\n", "\n", "\r"][index % 3] }
        let found = sites(mixed)
        #expect(found.map(\.line) == [4, 11])
        #expect(found.map(\.frequency) == [7, 3])
        #expect(SwiftLexer.lines(of: "a\r\nb\rc\nd").map(String.init) == ["a", "b", "c", "d"])
        #expect(SwiftLexer.lines(of: "").map(String.init) == [""])
        #expect(SwiftLexer.lines(of: "é\r\n\r\n\n").map(String.init) == ["é", "", "", ""])
        // A frequency comment asked for past the last line is none, not a crash.
        #expect(SourceScanner.frequencyComment(before: 40, in: SwiftLexer.lines(of: "// indexadvisor: freq 2\nx")) == nil)
    }

    // Regression: the predicate readers recursed once per parenthesis or `!`, and the lexer once per
    // nested string interpolation, so deep enough nesting overflowed the stack.
    @Test("deep nesting: 10,000 parentheses or 100,000 `!` make the site untranslated; 50,000 nested interpolations lex")
    func deepNesting() {
        let reason = "the predicate or sort is nested deeper than 500 levels: not read"
        let parentheses = String(repeating: "(", count: 10_000) + "$0.rating > 1" + String(repeating: ")", count: 10_000)
        let bangs = String(repeating: "!", count: 100_000) + "($0.rating > 1)"
        let format = String(repeating: "NOT ", count: 2_000) + "rating > 1"
        for body in [parentheses, bangs] {
            let found = sites("let d = FetchDescriptor<Recipe>(predicate: #Predicate { \(body) })")
            #expect(found.count == 1)
            #expect(found.first?.untranslatedReason == reason)
        }
        // A chain of 2,000 is long, not deep (issue 39, F13): too large, with its terms.
        let chain = Array(repeating: "$0.rating > 1", count: 2_000).joined(separator: " && ")
        #expect(sites("let d = FetchDescriptor<Recipe>(predicate: #Predicate { \(chain) })").first?.untranslatedReason
                == "predicate too large (3,999 terms, limit 1,000)")
        let formatSites = sites("let r = NSFetchRequest<Recipe>(entityName: \"Recipe\")\nr.predicate = NSPredicate(format: \"\(format)\")")
        #expect(formatSites.first?.untranslatedReason == reason)
        let compound = String(repeating: "NSCompoundPredicate(notPredicateWithSubpredicate: ", count: 1_000) + "NSPredicate(format: \"rating > 1\")"
            + String(repeating: ")", count: 1_000)
        #expect(sites("let r = NSFetchRequest<Recipe>(entityName: \"Recipe\")\nr.predicate = \(compound)").first?.untranslatedReason == reason)
        // Below the bound, nesting is read.
        let shallow = String(repeating: "(", count: 490) + "$0.rating > 1" + String(repeating: ")", count: 490)
        #expect(sites("let d = FetchDescriptor<Recipe>(predicate: #Predicate { !!\(shallow) })").first?.sql?.hasSuffix("WHERE  NOT ( NOT ( t0.ZRATING > ?))") == true)
        // Nested interpolations are kept as written, whatever their depth, and lexing goes on after them.
        var nested = "x"
        for _ in 0..<50_000 { nested = "\"\\(" + nested + ")\"" }
        let tokens = SwiftLexer.tokenize("let s = " + nested + "\nlet t = 1")
        #expect(tokens.count == 8)
        #expect(tokens[3].kind == .string)
        #expect(tokens[3].text == String(nested.dropFirst().dropLast()))
        #expect(tokens.last?.text == "1")
        #expect(tokens.last?.line == 2)
        #expect(SwiftLexer.tokenize(##"f("a\(g(")", #"("#) + 1)b", 2)"##).map(\.text) == ["f", "(", ##"a\(g(")", #"("#) + 1)b"##, ",", "2", ")"])
    }

    // Regression: one folder named `*.swift` or one file that was not UTF-8 aborted the whole scan, and a
    // FIFO or device given directly was reported as a permission problem (or waited for ever).
    @Test("a folder walk skips a `*.swift` folder (walking into it), a FIFO and a Latin-1 file with a warning; UTF-16 with a BOM is read")
    func unexpectedEntries() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = directory.url.appendingPathComponent("App")
        let vendored = app.appendingPathComponent("SQLite.swift/Sources")
        try FileManager.default.createDirectory(at: vendored, withIntermediateDirectories: true)
        try Self.model.write(to: app.appendingPathComponent("Recipe.swift"), atomically: true, encoding: .utf8)
        try "let a = FetchDescriptor<Recipe>()\n".write(to: vendored.appendingPathComponent("V.swift"), atomically: true, encoding: .utf8)
        try Data("// caf\u{E9}\nlet b = FetchDescriptor<Recipe>()\n".utf8).write(to: app.appendingPathComponent("Bom8.swift"))
        var bom8 = Data([0xEF, 0xBB, 0xBF])
        bom8.append(try Data(contentsOf: app.appendingPathComponent("Bom8.swift")))
        try bom8.write(to: app.appendingPathComponent("Bom8.swift"))
        try "\nlet c = FetchDescriptor<Recipe>(sortBy: [SortDescriptor(\\.title)])\n".data(using: .utf16)!.write(to: app.appendingPathComponent("Wide.swift"))
        try "// caf\u{E9}\n".data(using: .isoLatin1)!.write(to: app.appendingPathComponent("Latin1.swift"))
        let fifo = app.appendingPathComponent("Pipe.swift").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let scan = try SourceScanner.scan(paths: [app.path])
        #expect(scan.sites.map(\.location) == ["Bom8.swift:2", "V.swift:1", "Wide.swift:2"])
        #expect(scan.sites.allSatisfy { $0.sql != nil })
        #expect(scan.warnings == [
            app.path + "/Latin1.swift: skipped (not UTF-8: 8-bit text such as Latin-1 (ISO 8859-1) or Windows-1252; save it as UTF-8)",
            app.path + "/Pipe.swift: skipped (not a regular file)",
        ])
        // Given directly, a path that cannot be read is an error with the real reason, without waiting.
        for path in [fifo, "/dev/zero"] {
            #expect(throws: SourceScanError.unreadable(path: path, reason: "not a regular file")) { try SourceScanner.scan(paths: [path]) }
        }
        #expect(throws: SourceScanError.unreadable(path: app.path + "/Latin1.swift",
                                                   reason: "not UTF-8: 8-bit text such as Latin-1 (ISO 8859-1) or Windows-1252; save it as UTF-8")) {
            try SourceScanner.scan(paths: [app.path + "/Latin1.swift"])
        }
    }

    // Regression: `--source app --source app/Views --source ./app/Views/RecipeList.swift` read RecipeList.swift
    // three times and counted each of its sites three times.
    @Test("overlapping --source paths read each file once, named as first given")
    func overlappingPaths() throws {
        let fixture = SourceFetchTests.fixture
        let views = fixture.appendingPathComponent("Views")
        let once = try SourceScanner.scan(paths: [fixture.path])
        let overlapping = try SourceScanner.scan(paths: [fixture.path, views.path, views.path + "/../Views/./RecipeList.swift", fixture.path + "/"])
        #expect(overlapping.files == once.files)
        #expect(overlapping.sites.map(\.location) == once.sites.map(\.location))
        #expect(SourceWorkload.merge(overlapping, into: nil).analysedStatements.count == 12)
        // The folder given second still adds the files the first did not hold.
        let viewsFirst = try SourceScanner.scan(paths: [views.appendingPathComponent("RecipeList.swift").path, fixture.path])
        #expect(viewsFirst.files.count == once.files.count)
        #expect(viewsFirst.files.first == views.appendingPathComponent("RecipeList.swift").path)
    }
}
extension SourceRobustnessTests {
    @Test("a computed fetchOffset is noted on the site, like a computed fetchLimit, and left out of the SQL")
    func computedOffset() {
        let bodies = [
            "var d = FetchDescriptor<Recipe>()\n    d.fetchLimit = 20\n    d.fetchOffset = page * 20\n    _ = try context.fetch(d)",
            "let r = NSFetchRequest<Recipe>(entityName: \"Recipe\")\n    r.fetchLimit = 20\n    r.fetchOffset = page * 20\n    _ = try context.fetch(r)",
            "var d = FetchDescriptor<Recipe>()\n    d.fetchLimit = 20\n    d.fetchOffset = page * 20\n    _recipes = Query(d)",
        ]
        for body in bodies {
            let found = sites("func load(_ context: ModelContext, page: Int) throws {\n    \(body)\n}")
            #expect(found.count == 1)
            #expect(found.first?.sql?.hasSuffix("FROM ZRECIPE t0  LIMIT 20") == true, "\(body)")
            #expect(found.first?.notes == ["fetchOffset is set to `page * 20`, not a literal: translated without it"], "\(body)")
        }
    }
}

extension SourceRobustnessTests {
    // Regressions: `"\u{0}"` was bound as the text "u{0}"; `-9223372036854775808` became a real; `===`
    // against nil was reported as "ordered against nil".
    @Test("string escapes are decoded, Int64.min is an integer, an identity comparison is named as such")
    func literalNits() {
        let escapes = sites(#"let d = FetchDescriptor<Recipe>(predicate: #Predicate { $0.title == "\u{0}a\u{1F600}\r\n\t\"\\\0" })"#)
        #expect(escapes.first?.bindings == [.text("\u{0}a\u{1F600}\r\n\t\"\\\u{0}")])
        #expect(SwiftLexer.tokenize(#""\u{zz}""#).first?.text == "u{zz}")
        let minimum = sites("let d = FetchDescriptor<Recipe>(predicate: #Predicate { $0.rating > -9223372036854775808 && $0.rating < -1_000 })")
        #expect(minimum.first?.bindings == [.integer(Int64.min), .integer(-1_000)])
        for op in ["===", "!=="] {
            let identity = sites("let d = FetchDescriptor<Recipe>(predicate: #Predicate { $0.rating \(op) nil })")
            #expect(identity.first?.untranslatedReason == "`\(op)` compares identity: an identity comparison is not translated")
        }
    }
}
