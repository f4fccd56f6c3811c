/// The schema of a store: its tables with columns and indexes, views, and whether it keeps statistics.
public struct Schema: Sendable, Codable, Equatable {
    /// Ordinary and virtual tables, in `sqlite_schema` order; `sqlite_*` internal tables are left out.
    public var tables: [Table]
    /// Views, with the SQL that creates them.
    public var views: [View]
    /// True when the store has a `sqlite_stat1` table with rows (https://sqlite.org/fileformat2.html#stat1tab).
    public var hasStatistics: Bool
    /// The rows of `sqlite_stat1` (`tbl`, `idx`, `stat`), empty when the store keeps none.
    public var statistics: [StatisticsRow]
    /// The store's triggers, in `sqlite_schema` order.
    public var triggers: [Trigger] = []
    /// Names of the store's triggers (they share the namespace of tables and indexes).
    public var triggerNames: [String] { triggers.map(\.name) }
    /// What the store's Core Data / SwiftData bookkeeping says, when it is such a store (it has a
    /// `Z_PRIMARYKEY` table with `Z_ENT`, `Z_NAME`, `Z_SUPER`; normally also `Z_METADATA`).
    public var coreData: CoreDataModel?

    public init(tables: [Table], views: [View] = [], hasStatistics: Bool = false,
                statistics: [StatisticsRow] = [], coreData: CoreDataModel? = nil) {
        self.tables = tables
        self.views = views
        self.hasStatistics = hasStatistics
        self.statistics = statistics
        self.coreData = coreData
    }

    /// The table named `name`, compared as SQLite compares identifiers (ASCII case-insensitively).
    public func table(named name: String) -> Table? {
        let key = name.sqlFolded
        return tables.first { $0.name.sqlFolded == key }
    }

    /// Every index of every table.
    public var indexes: [Index] { tables.flatMap(\.indexes) }

    /// The index named `name`, compared case-insensitively.
    public func index(named name: String) -> Index? {
        let key = name.sqlFolded
        return indexes.first { $0.name.sqlFolded == key }
    }
}

/// One row of `sqlite_stat1`.
public struct StatisticsRow: Sendable, Codable, Equatable {
    public var table: String
    public var index: String?
    public var stat: String
}

/// A table of the store.
public struct Table: Sendable, Codable, Equatable {
    public var name: String
    public var columns: [Column]
    public var indexes: [Index]
    /// Rows counted with `SELECT COUNT(*)` on the snapshot.
    public var rowCount: Int
    /// True for `WITHOUT ROWID` tables (https://sqlite.org/withoutrowid.html).
    public var isWithoutRowid: Bool
    /// True for virtual tables (FTS5, R-Tree…), which indexes cannot serve.
    public var isVirtual: Bool
    /// True for a virtual table's shadow table (`note_fts_content`, `geo_rowid`: `PRAGMA table_list` type
    /// `shadow`, pragma.html#pragma_table_list), which its module reads and writes itself; nil in reports
    /// written before it was read.
    public var isShadow: Bool? = nil
    /// False for virtual tables and their shadow tables: no index of ours is advised on them.
    public var isIndexable: Bool { !isVirtual && isShadow != true }
    /// The `CREATE TABLE` statement as stored.
    public var sql: String

    public init(name: String, columns: [Column], indexes: [Index] = [], rowCount: Int = 0,
                isWithoutRowid: Bool = false, isVirtual: Bool = false, sql: String = "") {
        self.name = name
        self.columns = columns
        self.indexes = indexes
        self.rowCount = rowCount
        self.isWithoutRowid = isWithoutRowid
        self.isVirtual = isVirtual
        self.sql = sql
    }

    /// The column named `name`, compared case-insensitively.
    public func column(named name: String) -> Column? {
        let key = name.sqlFolded
        return columns.first { $0.name.sqlFolded == key }
    }

    /// The `INTEGER PRIMARY KEY` column that is an alias for the rowid, if any (https://sqlite.org/lang_createtable.html#rowid).
    public var rowidAlias: Column? { columns.first(where: \.isRowidAlias) }
}

