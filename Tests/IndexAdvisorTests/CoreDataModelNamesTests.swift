import Testing
import Foundation
@testable import IndexAdvisor

/// Core Data names for a Core Data app (issue 41, item 2), on the recipe store (``RecipeStore``): the
/// fetch indexes the advice drops are removed from the model too, a mapping applied twice keeps its names,
/// a store whose indexes Core Data named gets Core Data's names without a model (and the spelling its index
/// names give), and a partial index's figures are for the rows it holds.
@Suite("Core Data names for a Core Data app")
struct CoreDataModelNamesTests {
    static let workload = """
        -- freq: 200
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZLASTMADEON FROM ZRECIPE t0 WHERE  t0.ZCOURSESTATE = 1 ORDER BY t0.ZLASTMADEON DESC, t0.ZTITLE;
        -- freq: 60
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZRECIPE t0 WHERE  t0.ZPINNEDAT IS NOT NULL;
        -- freq: 100
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZRECIPE t0 WHERE  t0.ZEAN13 = '4000000012345' LIMIT 1;
        -- freq: 120
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZRECIPE t0 WHERE  t0.ZCOURSESTATE = 2 ORDER BY t0.ZLASTMADEON, t0.ZTITLE;
        -- freq: 150
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZEAN13 FROM ZRECIPE t0 WHERE  t0.ZCOOKBOOK = 7 ORDER BY t0.ZEAN13;
        -- freq: 300
        UPDATE ZRECIPE SET ZTITLE = 'Recipe renamed', Z_OPT = 2 WHERE Z_PK = 1717 AND Z_OPT = 1;
        -- freq: 100
        INSERT INTO ZRECIPE(Z_PK, Z_ENT, Z_OPT, ZCOURSESTATE, ZSERVINGS, ZSTEPCOUNT, ZCOOKBOOK, ZTITLE) VALUES (40001, 2, 1, 1, 4, 9, 7, 'New recipe');
        """

