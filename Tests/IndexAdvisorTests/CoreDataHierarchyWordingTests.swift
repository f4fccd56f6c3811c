import Testing
import Foundation
@testable import IndexAdvisor

/// On a Core Data store whose entity hierarchy shares one table (``MediaStore``: `Book` and `Film` rows in
/// `ZMEDIA`), every format says the same of each recommended index (hostile round 6, F9): the plain one is
/// the fetch index to declare; the `Z_ENT`-led one is SQL only, for the same reason everywhere, with no key
/// path for `Z_ENT`, and the SQL migration's header does not tell to declare it.
@Suite("Core Data hierarchy wording across formats")
struct CoreDataHierarchyWordingTests {
    static let workload = """
        -- freq: 400
        SELECT t0.Z_ENT, t0.Z_PK FROM ZMEDIA t0 WHERE  t0.Z_ENT = 3 ORDER BY t0.ZADDEDAT DESC LIMIT 30;
        -- freq: 300
        SELECT t0.Z_ENT, t0.Z_PK, t0.ZTITLE FROM ZMEDIA t0 WHERE  t0.ZTITLE = 'Title 01234';
        -- freq: 50
        INSERT INTO ZMEDIA(Z_PK, Z_ENT, Z_OPT, ZRATING, ZRUNTIME, ZADDEDAT, ZTITLE) VALUES (45001, 3, 1, 4, 95, 740000000, 'New film');
        """