/// A column of a table.
public struct Column: Sendable, Codable, Equatable {
    public var name: String
    /// The declared type as written (`INTEGER`, `VARCHAR`, `TIMESTAMP`…), empty when none.
    public var declaredType: String
    public var isNotNull: Bool
    /// 1-based position in the primary key, 0 when not part of it.
    public var primaryKeyPosition: Int
    /// True for the `INTEGER PRIMARY KEY` column of a rowid table.
    public var isRowidAlias: Bool
    /// The column's default collation (`BINARY` unless declared otherwise).
    public var collation: String
    /// True for generated and hidden columns.
    public var isHidden: Bool
    /// True for a generated column, `VIRTUAL` or `STORED` (`pragma_table_xinfo` reports `hidden` 2 or 3;
    /// its declared type never says so). Statements read it and indexes can hold it, but no `INSERT` fills it.
    public var isGenerated: Bool

    public init(name: String, declaredType: String = "", isNotNull: Bool = false, primaryKeyPosition: Int = 0,
                isRowidAlias: Bool = false, collation: String = "BINARY", isHidden: Bool = false, isGenerated: Bool = false) {
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.primaryKeyPosition = primaryKeyPosition
        self.isRowidAlias = isRowidAlias
        self.collation = collation
        self.isHidden = isHidden || isGenerated
        self.isGenerated = isGenerated
    }
}

/// An index of a table, as `PRAGMA index_list` / `index_xinfo` describe it.
public struct Index: Sendable, Codable, Equatable {
    /// How the index came to be (the `origin` column of `PRAGMA index_list`).
    public enum Origin: String, Sendable, Codable {
        /// `CREATE INDEX`.
        case createIndex = "c"
        /// A `UNIQUE` constraint in `CREATE TABLE`.
        case uniqueConstraint = "u"
        /// A `PRIMARY KEY` constraint (not for an `INTEGER PRIMARY KEY`).
        case primaryKey = "pk"
    }

    public var name: String
    public var table: String
    /// Key columns in order; the rowid that every index entry also carries is not listed.
    public var columns: [IndexColumn]
    public var isUnique: Bool
    public var origin: Origin
    /// The `WHERE` clause of a partial index (https://sqlite.org/partialindex.html), without the keyword.
    public var partialPredicate: String?
    /// The `CREATE INDEX` statement; nil for indexes SQLite creates for constraints.
    public var sql: String?

    public init(name: String, table: String, columns: [IndexColumn], isUnique: Bool = false,
                origin: Origin = .createIndex, partialPredicate: String? = nil, sql: String? = nil) {
        self.name = name
        self.table = table
        self.columns = columns
        self.isUnique = isUnique
        self.origin = origin
        self.partialPredicate = partialPredicate
        self.sql = sql
    }

    public var isPartial: Bool { partialPredicate != nil }

    /// The key column names (expressions appear as their text).
    public var columnNames: [String] { columns.map(\.displayName) }
}

/// One key column of an index.
public struct IndexColumn: Sendable, Codable, Equatable, Hashable {
    /// The column, or nil when the key is an expression.
    public var name: String?
    /// The expression's SQL text for an expression key, e.g. `lower(name)`.
    public var expression: String?
    public var isDescending: Bool
    public var collation: String

    public init(name: String?, expression: String? = nil, isDescending: Bool = false, collation: String = "BINARY") {
        self.name = name
        self.expression = expression
        self.isDescending = isDescending
        self.collation = collation
    }

    public var displayName: String { name ?? expression ?? "<expression>" }
}

/// A view of the store.
public struct View: Sendable, Codable, Equatable {
    public var name: String
    public var sql: String
}

/// A trigger of the store (https://sqlite.org/lang_createtrigger.html).
public struct Trigger: Sendable, Codable, Equatable {
    public var name: String
    /// The table or view it is on.
    public var table: String
    /// The `CREATE TRIGGER` statement as stored.
    public var sql: String
}
