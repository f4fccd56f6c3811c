/// A fetch as the source declares it, before translation: entity, filter, sort, limit. Built by
/// ``FetchSiteFinder`` from Swift tokens, turned into Core Data's SQL by ``CoreDataFetchSQL``.
struct FetchSpec: Equatable {
    /// The entity name as written (`Note`).
    var entity: String?
    var predicate: PredicateNode?
    var sort: [FetchSortTerm] = []
    var limit: Int?
    var offset: Int?
    var isCount = false
    /// `fetchBatchSize`: Core Data fetches the identifiers first (`SELECT t0.Z_ENT, t0.Z_PK …`), then each batch by key.
    var batchSize: Int?
    /// Set when part of the fetch cannot be read from the source: why (it is never silently dropped).
    var untranslatable: String?
    /// What the translation left out or assumed, one line each.
    var notes: [String] = []
}

/// A key path from the fetched object: `\.folder?.name` is `["folder", "name"]` with `optionalChain`.
struct KeyPathReference: Equatable {
    var components: [String]
    /// True when written with `?.` after some component.
    var optionalChain: Bool = false

    var text: String { components.joined(separator: ".") }
}

/// A value compared with a key path.
enum PredicateOperand: Equatable {
    /// A value of the source: a literal (its SQL value) or one captured at run time (nil): `?` either way.
    case value(SQLValue?)
    /// `nil`: `IS NULL` / `IS NOT NULL`.
    case null
}

/// Core Data's string searches (`NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1)`).
enum StringSearch: Equatable {
    /// `localizedStandardContains`, `CONTAINS[cd]`: case- and diacritic-insensitive.
    case containsInsensitive
    /// `contains`, `CONTAINS`: as written.
    case contains
}

/// How the parts of a ``PredicateNode/chain(_:_:)`` are joined.
enum PredicateJunction: Equatable {
    case and, or
}

/// A predicate, as both `#Predicate` closures and `NSPredicate(format:)` strings read.
indirect enum PredicateNode: Equatable {
    /// An `NSCompoundPredicate`'s parts, joined by AND: `( a AND  b AND  c)`.
    case and([PredicateNode])
    /// An `NSCompoundPredicate`'s parts, joined by OR.
    case or([PredicateNode])
    /// `a && b && c` or `a AND b AND c` as written: two or more operands, kept in one list so that a long
    /// chain is long, not deep (one pair per link nested a flat chain of 600 comparisons 600 levels deep).
    /// Core Data nests it as written, `(( a AND  b) AND  c)`: each link is a term.
    case chain(PredicateJunction, [PredicateNode])
    case not(PredicateNode)
    /// `==` `!=` `<` `<=` `>` `>=` with the key path on the left (a comparison written the other way is flipped).
    case comparison(KeyPathReference, String, PredicateOperand)
    case search(KeyPathReference, StringSearch, PredicateOperand)
    /// `%K IN %@`: the attribute is one of a list's values (` t0.ZX IN (?)`, one `?` for the list).
    case membership(KeyPathReference, PredicateOperand)
    /// A Bool key path on its own: `$0.isPinned` (`isPinned == YES`).
    case truth(KeyPathReference)
    /// `true` / `TRUEPREDICATE`: no condition.
    case always
}

extension PredicateNode {
    /// Its terms: each comparison, string search, Bool key path and `true`, and each AND, OR and NOT around
    /// them, as its SQL has them (a part that several compounds share counts in each).
    var terms: Int {
        switch self {
        case .and(let parts), .or(let parts): return parts.reduce(1) { $0 + $1.terms }
        case .chain(_, let parts): return parts.reduce(parts.count - 1) { $0 + $1.terms }
        case .not(let inner): return 1 + inner.terms
        case .comparison, .search, .membership, .truth, .always: return 1
        }
    }
}

/// One sort term: `SortDescriptor(\.title, comparator: .localizedStandard, order: .reverse)`,
/// `NSSortDescriptor(key: "title", ascending: false, selector: …)`.
struct FetchSortTerm: Equatable {
    enum Comparator: Equatable {
        /// No comparator given: SwiftData's default for a String (`COLLATE NSCollateLocaleSensitive`),
        /// binary for other types.
        case standard
        /// `.lexical` or `compare:`: binary.
        case lexical
        /// `.localized`, `localizedCompare:`: `NSCollateLocaleSensitive`.
        case localized
        /// `.localizedStandard`, `localizedStandardCompare:`: `NSCollateFinderlike`.
        case localizedStandard
        /// `caseInsensitiveCompare:`: `NSCollateNoCase`.
        case caseInsensitive
        /// `localizedCaseInsensitiveCompare:`: `NSCollateLocaleSensitiveNoCase`.
        case localizedCaseInsensitive
    }

    var path: KeyPathReference
    var descending: Bool
    var comparator: Comparator
}
