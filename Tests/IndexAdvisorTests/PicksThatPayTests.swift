import Testing
@testable import IndexAdvisor

/// The picks the report's own figures pay for (hostile round 4, issue 39, F1 and F3): a pick that no final plan
/// uses, or whose printed reads saved do not exceed its writes added, is given up and the rest measured again.
@Suite("A pick the printed figures do not pay for is given up")
struct PicksThatPayTests {
    @Test("every pick pays: none is given up")
    func allPay() {
        #expect(AnalysisRun.unpaidPick(names: ["a", "b"], nets: [0.120, 0.004], carriers: [0, 1], used: ["a", "b"]) == nil)
    }

    @Test("the last pick no final plan uses goes first, whatever the others' figures")
    func unusedFirst() throws {
        let found = try #require(AnalysisRun.unpaidPick(names: ["idx_a", "IDX_B", "idx_c"], nets: [-0.5, 0.2, 0.1], carriers: [0, 1, 2],
                                                        used: ["idx_b"]))
        #expect(found.offset == 2)
        #expect(found.isUnused)
    }

    @Test("of the picks at a loss (a net of zero included), the one that loses most; on a tie, the later")
    func worstLoss() throws {
        // F1's figures: "saves 52.7 ms of reads, adds 76.9 ms of writes"; F3a's: a loss of 136 s.
        let names = ["idx_payload", "idx_city", "idx_due"]
        let found = try #require(AnalysisRun.unpaidPick(names: names, nets: [0.0527 - 0.0769, -136.3, 0.9], carriers: [0, 1, 2], used: Set(names)))
        #expect(found.offset == 1)
        #expect(!found.isUnused)
        #expect(AnalysisRun.unpaidPick(names: ["x", "y"], nets: [0, 0], carriers: [0, 1], used: ["x", "y"])?.offset == 1)
        #expect(AnalysisRun.unpaidPick(names: ["x"], nets: [0], carriers: [0], used: ["x"])?.offset == 0)
    }

    @Test("a join's set counts as one: a member alone at a loss stays while the set pays; a set at a loss goes by its carrier")
    func joinSets() throws {
        // idx_m is kept for the join idx_l completes: alone −30 ms, idx_l +80 ms.
        #expect(AnalysisRun.unpaidPick(names: ["idx_m", "idx_l"], nets: [-0.030, 0.080], carriers: [1, 1], used: ["idx_m", "idx_l"]) == nil)
        let found = try #require(AnalysisRun.unpaidPick(names: ["idx_m", "idx_l", "idx_z"], nets: [-0.090, 0.080, 0.5], carriers: [1, 1, 2],
                                                        used: ["idx_m", "idx_l", "idx_z"]))
        #expect(found.offset == 1)
        #expect(!found.isUnused)
    }
}
