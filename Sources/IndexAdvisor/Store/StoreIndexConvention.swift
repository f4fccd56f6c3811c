/// Which framework named a Core Data / SwiftData store's indexes, read from the names alone, without a
/// model: Core Data names the fetch indexes a model declares `Z_<Entity>_<name>` (an Indexed attribute's
/// after the attribute, `Z_Book_googleBooksId`), SwiftData names an `#Index`
/// `Z_<Entity>_SwiftDataIndexOnBinary<properties…>` (shared/formats/coredata-sqldebug.md §5). Uniqueness
/// constraints (`Z_<Entity>_UNIQUE_…`) and the indexes Core Data makes for relationships and entity
/// hierarchies (`ZLISTITEM_ZBOOK_INDEX`) are named alike by both, so they tell nothing.
///
/// A name made from the index's own columns (`Z_Note_title_updatedAt`, `Z_Note_byFolderIDSlug`, with
/// `_partial`, `Partial` or a number after it) tells nothing either: any tool names indexes so, this one too
/// (an SQL-only index it advised on a SwiftData store earlier). A name no column gives (`Z_Book_sortCustom`,
/// `Z_Book_isbn` on `ZISBN13`) is one a developer typed for a fetch index in the model editor.
///
/// A store whose fetch indexes are all Core Data's is a Core Data app's (issue 41, item 2): its new
/// indexes are named as Core Data names a fetch index (`Z_Book_byReadStateSort`), and the reports speak
/// Core Data for its entities. Names of both kinds, or of neither, leave it open.
public struct StoreIndexConvention: Sendable, Codable, Equatable {
    public enum Framework: String, Sendable, Codable {
        case coreData
        case swiftData
    }

    public var framework: Framework
    /// The store's indexes that show it, in schema order (at most three).
    public var evidence: [String]

    /// The convention the names of `indexes` show on tables holding `entities`, or nil when they show none or both.
    public static func read(indexes: [(name: String, table: String, columns: [String])], entities: [(name: String, table: String)]) -> StoreIndexConvention? {
        var found: [Framework: [String]] = [:]
        for index in indexes {
            guard let rest = fetchIndexName(of: index.name, table: index.table, entities: entities) else { continue }
            if rest.contains("SwiftDataIndexOnBinary") {
                found[.swiftData, default: []].append(index.name)
            } else if !isNamedAfterColumns(rest, columns: index.columns) {
                found[.coreData, default: []].append(index.name)
            }
        }
        guard found.count == 1, let (framework, names) = found.first else { return nil }
        return StoreIndexConvention(framework: framework, evidence: Array(names.prefix(3)))
    }

    /// True when `name` is made of `columns` alone (without their `Z`), in order, joined by `_` or not, after
    /// `by` or not, with `_partial` or `Partial` and a number after them or not, in any case.
    static func isNamedAfterColumns(_ name: String, columns: [String]) -> Bool {
        var rest = name.lowercased()
        while let last = rest.last, last.isASCII && last.isNumber { rest.removeLast() }
        if rest.hasSuffix("_") { rest.removeLast() }
        if rest.hasSuffix("partial") { rest.removeLast("partial".count) }
        if rest.hasSuffix("_") { rest.removeLast() }
        if rest.hasPrefix("by") { rest.removeFirst(2) }
        let bare = columns.map { column in (column.hasPrefix("Z") && !column.hasPrefix("Z_") ? String(column.dropFirst()) : column).lowercased() }
        return !bare.isEmpty && (rest == bare.joined() || rest == bare.joined(separator: "_"))
    }

    /// `sortTitle` for `Z_Book_sortTitle` on a table holding entity `Book`: the name the model gave a fetch index
    /// (or an Indexed attribute); nil for any other index name (a uniqueness constraint's `Z_Book_UNIQUE_…`,
    /// Core Data's own `…_INDEX`, an app's own).
    public static func fetchIndexName(of index: String, table: String, entities: [(name: String, table: String)]) -> String? {
        for entity in entities where entity.table.sqlFolded == table.sqlFolded {
            let prefix = "Z_\(entity.name)_"
            guard index.hasPrefix(prefix), index.count > prefix.count else { continue }
            let rest = String(index.dropFirst(prefix.count))
            guard !rest.hasPrefix("UNIQUE_") else { return nil }
            return rest
        }
        return nil
    }
}

extension Schema {
    /// The convention the store's index names show (``StoreIndexConvention``); nil on other stores.
    var indexConvention: StoreIndexConvention? {
        guard let coreData else { return nil }
        return StoreIndexConvention.read(indexes: indexes.map { ($0.name, $0.table, $0.columns.map { $0.name ?? "" }) },
                                         entities: coreData.entities.map { ($0.name, $0.table) })
    }
}

extension StoreSummary {
    /// The convention the store's index names show (``StoreIndexConvention``), read from the tables' index
    /// lists (so a report written before it was kept shows it too); nil on other stores.
    public var indexConvention: StoreIndexConvention? {
        guard isCoreData else { return nil }
        return StoreIndexConvention.read(indexes: tables.flatMap { table in table.indexes.map { ($0.name, table.name, $0.columns) } },
                                         entities: tables.flatMap { table in table.entities.map { ($0, table.name) } })
    }
}

extension StoreSummary {
    /// `Core Data store (its index names are Core Data's: Z_Book_sortCustom, …)`, as the reports' store line
    /// says what the store is and how that is known; `Core Data / SwiftData store` when the names do not tell.
    public var kindText: String {
        guard let convention = indexConvention else { return "Core Data / SwiftData store" }
        let framework = convention.framework == .coreData ? "Core Data" : "SwiftData"
        return "\(framework) store (its index names are \(framework)'s: \(convention.evidence.joined(separator: ", ")))"
    }
}

extension AnalysisResult {
    /// The result with each proposed uniqueness rule on an entity of a store whose indexes Core Data named
    /// given as a uniqueness constraint of that entity (``UniquenessFinding/coreDataConstraint``) instead
    /// of a `#Unique`, as `--model` gives it for a Core Data entity; unchanged on any other store.
    func proposingConstraintsForCoreData() -> AnalysisResult {
        guard store.indexConvention?.framework == .coreData else { return self }
        var result = self
        for position in result.uniqueness.indices where result.uniqueness[position].coreDataConstraint == nil {
            guard let constraint = result.uniquenessConstraint(for: result.uniqueness[position]) else { continue }
            result.uniqueness[position].coreDataConstraint = constraint.properties
            result.uniqueness[position].coreDataEntity = constraint.entity
            result.uniqueness[position].swiftDataUnique = nil
        }
        return result
    }
}