    static func analyze(cachesModel: Bool = false, withModel: Bool) throws -> (AnalysisResult, ModelSource) {
        let store = try RecipeStore.make(cachesModel: cachesModel)
        let source = try ModelSourceReader.read(paths: [RecipeStore.model.path])
        var options = quickOptions()
        if withModel { options.coreDataEntities = ModelMapping.coreDataEntities(in: source) }
        let analysed = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(Self.workload, format: .sql), options: options)
        return (withModel ? ModelMapping.apply(source, to: analysed) : analysed, source)
    }

    @Test("a fetch index the advice drops is removed from the model in every format; Core Data's own index stays, and no model index is dropped by SQL alone")
    func removalFromModel() throws {
        let (result, _) = try Self.analyze(withModel: true)
        let dropped = result.indexesToDrop.map(\.index)
        #expect(dropped.contains("Z_Recipe_byCourseTitle") && dropped.contains("Z_Recipe_sourceURL"), "\(dropped)")
        // Core Data's index for the to-one relationship is never dropped, and has no removal step.
        #expect(!dropped.contains("ZRECIPE_ZCOOKBOOK_INDEX"))
        #expect(result.existingIndexes.first { $0.index == "ZRECIPE_ZCOOKBOOK_INDEX" }?.caveats == [.ownedByCoreData])
        #expect(result.modelStoreIndex(named: "ZRECIPE_ZCOOKBOOK_INDEX") == nil)
        // Every index the migration drops that the model declares has its removal; here every drop is one.
        let removals = result.modelIndexesToRemove
        #expect(removals.map(\.storeName) == dropped)
        let title = try #require(removals.first { $0.name == "byCourseTitle" })
        #expect(title == ModelStoreIndex(storeName: "Z_Recipe_byCourseTitle", entity: "Recipe", name: "byCourseTitle", kind: nil,
                                         elements: [.init(property: "courseState"), .init(property: "title")], declaredAt: "Recipes 3.xcdatamodel:20"))
        #expect(removals.first { $0.storeName == "Z_Recipe_sourceURL" }?.kind == .indexedAttribute)

        let swift = checkedRender(result, .swift)
        #expect(swift.contains("//   Remove fetch index byCourseTitle (Z_Recipe_byCourseTitle in the store, declared at Recipes 3.xcdatamodel:20), which the SQL migration drops: in the editor's outline, under the entity Recipe, select the fetch index byCourseTitle and press Delete."))
        #expect(swift.contains("//   Remove the Indexed flag of the attribute sourceURL (Z_Recipe_sourceURL in the store, declared at Recipes 3.xcdatamodel:13), which the SQL migration drops: select the attribute sourceURL of the entity Recipe and, in the Data Model inspector, clear Indexed."))
        #expect(swift.contains("//     delete <fetchIndex name=\"byCourseTitle\"> … </fetchIndex> (Recipes 3.xcdatamodel:20)"))
        #expect(swift.contains("//     delete indexed=\"YES\" from <attribute name=\"sourceURL\" …> (Recipes 3.xcdatamodel:13)"))
        #expect(swift.contains("// A fetch index the version removes is not migrated away either: existing stores keep it until the DROP"))
        // In code, fetch indexes leave `indexes` by name; the Indexed flag is the editor's to clear.
        let codeLine = try #require(swift.split(separator: "\n").first { $0.contains("entity.indexes.removeAll") })
        #expect(codeLine.contains("\"byCourseTitle\"") && !codeLine.contains("sourceURL"))
        #expect(!swift.contains("ZRECIPE_ZCOOKBOOK_INDEX"))

        let sql = checkedRender(result, .sql)
        #expect(sql.contains("""
            DROP INDEX IF EXISTS "Z_Recipe_byCourseTitle";
            -- Core Data (declared at Recipes 3.xcdatamodel:20): remove the fetch index byCourseTitle from the entity Recipe in the new model version as well (--format swift gives the steps), or every store the app creates from the model gets it again.
            """))
        #expect(sql.contains("-- Core Data (declared at Recipes 3.xcdatamodel:13): clear Indexed on the attribute sourceURL of the entity Recipe in the new model version as well"))
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("`DROP INDEX IF EXISTS \"Z_Recipe_byCourseTitle\"`; and remove the fetch index byCourseTitle from the entity Recipe in the new model version |"))
        #expect(markdown.contains("`Z_Recipe_byCourseTitle` (fetch index `byCourseTitle` of `Recipe`)"))
        #expect(markdown.contains("the model's own: remove them from the entity in the new model version too"))
        #expect(markdown.contains(", and remove there the fetch indexes the migration drops"))
        let html = checkedRender(result, .html)
        #expect(html.contains("; and remove the fetch index byCourseTitle from the entity Recipe in the new model version</td>"))
        #expect(html.contains("Remove there the fetch indexes the migration drops, too"))
    }

    @Test("a model mapping applied again, as render --model does to what analyze --model wrote, keeps every name")
    func mappingTwice() throws {
        let (result, source) = try Self.analyze(withModel: true)
        let names = result.recommendations.map(\.name)
        // The descending fetch index and the ascending one on the same properties (named alike, so numbered).
        #expect(names.contains("Z_Recipe_byCourseStateLastMadeOnTitle") && names.contains("Z_Recipe_byCourseStateLastMadeOnTitle2"), "\(names)")
        let descending = try #require(result.recommendations.first { $0.columns.contains(where: \.isDescending) })
        #expect(descending.name == "Z_Recipe_byCourseStateLastMadeOnTitle")
        #expect(descending.fetchIndex?.name == "byCourseStateLastMadeOnTitle")

        let again = ModelMapping.apply(source, to: result)
        #expect(again.recommendations.map(\.name) == names)
        #expect(again.recommendations.map(\.sql) == result.recommendations.map(\.sql))
        #expect(again.recommendations.map(\.fetchIndex) == result.recommendations.map(\.fetchIndex))
        // Through the JSON report, as `render REPORT.json --model` reads it.
        let decoded = try JSONDecoder().decode(AnalysisResult.self, from: Data(JSONReport.render(result).utf8))
        let rendered = ModelMapping.apply(source, to: decoded)
        #expect(rendered.recommendations.map(\.name) == names)
        // The Swift of one names the indexes the SQL of the other builds.
        let sql = checkedRender(result, .sql)
        for index in rendered.recommendations.compactMap(\.fetchIndex) {
            #expect(sql.contains("CREATE INDEX IF NOT EXISTS \"\(index.storeIndexName)\""), "\(index.storeIndexName)")
        }
        #expect(!checkedRender(rendered, .swift).contains("Title3"))
    }

    @Test("without a model, a store whose fetch indexes Core Data named gets Core Data's names, the spellings its index names give, and says where each came from")
    func coreDataStoreWithoutModel() throws {
        let (bare, source) = try Self.analyze(withModel: false)
        #expect(bare.store.indexConvention?.framework == .coreData)
        #expect(bare.store.indexConvention?.evidence.first == "Z_Recipe_byCourseTitle")
        #expect(bare.isCoreDataEntity("Recipe") && !bare.isSwiftDataEntity("Recipe"))
        let names = bare.recommendations.map(\.name) + (bare.alternatives ?? []).map(\.name)
        #expect(!names.isEmpty && names.allSatisfy { $0.hasPrefix("Z_Recipe_by") }, "\(names)")
        #expect(!names.contains { $0.contains("SwiftDataIndexOnBinary") })
        #expect(bare.recommendations.first?.columns.compactMap(\.keyPath) == ["\\.courseState", "\\.lastMadeOn", "\\.title"])

        let swift = checkedRender(bare, .swift)
        for forbidden in ["#Index", "@Model", "VersionedSchema", "SwiftDataIndexOnBinary"] {
            #expect(!swift.contains(forbidden), "\(forbidden)")
        }
        #expect(swift.contains("// Key paths recovered from the store, as the store's index names spell them: ean13 (Z_Recipe_ean); guessed from its column names: courseState, lastMadeOn, title, pinnedAt; check the guesses against your Core Data model, or pass it with --model."))
        #expect(swift.contains("//   Fetch index byCourseStateLastMadeOnTitle (Z_Recipe_byCourseStateLastMadeOnTitle in the store)"))
        // The drops the store's names say are fetch indexes: removed from the model, if it declares them.
        #expect(swift.contains("//   Remove fetch index byCourseTitle (Z_Recipe_byCourseTitle in the store, as Core Data names it; if your model declares it), which the SQL migration drops"))
        #expect(checkedRender(bare, .sql).contains("-- Core Data: if your model declares the fetch index byCourseTitle of Recipe (the index's name says so), remove the fetch index byCourseTitle from the entity Recipe in the new model version as well"))

        // A proposed uniqueness rule is the entity's uniqueness constraint, spelled as the index Z_Recipe_ean spells it.
        let ean = try #require(bare.uniqueness.first { $0.columns == ["ZEAN13"] })
        #expect(ean.coreDataConstraint == ["ean13"] && ean.coreDataEntity == "Recipe" && ean.swiftDataUnique == nil)
        #expect(bare.store.keyPathSpellings?.contains(KeyPathSpelling(table: "ZRECIPE", column: "ZEAN13", property: "ean13", source: "Z_Recipe_ean")) == true)
        #expect(swift.contains("as the store's index names spell them: ean13 (Z_Recipe_ean)"))
        #expect(swift.contains("//   Uniqueness constraint on ean13: select the entity Recipe and, in the Data Model inspector's Constraints, add ean13."))
        // An alternative says why it is beside the set, and nothing of SwiftData, also read back from JSON.
        let markdown = checkedRender(bare, .markdown)
        #expect(!markdown.contains("SwiftData"), "\(markdown.split(separator: "\n").filter { $0.contains("SwiftData") })")
        #expect(markdown.contains("Core Data store (its index names are Core Data's: Z_Recipe_byCourseTitle, Z_Recipe_search, Z_Recipe_sortLastMade)"))
        #expect(markdown.contains("It is beside the set, not in it, because no model read says Recipe is a Core Data entity"))
        let decoded = try JSONDecoder().decode(AnalysisResult.self, from: Data(JSONReport.render(bare).utf8))
        #expect(!MarkdownReport.render(decoded).contains("SwiftData's #Index"))

        // The model given afterwards (render --model) keeps the names and makes the key paths the model's.
        let mapped = ModelMapping.apply(source, to: bare)
        #expect(mapped.recommendations.map(\.name) == bare.recommendations.map(\.name))
        #expect(mapped.recommendations.allSatisfy { !$0.keyPathsAreGuessed })
        #expect(mapped.recommendations.first?.fetchIndex?.name == "byCourseStateLastMadeOnTitle")
        #expect(mapped.uniqueness.first { $0.columns == ["ZEAN13"] }?.coreDataConstraint == ["ean13"])
    }

    @Test("the store's index names spell key paths, a tail without case included, and teach the guesser their words")
    func spellingsFromIndexNames() throws {
        let store = try RecipeStore.make()
        let schema = try SchemaReader.read(from: SQLiteConnection(path: store.url.path, mode: .readOnly))
        let naming = SwiftDataNaming(schema: schema)
        // `ean` names the index on ZEAN13: the digits have no case, so it spells `ean13`.
        #expect(naming.propertyName(forColumn: "ZEAN13") == ("ean13", false))
        #expect(naming.source(forColumn: "ZEAN13") == "Z_Recipe_ean")
        #expect(naming.propertyName(forColumn: "ZSOURCEURL") == ("sourceURL", false))
        #expect(naming.source(forColumn: "ZSOURCEURL") == "Z_Recipe_sourceURL")
        // `sortLastMade` teaches `made`: a guess still, in the model's case.
        #expect(naming.propertyName(forColumn: "ZLASTMADEON") == ("lastMadeOn", true))
        #expect(naming.source(forColumn: "ZLASTMADEON") == nil)
        #expect(SwiftDataNaming.camelCase("LASTMADEON") == "lastMadeon")
        // An ending after a known word once short words are merged: `track` + `in` + `g`.
        #expect(SwiftDataNaming.camelCase("LASTTRACKING") == "lastTracking")
        #expect(SwiftDataNaming.camelCase("PLAYEDSORTING") == "playedSorting")
        #expect(SwiftDataNaming.words(of: "byRegionAndName") == ["region", "and", "name"])
    }

    @Test("the store's index names tell Core Data from SwiftData; names made of their columns, uniqueness constraints and Core Data's own indexes tell nothing")
    func conventions() {
        let entities = [(name: "Trail", table: "ZTRAIL")]
        func read(_ indexes: [(String, [String])]) -> StoreIndexConvention? {
            StoreIndexConvention.read(indexes: indexes.map { (name: $0.0, table: "ZTRAIL", columns: $0.1) }, entities: entities)
        }
        #expect(read([("Z_Trail_byRegion", ["ZREGIONCODE"])]) == StoreIndexConvention(framework: .coreData, evidence: ["Z_Trail_byRegion"]))
        #expect(read([("Z_Trail_SwiftDataIndexOnBinarylengthKm", ["ZLENGTHKM"])])?.framework == .swiftData)
        #expect(read([("Z_Trail_byRegion", ["ZREGIONCODE"]), ("Z_Trail_SwiftDataIndexOnBinarylengthKm", ["ZLENGTHKM"])]) == nil)
        // Named after their columns (as this tool names SQL-only indexes), or Core Data's own and a constraint's.
        #expect(read([("Z_Trail_lengthKm_regionCode_partial", ["ZLENGTHKM", "ZREGIONCODE"]), ("Z_Trail_byLengthKm2", ["ZLENGTHKM"]),
                      ("Z_Trail_UNIQUE_slug", ["ZSLUG"]), ("ZTRAIL_ZREGION_INDEX", ["ZREGION"])]) == nil)
        #expect(StoreIndexConvention.isNamedAfterColumns("byLengthKmPartial", columns: ["ZLENGTHKM"]))
        #expect(!StoreIndexConvention.isNamedAfterColumns("lengthIndex", columns: ["ZLENGTHKM"]))
    }

    @Test("a partial index's cardinality and churn are for the rows it holds")
    func partialFigures() throws {
        let (result, _) = try Self.analyze(withModel: true)
        let partial = try #require(result.recommendations.first { $0.partialPredicate != nil })
        #expect(partial.name == "Z_Recipe_byPinnedAtPartial")
        let statistics = try #require(partial.columnStatistics.first)
        // 40,000 recipes, one in 400 pinned.
        #expect(statistics.sampledRows == 100)
        #expect(statistics.distinctValues == 100)
        #expect(statistics.rowFilter == "\"ZPINNEDAT\" IS NOT NULL")
        #expect(checkedRender(result, .markdown).contains("- Cardinality (the 100 rows it holds of the table's 40,000, WHERE \"ZPINNEDAT\" IS NOT NULL): (ZPINNEDAT): 100 distinct, 0 % NULL"))
        let full = try #require(result.recommendations.first { $0.partialPredicate == nil })
        #expect(full.columnStatistics.first?.sampledRows == 40_000 && full.columnStatistics.first?.rowFilter == nil)
        let churn = ColumnChurn(column: "ZPINNEDAT", share: 0.4, table: "ZRECIPE", partialPredicate: "\"ZPINNEDAT\" IS NOT NULL")
        #expect(PickNote.churn(churn).text == "ZPINNEDAT changes on 40% of the writes to ZRECIPE (UPDATE … SET it), and each such write to a row this partial index holds (WHERE \"ZPINNEDAT\" IS NOT NULL) moves its entry in it: that cost is in the write time above.")
    }
}
