import Foundation
import Testing
@testable import IndexAdvisor

/// Pages read from outside SQLite's page cache, priced by the counters beyond as many as the cache holds.
@Suite("Counters: pages read from outside the page cache")
struct UncachedPageTests {
    @Test("a pass's misses beyond the cache's capacity, per execution, to two significant figures; none within it")
    func beyondCapacity() {
        #expect(StatementTimer.uncachedPages(misses: 400, cachePages: 500, executions: 1) == 0)
        #expect(StatementTimer.uncachedPages(misses: 500, cachePages: 500, executions: 3) == 0)
        #expect(StatementTimer.uncachedPages(misses: 97_099, cachePages: 500, executions: 1) == 97_000)
        #expect(StatementTimer.uncachedPages(misses: 3_036, cachePages: 500, executions: 2) == 1_250)
        #expect(StatementTimer.uncachedPages(misses: 512, cachePages: 500, executions: 4) == 3)
        #expect(StatementTimer.uncachedPages(misses: 10, cachePages: 0, executions: 0) == 0)
    }

    @Test("the prices add 1,000 ns a page read from outside the cache")
    func priced() {
        let counters = WorkCounters(vmSteps: 1_000, pageLookups: 100, uncachedPages: 40)
        #expect(abs(CounterCost.seconds(counters) - (1_000 * 50 + 100 * 250 + 40 * 1_000) / 1e9) < 1e-15)
    }
}
