/// How an app ships an index form its model cannot declare (``AlternativeIndex/howToShip``); the words are
/// the renderers' (``text``). In the JSON report it is its words, as before.
public enum ShippingAdvice: Sendable, Equatable {
    /// A Core Data fetch index on `properties` with `partialIndexPredicate` `predicate` (`destructionDate != nil`).
    case fetchIndex(properties: [String], predicate: String)
    /// A Core Data fetch index on `properties` in order, those in `descending` with `isAscending` false
    /// (`NSFetchIndexElementDescription`), with `partialIndexPredicate` `predicate` when not nil.
    case directedFetchIndex(properties: [String], descending: [String], predicate: String?)
    /// SQL the app runs itself: no model can declare it.
    case sqlOnly
    /// An advice read back from a JSON report, in its words.
    case other(String)
}
