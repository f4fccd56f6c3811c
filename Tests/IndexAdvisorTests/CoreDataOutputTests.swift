import Testing
import Foundation
@testable import IndexAdvisor

/// A Core Data app's advice in Core Data's terms: the birding store (``BirdingStore``) analysed, then mapped
/// with its `.xcdatamodeld` as `--model` maps it.
@Suite("Core Data apps get Core Data code")
struct CoreDataOutputTests {
    static let workload = """
        -- freq: 300
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZSPECIESCODE FROM ZRECORD t0 WHERE ( t0.Z_ENT = 4 AND  t0.ZEBIRDCHECKLISTID = 'S100500');
        -- freq: 80
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZHEADCOUNT FROM ZRECORD t0 WHERE ( t0.Z_ENT = 4 AND  t0.ZSPECIESCODE = 'sp47');
        """
    /// A fetch of the root entity by an identifier-like attribute: the audit proposes it unique.
    static let lookup = """
        -- freq: 300
        SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZRECORD t0 WHERE  t0.ZEXPORTKEY = 'x-500';
        """

    /// The store without the Site indexes the model declares (as a store made before the model gained them).
    static func analysed(_ workload: String = workload) throws -> (AnalysisResult, ModelSource) {
        let store = try BirdingStore.make()
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, format: .sql), options: quickOptions())
        return (result, try ModelSourceReader.read(paths: [BirdingStore.model.path]))
    }

    @Test("with the .xcdatamodeld: fetch indexes named as Core Data names them, the model's own fetch index marked declared, no #Index anywhere")
    func fetchIndexes() throws {
        let (analysed, model) = try Self.analysed()
        let result = ModelMapping.apply(model, to: analysed)
        #expect(result.model?.entities.first { $0.entity == "Sighting" }?.framework == .coreDataModel)
        let checklist = try #require(result.recommendations.first { $0.columns.map(\.name) == ["ZEBIRDCHECKLISTID"] })
        #expect(checklist.swiftDataIndex == nil)
        #expect(checklist.name == "Z_Sighting_byEBirdChecklistID")
        #expect(checklist.sql.contains(#""Z_Sighting_byEBirdChecklistID""#))
        #expect(checklist.fetchIndex == CoreDataFetchIndex(entity: "Sighting", name: "byEBirdChecklistID", elements: [.init(property: "eBirdChecklistID")]))
        // The model's bySpeciesCode, which the store lacks (made before the model gained it).
        let species = try #require(result.recommendations.first { $0.columns.map(\.name) == ["ZSPECIESCODE"] })
        #expect(species.declaredInModel == "Birding 2.xcdatamodel:38")

        let swift = checkedRender(result, .swift)
        for forbidden in ["#Index", "#Unique", "@Model", "VersionedSchema"] {
            #expect(!swift.contains(forbidden), "\(forbidden)")
        }
        #expect(swift.contains("// Key paths from the app's model: Birding 2.xcdatamodel (--model)."))
        #expect(swift.contains("// Core Data model (Birding 2.xcdatamodel): a fetch index or a uniqueness constraint changes the model. Add a new model version"))
        #expect(swift.contains("// Entity Sighting (Birding 2.xcdatamodel:32):"))
        #expect(swift.contains("//   Fetch index byEBirdChecklistID (Z_Sighting_byEBirdChecklistID in the store): select the entity Sighting, click and hold Add Entity and choose Add Fetch Index"))
        #expect(swift.contains("""
            //     <fetchIndex name="byEBirdChecklistID">
            //         <fetchIndexElement property="eBirdChecklistID" type="Binary" order="ascending"/>
            //     </fetchIndex>
            """))
        #expect(swift.contains("    if let entity = model.entitiesByName[\"Sighting\"] {\n        let byEBirdChecklistID = NSFetchIndexDescription(name: \"byEBirdChecklistID\", elements: [element(entity, \"eBirdChecklistID\")])\n        entity.indexes.append(byEBirdChecklistID)\n"))
        #expect(swift.contains("The fetch index bySpeciesCode is already declared at Birding 2.xcdatamodel:38; the store lacks it (Core Data leaves fetch indexes out of the version hashes"))
        let sql = checkedRender(result, .sql)
        #expect(sql.contains("-- Core Data store: adding an index changes the model. Declare each as a fetch index in a new version of the Core Data model"))
        #expect(!sql.contains("VersionedSchema"))
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("Core Data, in the model's entity `Sighting`: the fetch index `byEBirdChecklistID` on `eBirdChecklistID`, which Core Data names `Z_Sighting_byEBirdChecklistID` in the store"))
        #expect(!markdown.contains("@Model class Sighting"))
        let html = checkedRender(result, .html)
        #expect(html.contains("<h3>Core Data model</h3>"))
        #expect(!html.contains("<code>@Model class Sighting</code>"))
    }

    @Test("a proposed uniqueness rule on a Core Data entity is a uniqueness constraint, in the steps, the XML and the code")
    func uniquenessConstraint() throws {
        let (analysed, model) = try Self.analysed(Self.lookup)
        var result = ModelMapping.apply(model, to: analysed)
        let proposed = try #require(result.uniqueness.first { $0.columns == ["ZEXPORTKEY"] && $0.origin == .proposed })
        #expect(proposed.swiftDataUnique == nil)
        #expect(proposed.coreDataConstraint == ["exportKey"])
        #expect(proposed.coreDataEntity == "Record")
        let swift = checkedRender(result, .swift)
        #expect(swift.contains("//   Uniqueness constraint on exportKey: select the entity Record and, in the Data Model inspector's Constraints, add exportKey."))
        #expect(swift.contains("//     <uniquenessConstraints>\n//         <uniquenessConstraint>\n//             <constraint value=\"exportKey\"/>\n"))
        #expect(swift.contains("        entity.uniquenessConstraints.append([\"exportKey\"])"))
        // The constraint's unique index serves the lookup: no fetch index for it, and the migration leaves it out.
        #expect(swift.contains("No fetch index for Z_Record_byExportKey (ZEXPORTKEY): the uniqueness constraint on ZEXPORTKEY below"))
        #expect(checkedRender(result, .sql).contains("-- Left out: declare the uniqueness constraint (exportKey) of Record instead"))
        // A name edited into a report that is not an identifier never reaches the code.
        result.uniqueness[result.uniqueness.firstIndex { $0.coreDataConstraint != nil }!].coreDataConstraint = ["x\"); drop"]
        #expect(JSONReport.codeProblem(in: result)?.contains("coreDataConstraint holds a name that is not a Swift identifier") == true)
    }
}
