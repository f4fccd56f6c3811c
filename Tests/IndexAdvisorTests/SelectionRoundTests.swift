import Testing
@testable import IndexAdvisor

/// The greedy selection's rules for one round, one by one (``SelectionRound``).
@Suite("Selection round rules")
struct SelectionRoundTests {
    /// A candidate serving statement 0 (weight 100) at `seconds` per execution with interquartile range `iqr`,
    /// scored against a current time of 1 ms; it adds `writes` seconds of writes.
    func scored(_ column: String, seconds: Double, iqr: Double = 0, writes: Double = 0) -> SelectionRound.Scored {
        let after = Timing.from(samples: [seconds - iqr / 2, seconds, seconds, seconds + iqr / 2], executionsPerRun: 1, rows: 1, failures: 0)
        let candidate = MeasuredCandidate(candidate: IndexCandidate(table: "t", columns: [IndexColumn(name: column)]), users: [0], writes: [],
                                          buildSeconds: 0.01, bytes: 4096, after: [0: after])
        var score = CandidateScore(changes: [], profiles: [])
        score.readSecondsSaved = (0.001 - seconds) * 100
        score.writeSecondsAdded = writes
        score.effects = [StatementEffect(statementID: "s", count: 100, before: Timing.from(samples: [0.001, 0.001, 0.001], executionsPerRun: 1, rows: 1, failures: 0),
                                         after: after, isSignificant: true)]
        return (candidate, score)
    }
    let round = SelectionRound(weights: [100], currentWrites: [nil], minimumBenefit: 0.001)

    @Test("two candidates within 10 % of each other's saving, neither measurably slower, are equal; 20 % apart they are not")
    func equality() {
        let a = scored("a", seconds: 0.000_100), b = scored("b", seconds: 0.000_105)
        #expect(round.isEqual(b, to: a))
        let slow = scored("c", seconds: 0.000_300)
        #expect(!round.isEqual(slow, to: a))
        #expect(round.isNear(slow, to: a, share: 0.75))
    }

    @Test("a saving below the minimum benefit is never near, however close")
    func minimumBenefit() {
        let strict = SelectionRound(weights: [100], currentWrites: [nil], minimumBenefit: 1)
        #expect(!strict.isNear(scored("a", seconds: 0.000_1), to: scored("b", seconds: 0.000_1), share: 0.9))
    }

    @Test("a candidate measurably faster on the leader's statements replaces it unless its extra writes are real")
    func dominance() {
        let leader = scored("a", seconds: 0.000_500)
        let faster = scored("b", seconds: 0.000_100)
        #expect(round.dominates(faster, leader))
        #expect(!round.dominates(leader, faster))
        let costly = scored("c", seconds: 0.000_100, writes: 1.0)
        #expect(!round.dominates(costly, leader))
        #expect(!round.dominates(leader, leader))
    }

    @Test("the spread is the frequency-weighted interquartile width of the users' timings")
    func spread() {
        let wide = scored("a", seconds: 0.000_5, iqr: 0.000_2)
        let width = wide.0.after[0]!.p75Seconds - wide.0.after[0]!.p25Seconds
        #expect(width > 0)
        #expect(abs(round.spread(wide) - width * 100) < 1e-12)
        #expect(round.spread(scored("b", seconds: 0.000_5)) == 0)
    }
}
