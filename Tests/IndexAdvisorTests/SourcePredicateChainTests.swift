import Testing
@testable import IndexAdvisor

/// `a AND b AND …` and `$0.a > 1 || …` are long, not deep: read at any length up to the term limit, Core
/// Data's nested SQL for them, and past the limit refused as too large with the whole count.
@Suite("Long AND/OR chains in predicates")
struct SourcePredicateChainTests {
    static let model = """
        import CoreData
        import SwiftData

        final class Invoice: NSManagedObject {
            @NSManaged var amount: Int64
            @NSManaged var status: Int16
            @NSManaged var customer: String
        }
        @Model final class Booking {
            var seats: Int
            var venue: String
        }
        """

    func sites(_ code: String) -> [FetchSite] {
        SourceScanner.scan([(path: "Model.swift", text: Self.model), (path: "Queries.swift", text: code)]).sites
    }

    /// A fetch request of invoices whose predicate is `format` with `arguments`.
    static func request(_ format: String, arguments: [String] = []) -> String {
        "let r = NSFetchRequest<Invoice>(entityName: \"Invoice\")\nr.predicate = NSPredicate(format: \"\(format)\""
            + arguments.map { ", " + $0 }.joined() + ")"
    }

    // Regression (issue 39, F13): each link of a chain was one more level, so a flat chain of 600 was
    // refused as "nested deeper than 500 levels".
    @Test("an OR chain of 450 comparisons in a format string: read, nested as Core Data prints it, each value bound")
    func longFormatChain() throws {
        let count = 450
        let format = Array(repeating: "amount >= %d", count: count).joined(separator: " OR ")
        let found = sites(Self.request(format, arguments: (0..<count).map(String.init)))
        let site = try #require(found.first)
        let sql = try #require(site.sql, "\(site.untranslatedReason ?? "")")
        let condition = String(repeating: "(", count: count - 1) + " t0.ZAMOUNT >= ?" + String(repeating: " OR  t0.ZAMOUNT >= ?)", count: count - 1)
        #expect(sql.hasSuffix("FROM ZINVOICE t0 WHERE " + condition))
        #expect(site.bindings == (0..<count).map { .integer(Int64($0)) })
        let node = try PredicateFormatParser.parse(format, arguments: (0..<count).map { .literal(.integer(Int64($0))) })
        #expect(node.terms == 2 * count - 1)
        guard case .chain(.or, let parts) = node else { Issue.record("not one chain: \(node)"); return }
        #expect(parts.count == count)
    }

    @Test("past 1,000 terms a flat chain is too large, with all its terms counted; 500 levels of parentheses are still too deep")
    func tooLargeNotTooDeep() {
        let chain = { (count: Int, joiner: String) in Array(repeating: "status != 3", count: count).joined(separator: joiner) }
        #expect(sites(Self.request(chain(700, " AND "))).first?.untranslatedReason == "predicate too large (1,399 terms, limit 1,000)")
        // Read on past the limit for the count only: 5,000 comparisons are 9,999 terms.
        #expect(sites(Self.request(chain(5_000, " && "))).first?.untranslatedReason == "predicate too large (9,999 terms, limit 1,000)")
        // 500 comparisons and 499 links: 999 terms, at the limit, translated.
        #expect(sites(Self.request(chain(500, " || "))).first?.sql?.contains("ZSTATUS <> ?") == true)
        let deep = String(repeating: "(status == 1 AND ", count: 501) + "status == 2" + String(repeating: ")", count: 501)
        #expect(sites(Self.request(deep)).first?.untranslatedReason == Untranslatable.tooDeep.reason)
    }

    @Test("mixed chains: AND binds tighter than OR, a TRUEPREDICATE link drops out, three links nest as before")
    func mixedChains() {
        let cases: [(format: String, condition: String)] = [
            ("amount > 1 AND status == 2 OR customer == 'x' AND amount < 9",
             "(( t0.ZAMOUNT > ? AND  t0.ZSTATUS = ?) OR ( t0.ZCUSTOMER = ? AND  t0.ZAMOUNT < ?))"),
            ("amount > 1 AND status == 2 AND customer != nil", "(( t0.ZAMOUNT > ? AND  t0.ZSTATUS = ?) AND  t0.ZCUSTOMER IS NOT NULL)"),
            ("TRUEPREDICATE AND amount > 1 AND status == 2", "( t0.ZAMOUNT > ? AND  t0.ZSTATUS = ?)"),
            ("NOT (amount > 1 OR status == 2 OR status == 3)", " NOT (( t0.ZAMOUNT > ? OR  t0.ZSTATUS = ?) OR  t0.ZSTATUS = ?)"),
        ]
        for (format, condition) in cases {
            #expect(sites(Self.request(format)).first?.sql?.hasSuffix("FROM ZINVOICE t0 WHERE " + condition) == true, "\(format)")
        }
    }

    @Test("a #Predicate chain of 300 `||` is read; of 800 `&&` is too large, not too deep")
    func swiftPredicateChains() throws {
        let short = Array(repeating: "$0.seats > 2", count: 300).joined(separator: " || ")
        let read = try #require(sites("let d = FetchDescriptor<Booking>(predicate: #Predicate { \(short) })").first)
        #expect(read.sql?.hasSuffix(String(repeating: "(", count: 299) + " t0.ZSEATS > ?" + String(repeating: " OR  t0.ZSEATS > ?)", count: 299)) == true)
        let long = Array(repeating: "$0.venue != \"hall\"", count: 800).joined(separator: " && ")
        #expect(sites("let d = FetchDescriptor<Booking>(predicate: #Predicate { \(long) })").first?.untranslatedReason
                == "predicate too large (1,599 terms, limit 1,000)")
    }
}
