/// Where the spelling of a key path the result prints came from, when no model was read (issue 41, item 2:
/// say which source the names came from): the store loses a property's case (`ZISBN13`), and
/// ``SwiftDataNaming`` recovers it from the model the store caches, from an index name that spells it
/// (`Z_Book_isbn`), or guesses it from the column name.
public struct KeyPathSpelling: Sendable, Codable, Equatable {
    public var table: String
    public var column: String
    /// The property name printed (`isbn13`).
    public var property: String
    /// `Z_MODELCACHE`, or the store's index whose name spells it; nil when it is guessed from the column name.
    public var source: String?

    public init(table: String, column: String, property: String, source: String?) {
        self.table = table
        self.column = column
        self.property = property
        self.source = source
    }
}

extension AnalysisRun {
    /// The spelling of every column of an entity table whose key path the result prints (the
    /// recommendations', the alternatives' and the uniqueness rules'), each once, in that order.
    func keyPathSpellings(naming: SwiftDataNaming, uniqueness: [UniquenessFinding]) -> [KeyPathSpelling] {
        var columns: [(table: String, column: String)] = []
        for candidate in picks.map(\.measured.candidate) + alternatives.map(\.measured.candidate) {
            columns += candidate.columns.compactMap(\.name).map { (candidate.table, $0) }
        }
        for finding in uniqueness where finding.swiftDataUnique != nil || finding.coreDataConstraint != nil {
            columns += finding.columns.map { (finding.table, $0) }
        }
        var spellings: [KeyPathSpelling] = []
        for (table, column) in columns where schema.coreData?.rootEntity(ofTable: table) != nil && !column.uppercased().hasPrefix("Z_") {
            guard !spellings.contains(where: { $0.table.sqlFolded == table.sqlFolded && $0.column.sqlFolded == column.sqlFolded }) else { continue }
            spellings.append(KeyPathSpelling(table: table, column: column, property: naming.propertyName(forColumn: column).name,
                                             source: naming.source(forColumn: column)))
        }
        return spellings
    }
}
