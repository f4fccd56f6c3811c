import Foundation

/// What our advice must stay on the quick benchmark's fixed seed, for CI: per store, each recommended
/// index by its table and leading column (so that a covering or a sort column that wins a near tie on one
/// run and not the next does not fail a build), and each drop. A change here is a change in advice: look at
/// why before updating it.
enum ExpectedAdvice {
    /// `indexadvisor-bench --quick` with the default seed (7), our advice decided on SQLite's counters.
    /// notes: the folder+slug lookup's index leads with the slug (the more selective equality column);
    /// on wall-clock times (slug, folder) and (folder, slug) swapped from run to run.
    static let quick: [String: [String]] = [
        "notes": ["DROP Z_Note_title", "ZNOTE.ZFOLDERID", "ZNOTE.ZFOLDERID", "ZNOTE.ZREMOTEID", "ZNOTE.ZSLUG"],
        "recordings": ["recording.isStarred", "recording.recordedAt", "recording.recordingID", "recording.venue"],
        "shop": ["customer.email", "order_item.orderID", "orders.customerID", "orders.status"],
        "events": [],
    ]

    /// `table.leadingColumn` for a recommendation key (`table (a, b)`), or the key itself for a drop.
    static func leading(_ key: String) -> String {
        guard !key.hasPrefix("DROP "), let open = key.firstIndex(of: "(") else { return key }
        let table = key[..<open].trimmingCharacters(in: .whitespaces)
        let rest = key[key.index(after: open)...]
        let column = rest.prefix { $0 != "," && $0 != ")" }.split(separator: " ").first.map(String.init) ?? ""
        return "\(table).\(column)"
    }

    /// The differences between `recommendations` and what is expected for `store`, or nil when they match
    /// or nothing is expected for it.
    static func difference(store: String, recommendations: [String], expected: [String: [String]]) -> String? {
        guard let wanted = expected[store] else { return nil }
        let got = recommendations.map(leading).sorted()
        guard got != wanted.sorted() else { return nil }
        return "\(store): the advice changed on the fixed seed: expected \(wanted.sorted()), got \(got) (\(recommendations.joined(separator: "; ")))"
    }
}
