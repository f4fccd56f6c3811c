import Testing
import Foundation
@testable import IndexAdvisor

/// How to ship an alternative the model cannot declare, in words (issue 22), exactly as before.
@Suite("Shipping advice in words")
struct ShippingAdviceTests {
    @Test("a Core Data fetch index with its predicate, or SQL the app runs")
    func words() throws {
        let sql = "run its CREATE INDEX … IF NOT EXISTS from the app each time the store opens: Core Data does not know an index its model lacks, and a migration that copies the table drops it"
        #expect(ShippingAdvice.fetchIndex(properties: ["destructionDate"], predicate: "destructionDate != nil").text
                == "Core Data: a fetch index on destructionDate with partialIndexPredicate \"destructionDate != nil\" (NSFetchIndexDescription). SwiftData's #Index has no predicate: \(sql).")
        #expect(ShippingAdvice.sqlOnly.text == "No model can declare it: \(sql).")
        let data = try JSONEncoder().encode([ShippingAdvice.sqlOnly])
        #expect(try JSONDecoder().decode([String].self, from: data) == [ShippingAdvice.sqlOnly.text])
        #expect(try JSONDecoder().decode([ShippingAdvice].self, from: data) == [.other(ShippingAdvice.sqlOnly.text)])
    }
}
