import Testing
import Foundation
@testable import IndexAdvisor

/// Key paths in the model's case without `--model`: from the model the store caches (Z_MODELCACHE), on the
/// birding store (``BirdingStore``), whose `eBirdChecklistID` no guess from `ZEBIRDCHECKLISTID` spells right.
@Suite("Names from the store's own model")
struct CoreDataNamesTests {
    static let workload = """
        -- freq: 300
        SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZSPECIESCODE FROM ZRECORD t0 WHERE ( t0.Z_ENT = 4 AND  t0.ZEBIRDCHECKLISTID = 'S100500');
        """

    @Test("without --model the names come from Z_MODELCACHE, exact, and the result says so; without the cache they are guesses")
    func fromTheCache() throws {
        let store = try BirdingStore.make()
        let analysed = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(Self.workload, format: .sql), options: quickOptions())
        #expect(analysed.store.cachedModel?.model?.entities.count == 5)
        let pick = try #require(analysed.recommendations.first)
        #expect(pick.columns.map(\.name) == ["ZEBIRDCHECKLISTID"])
        #expect(pick.columns.map(\.keyPath) == ["\\.eBirdChecklistID"])
        #expect(!pick.keyPathsAreGuessed)
        let result = ModelMapping.applyStoreModel(to: analysed)
        #expect(result.model?.option == "Z_MODELCACHE")
        #expect(result.model?.files == ["Z_MODELCACHE"])
        #expect(result.model?.entities.map(\.entity) == ["Observer", "Record", "FieldNote", "Sighting", "Site"])
        #expect(result.model?.entities.allSatisfy { $0.framework == .storeModel } == true)
        // A --model given wins over the cache.
        #expect(ModelMapping.applyStoreModel(to: ModelMapping.apply(try ModelSourceReader.read(paths: [BirdingStore.model.path]), to: analysed)).model?.option == nil)

        let bare = try BirdingStore.make(cachesModel: false)
        let guessed = try Advisor.analyze(storeAt: bare.url, workload: WorkloadLoader.parse(Self.workload, format: .sql), options: quickOptions())
        #expect(guessed.store.cachedModel?.model == nil)
        #expect(guessed.recommendations.first?.keyPathsAreGuessed == true)
        #expect(guessed.recommendations.first?.columns.first?.keyPath != "\\.eBirdChecklistID")
        #expect(ModelMapping.applyStoreModel(to: guessed).model == nil)
    }
}