    static func analyze(_ workload: String = workload) throws -> AnalysisResult {
        let store = try MediaStore.make()
        let source = try ModelSourceReader.read(paths: [MediaStore.model.path])
        var options = quickOptions()
        options.coreDataEntities = ModelMapping.coreDataEntities(in: source)
        let analysed = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, format: .sql), options: options)
        return ModelMapping.apply(source, to: analysed)
    }

    /// The SQL-only sentence every format prints for the `Z_ENT`-led index on `ZMEDIA`.
    static let sqlOnly = "SQL only: Z_ENT, the column in which Core Data tells ZMEDIA's entities apart, is no property, so no fetch index can hold it (one declared on a sub-entity is built on the sub-entity's properties alone, without Z_ENT). Run its CREATE INDEX IF NOT EXISTS from the app each time the store opens, so that stores the app creates get it too: Core Data does not know an index its model lacks, and a migration that copies the table drops it."

    @Test("the Z_ENT-led index is SQL only and the plain one a fetch index, in JSON, SQL, Swift, Markdown and HTML alike; no key path for Z_ENT")
    func everyFormat() throws {
        let result = try Self.analyze()
        #expect(result.recommendations.map(\.name) == ["Z_Media_z_ent_addedAt", "Z_Media_byTitle"])
        let film = try #require(result.recommendations.first { $0.name == "Z_Media_z_ent_addedAt" })
        let title = try #require(result.recommendations.first { $0.name == "Z_Media_byTitle" })

        // JSON: Z_ENT has no key path, the model's names are not guesses, and each says what the model declares.
        let json = checkedRender(result, .json)
        let read = try JSONReport.decode(Data(json.utf8))
        let readFilm = try #require(read.recommendations.first { $0.name == film.name })
        #expect(readFilm.columns.map(\.name) == ["Z_ENT", "ZADDEDAT"])
        #expect(readFilm.columns.map(\.keyPath) == [nil, "\\.addedAt"])
        #expect(!readFilm.keyPathsAreGuessed && readFilm.fetchIndex == nil && readFilm.swiftDataIndex == nil)
        #expect(readFilm.entity == "Film")
        #expect(readFilm.modelDeclaration == Self.sqlOnly)
        let readTitle = try #require(read.recommendations.first { $0.name == title.name })
        #expect(readTitle.columns.map(\.keyPath) == ["\\.title"])
        #expect(readTitle.fetchIndex == CoreDataFetchIndex(entity: "Media", name: "byTitle", elements: [.init(property: "title")]))
        #expect(readTitle.modelDeclaration == "Core Data: declare the fetch index byTitle of Media in a new model version; Core Data names it Z_Media_byTitle in the store, as the SQL migration does.")
        #expect(!json.contains(#""\\\\.z_ent""#) && !json.contains("\"keyPath\" : \"\\\\.z"))

        // SQL: the header declares the plain one only and calls the other SQL only; each index's comment says the same.
        let sql = checkedRender(result, .sql)
        #expect(sql.contains("-- Core Data store: adding an index changes the model. Declare Z_Media_byTitle (the fetch index byTitle of Media) in a new version of the Core Data model (see --format swift: the model-editor steps, the contents XML and the NSFetchIndexDescription code), which lightweight migration or a mapping model carries existing stores to, so stores the app creates get it too; Core Data gives a fetch index that name in the store (Z_<Entity>_<name>). Z_Media_z_ent_addedAt is SQL only, since no model can declare it (the comment before each says why): run its CREATE INDEX IF NOT EXISTS from the app each time the store opens, so that stores the app creates get it too: Core Data does not know an index its model lacks, and a migration that copies the table drops it.\n"))
        #expect(!sql.contains("Declare each"))
        #expect(sql.contains("-- \(Self.sqlOnly)\n\(film.sql);\n"))
        #expect(sql.contains("-- Core Data: declare the fetch index byTitle of Media in a new model version; Core Data names it Z_Media_byTitle in the store, as the SQL migration does.\n\(title.sql);\n"))

        // Swift: the key paths are the model's (no "guesses" header), the Z_ENT-led one is SQL only, the plain one a fetch index.
        let swift = checkedRender(result, .swift)
        #expect(swift.contains("\n// Key paths from the app's model: Media.xcdatamodel (--model).\n"))
        #expect(!swift.contains("guess"))
        #expect(swift.contains("\n// Z_Media_z_ent_addedAt on ZMEDIA(Z_ENT, ZADDEDAT): \(Self.sqlOnly)\n"))
        #expect(swift.contains("//   Fetch index byTitle (Z_Media_byTitle in the store): select the entity Media, click and hold Add Entity and choose Add Fetch Index (also Editor ▸ Add Fetch Index), name it byTitle, and add its elements in order, each Binary: title (ascending)."))
        #expect(!swift.contains("z_ent\"") && !swift.contains("addedAt\")]"))

        // Markdown: the summary, each index's section and the code-to-paste intro say the same.
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("\n1. `\(film.sql)` (SQL only): saves "))
        #expect(markdown.contains("\n2. `fetch index byTitle on Media(title)`: saves "))
        #expect(markdown.contains("\n\(MarkdownReport.text(Self.sqlOnly))\n"))
        #expect(markdown.contains("Core Data, in the model's entity `Media`: the fetch index `byTitle` on `title`, which Core Data names `Z_Media_byTitle` in the store, as the SQL above does;"))
        #expect(markdown.contains("Core Data (`--format swift`): adding a fetch index changes the model, so declare it in a new model version; `Z_Media_z_ent_addedAt` is SQL only, since no model can declare it (see its section); building takes"))

        // HTML: the same sentences.
        let html = checkedRender(result, .html)
        #expect(html.contains("<code>ZMEDIA(Z_ENT, ZADDEDAT)</code></a> (SQL only): saves "))
        #expect(html.contains("<p>\(HTMLText.escape(Self.sqlOnly))</p>"))
        #expect(html.contains("<p>Core Data, in the model’s entity <code>Media</code>: the fetch index <code>byTitle</code> on title, which Core Data names <code>Z_Media_byTitle</code> in the store"))
        #expect(html.contains("<p>Z_Media_z_ent_addedAt is SQL only: no model can declare it (see its section).</p>"))

        for (format, text) in [("swift", swift), ("markdown", markdown), ("html", html), ("sql", sql)] {
            #expect(!text.contains("\\.z_ent"), "\(format)")
        }
    }

    @Test("render --check catches a key path for Z_ENT, a fetch index holding it or naming no property, key paths marked guessed that the model gives, and an SQL header that tells to declare each")
    func checkerCatchesDisagreement() throws {
        let result = try Self.analyze()
        let kinds = { (result: AnalysisResult) in ReportChecker().check(result).filter { $0.kind == .declarationAgainstFormats }.map(\.message) }
        #expect(kinds(result).isEmpty)

        var keyPath = result
        keyPath.recommendations[0].columns[0].keyPath = "\\.z_ent"
        #expect(kinds(keyPath) == ["index 1 (Z_Media_z_ent_addedAt): Z_ENT, a column Core Data keeps for itself, has the key path \\.z_ent, but it is no property"])

        var declared = result
        declared.recommendations[0].fetchIndex = CoreDataFetchIndex(entity: "Film", name: "byAddedAt", elements: [.init(property: "addedAt")])
        #expect(kinds(declared).contains("index 1 (Z_Media_z_ent_addedAt): it is declared as the fetch index byAddedAt, which cannot hold Z_ENT"))

        var stranger = result
        stranger.recommendations[1].fetchIndex = CoreDataFetchIndex(entity: "Media", name: "byShelfmark", elements: [.init(property: "shelfmark")])
        #expect(kinds(stranger) == ["index 2 (Z_Media_byTitle): its fetch index byShelfmark names shelfmark, which is no property of the model on ZMEDIA"])

        var guessed = result
        guessed.recommendations[1].keyPathsAreGuessed = true
        #expect(kinds(guessed) == ["index 2 (Z_Media_byTitle): its key paths are marked guessed, but the model gives every one of them"])

        // The header and comments of an older migration, which told to declare each as a fetch index.
        let sql = SQLReport.render(result)
        let old = sql.replacingOccurrences(of: "Declare Z_Media_byTitle (the fetch index byTitle of Media)", with: "Declare each as a fetch index")
            .replacingOccurrences(of: "-- \(Self.sqlOnly)\n", with: "")
        let findings = ReportChecker().checkModelDeclarations(result, markdown: MarkdownReport.render(result), sql: old, swift: SwiftReport.render(result))
        #expect(findings.map(\.message) == [
            "index 1 (Z_Media_z_ent_addedAt): the SQL migration does not say it is SQL only, as the other formats do",
            "index 1 (Z_Media_z_ent_addedAt): the SQL migration's header tells to declare each index in the model, but no model can declare this one",
        ])
    }

    @Test("a column no property of the model maps to: the Swift header names that key path and its column as the guess, and its index is SQL only for that reason")
    func guessedKeyPathNamed() throws {
        let result = try Self.analyze("""
            -- freq: 300
            SELECT t0.Z_ENT, t0.Z_PK FROM ZMEDIA t0 WHERE  t0.ZSHELFMARK = 'S-17';
            -- freq: 300
            SELECT t0.Z_ENT, t0.Z_PK, t0.ZTITLE FROM ZMEDIA t0 WHERE  t0.ZTITLE = 'Title 00777';
            """)
        let names = result.recommendations.map(\.name)
        #expect(names.count == 2, "\(names)")
        let shelf = try #require(result.recommendations.first { $0.columns.map(\.name) == ["ZSHELFMARK"] })
        #expect(shelf.keyPathsAreGuessed)
        let keyPath = try #require(shelf.columns[0].keyPath)
        let swift = checkedRender(result, .swift)
        #expect(swift.contains("\n// Key paths from the app's model: Media.xcdatamodel (--model), except these, which no class or property of the model matched and are guessed from the column names: on ZMEDIA, \(keyPath) (ZSHELFMARK); check them against your Core Data model.\n"))
        let reason = "SQL only: no property of the model maps to ZSHELFMARK, so no fetch index can name it."
        #expect(result.sqlOnlyText(for: shelf)?.hasPrefix(reason) == true)
        #expect(swift.contains("// \(shelf.name) on ZMEDIA(ZSHELFMARK): \(reason)"))
        #expect(checkedRender(result, .sql).contains("-- \(reason)"))
        #expect(checkedRender(result, .markdown).contains(MarkdownReport.text(reason)))
        // The plain fetch index on title is the model's, no guess.
        let title = try #require(result.recommendations.first { $0.columns.map(\.name) == ["ZTITLE"] })
        #expect(!title.keyPathsAreGuessed && title.fetchIndex?.name == "byTitle")
    }
}
