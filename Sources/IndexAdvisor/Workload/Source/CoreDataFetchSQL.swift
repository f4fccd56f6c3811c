/// Builds the SQL Core Data prints (`-com.apple.CoreData.SQLDebug 1`) for a ``FetchSpec``, following the
/// conventions of shared/formats/coredata-sqldebug.md and of real logs:
///
/// - `SELECT 0, t0.Z_PK, t0.Z_OPT, <attribute columns by column name>, <to-one columns by column name> FROM ZNOTE t0`
///   (`t0.Z_ENT` instead of `0` when the entity has sub-entities); a count is `SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0`.
/// - ` WHERE ` then the predicate: a comparison is ` t0.ZX = ?` (one leading space), `&&`/`||` print
///   `(a AND  b)` as nested as written (`(( a AND  b) AND  c)`), a compound's parts `( a AND  b AND  c)`,
///   `== nil` is ` t0.ZX IS NULL`, an optional to-one compared by its identifier
///   `( t0.ZFOLDER IS NOT NULL AND  t0.ZFOLDER = ?)`, a related attribute joins the destination
///   (`JOIN ZFOLDER t1 ON t0.ZFOLDER = t1.Z_PK`; `LEFT OUTER JOIN` when a row whose relationship is nil may
///   still match or be sorted: a key path under `||` or `NOT`, or in a sort descriptor, as the format notes
///   see Core Data do for to-many joins), string searches are `NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1)`.
/// - ` ORDER BY t0.ZA, t0.ZB DESC`, a String sorted with SwiftData's default comparator
///   `COLLATE NSCollateLocaleSensitive`, with `.localizedStandard` `COLLATE NSCollateFinderlike`.
/// - `LIMIT n` (two spaces before it when there is no ORDER BY), `OFFSET m`.
///
/// Every value is a `?` parameter, as Core Data binds them. Names are unquoted, as Core Data prints them.
enum CoreDataFetchSQL {
    /// The statement, its parameters in order (a literal's value, nil for a value captured at run time).
    struct Statement: Equatable {
        var sql: String
        var parameters: [SQLValue?]
    }

    static func translate(_ spec: FetchSpec, model: ModelSource) throws -> Statement {
        if let reason = spec.untranslatable { throw Untranslatable(reason: reason) }
        guard let entity = spec.entity else { throw Untranslatable(reason: "the entity fetched is not named where the site is (no type argument, key path type or property type)") }
        var builder = try Builder(entity: entity, model: model)
        var whereClause = try spec.predicate.flatMap { try builder.condition($0) }
        if let restriction = builder.subEntityRestriction() {
            whereClause = whereClause.map { "(" + restriction + " AND " + $0 + ")" } ?? restriction
        }
        var orderBy = ""
        if !spec.isCount {
            for term in spec.sort {
                let (column, collation) = try builder.sortColumn(term)
                // After a collation Core Data leaves a space before the comma (`… NSCollateLocaleSensitive , t0.Z_PK`).
                if !orderBy.isEmpty { orderBy += ", " }
                orderBy += column + (collation.map { " COLLATE " + $0 } ?? "") + (term.descending ? " DESC" : "")
                if collation != nil && !term.descending { orderBy += " " }
            }
            if orderBy.hasSuffix(" ") { orderBy.removeLast() }
        }
        let table = builder.table
        // With a batch size Core Data fetches the identifiers first, then each batch by key (``batchStatement(_:model:)``).
        let selectList = spec.batchSize == nil ? builder.selectList : "t0.Z_ENT, t0.Z_PK"
        var sql = spec.isCount ? "SELECT COUNT( DISTINCT t0.Z_PK) FROM \(table) t0" : "SELECT \(selectList) FROM \(table) t0"
        sql += builder.joins
        if let whereClause { sql += " WHERE " + whereClause }
        if !orderBy.isEmpty { sql += " ORDER BY " + orderBy }
        if !spec.isCount, let limit = spec.limit {
            sql += (orderBy.isEmpty ? "  LIMIT " : " LIMIT ") + String(limit)
            if let offset = spec.offset { sql += " OFFSET " + String(offset) }
        } else if !spec.isCount, let offset = spec.offset {
            sql += (orderBy.isEmpty ? "  LIMIT -1 OFFSET " : " LIMIT -1 OFFSET ") + String(offset)
        }
        return Statement(sql: sql, parameters: builder.parameters)
    }

    /// The statement Core Data runs for each batch of a fetch with `fetchBatchSize` (shared/formats/coredata-sqldebug.md
    /// §3.5): every column of the rows whose keys the first statement gave, through the bound key list `_Z_intarray0`.
    static func batchStatement(_ spec: FetchSpec, model: ModelSource) throws -> String? {
        guard let size = spec.batchSize, !spec.isCount, let entity = spec.entity else { return nil }
        let builder = try Builder(entity: entity, model: model)
        return "SELECT \(builder.selectList) FROM \(builder.table) t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT \(size)"
    }

    /// The state of one translation: the fetched class, joins made so far, parameters in order.
    private struct Builder {
        let model: ModelSource
        let fetched: ModelClass
        let root: ModelClass
        let modelNames: Set<String>
        var joinAliases: [String: (alias: String, model: ModelClass)] = [:]
        /// Each join in order: its alias, table, key column, and whether it is outer.
        var joinList: [(alias: String, table: String, column: String, outer: Bool)] = []
        /// True while translating what a row with a nil relationship may satisfy (an `||` or `NOT` operand,
        /// a sort descriptor): a join made or used then is `LEFT OUTER JOIN`.
        var keepsUnrelatedRows = false
        var joins: String {
            joinList.map { " \($0.outer ? "LEFT OUTER JOIN" : "JOIN") \($0.table) \($0.alias) ON \($0.column) = \($0.alias).Z_PK" }.joined()
        }
        var parameters: [SQLValue?] = []

        init(entity: String, model: ModelSource) throws {
            self.model = model
            guard let fetched = model.classes.first(where: { $0.className == entity }) ?? model.classes.first(where: { $0.entity == entity }) else {
                throw Untranslatable(reason: "no @Model class or NSManagedObject subclass named \(entity) in the --source files")
            }
            self.fetched = fetched
            var root = fetched
            var seen: Set<String> = [fetched.className]
            while let parent = root.superclass, let next = model.classes.first(where: { $0.className == parent }), seen.insert(parent).inserted {
                root = next
            }
            self.root = root
            modelNames = Set(model.classes.map(\.className))
        }

        var table: String { Self.table(of: root, in: model) }

        static func table(of model: ModelClass, in source: ModelSource) -> String {
            var root = model
            var seen: Set<String> = [model.className]
            while let parent = root.superclass, let next = source.classes.first(where: { $0.className == parent }), seen.insert(parent).inserted {
                root = next
            }
            return "Z" + root.entity.uppercased()
        }

        /// True when another class of the model inherits from the root.
        var hasSubEntities: Bool { model.classes.contains { $0.superclass != nil && $0.className != root.className && Self.table(of: $0, in: model) == table } }

        /// The stored properties of a class and its model superclasses.
        func properties(of model: ModelClass) -> [ModelProperty] {
            var chain = [model]
            var current = model
            var seen: Set<String> = [model.className]
            while let parent = current.superclass, let next = self.model.classes.first(where: { $0.className == parent }), seen.insert(parent).inserted {
                chain.insert(next, at: 0)
                current = next
            }
            return chain.flatMap(\.properties)
        }

        var selectList: String {
            let properties = properties(of: fetched)
            let attributes = properties.filter { ModelMapping.kind(of: $0, modelNames: modelNames) == .attribute }.map(\.columnName).sorted()
            let toOnes = properties.filter { ModelMapping.kind(of: $0, modelNames: modelNames) == .toOneRelationship }.map(\.columnName).sorted()
            var seen = Set<String>()
            let columns = (attributes + toOnes).filter { seen.insert($0).inserted }
            return ([hasSubEntities ? "t0.Z_ENT" : "0", "t0.Z_PK", "t0.Z_OPT"] + columns.map { "t0." + $0 }).joined(separator: ", ")
        }

        /// ` t0.Z_ENT = ?` when the fetched class is a sub-entity (its rows share the root's table).
        mutating func subEntityRestriction() -> String? {
            guard fetched.className != root.className else { return nil }
            parameters.append(nil)
            return " t0.Z_ENT = ?"
        }

        enum Resolved {
            /// An attribute column, with its Swift type.
            case column(String, type: String)
            /// A to-one relationship's key column, compared by the destination's identity.
            case foreignKey(String, optional: Bool)
        }

        mutating func resolve(_ path: KeyPathReference) throws -> Resolved {
            var current = fetched
            var alias = "t0"
            var index = 0
            let components = path.components
            while index < components.count {
                let name = components[index]
                let isLast = index == components.count - 1
                guard let property = properties(of: current).first(where: { $0.name == name }) else {
                    if isLast && (name == "persistentModelID" || name == "objectID" || (name == "id" && current.framework == .swiftData)) {
                        return .column(alias + ".Z_PK", type: "PersistentIdentifier")
                    }
                    throw Untranslatable(reason: "`\(name)` is not a stored property of \(current.className) (computed, @Transient or not declared there): Core Data cannot filter or sort on it in SQL")
                }
                switch ModelMapping.kind(of: property, modelNames: modelNames) {
                case nil:
                    throw Untranslatable(reason: "`\(path.text)` goes through the to-many relationship `\(name)`: not translated")
                case .attribute?:
                    guard isLast else {
                        throw Untranslatable(reason: "`\(path.text)`: `\(name)` is an attribute (\(property.type)), and what follows it is computed in Swift, not stored")
                    }
                    return .column(alias + "." + property.columnName, type: property.baseType)
                case .toOneRelationship?:
                    let column = alias + "." + property.columnName
                    if isLast { return .foreignKey(column, optional: false) }
                    guard let destination = model.classes.first(where: { $0.className == property.baseType }) else {
                        throw Untranslatable(reason: "`\(name)` leads to \(property.baseType), which is not a model class in the --source files")
                    }
                    let next = components[index + 1]
                    let hasStoredID = properties(of: destination).contains { $0.name == next }
                    if index + 1 == components.count - 1 && !hasStoredID
                        && (next == "persistentModelID" || next == "objectID" || (next == "id" && destination.framework == .swiftData)) {
                        return .foreignKey(column, optional: path.optionalChain)
                    }
                    let key = components[0...index].joined(separator: ".")
                    if let existing = joinAliases[key] {
                        alias = existing.alias
                        if keepsUnrelatedRows, let position = joinList.firstIndex(where: { $0.alias == alias }) { joinList[position].outer = true }
                    } else {
                        let newAlias = "t\(joinAliases.count + 1)"
                        joinList.append((newAlias, Self.table(of: destination, in: model), column, keepsUnrelatedRows))
                        joinAliases[key] = (newAlias, destination)
                        alias = newAlias
                    }
                    current = destination
                }
                index += 1
            }
            throw Untranslatable(reason: "an empty key path")
        }

        /// The predicate's SQL, nil when it has no condition (`true`).
        mutating func condition(_ node: PredicateNode) throws -> String? {
            switch node {
            case .always:
                return nil
            case .and(let nodes), .or(let nodes):
                let word: String
                if case .and = node { word = " AND " } else { word = " OR " }
                let outer = keepsUnrelatedRows
                if case .or = node { keepsUnrelatedRows = true }
                defer { keepsUnrelatedRows = outer }
                var parts: [String] = []
                for child in nodes {
                    if let part = try condition(child) { parts.append(part) }
                }
                if parts.isEmpty { return nil }
                if parts.count == 1 { return parts[0] }
                return "(" + parts.joined(separator: word) + ")"
            case .chain(let junction, let nodes):
                // Nested as written, `(( a AND  b) AND  c)`, built front to back: a part without a condition
                // (`true`) drops out with its link, as it does from a pair.
                let outer = keepsUnrelatedRows
                if junction != .and { keepsUnrelatedRows = true }
                defer { keepsUnrelatedRows = outer }
                var parts: [String] = []
                for child in nodes {
                    if let part = try condition(child) { parts.append(part) }
                }
                guard let first = parts.first else { return nil }
                let word = junction == .and ? " AND " : " OR "
                var sql = String(repeating: "(", count: parts.count - 1) + first
                for part in parts.dropFirst() { sql += word + part + ")" }
                return sql
            case .not(let inner):
                let outer = keepsUnrelatedRows
                keepsUnrelatedRows = true
                defer { keepsUnrelatedRows = outer }
                guard let part = try condition(inner) else { throw Untranslatable(reason: "a predicate that is always false") }
                return part.hasPrefix("(") ? " NOT " + part : " NOT (" + part + ")"
            case .truth(let path):
                guard case .column(let column, let type) = try resolve(path), type == "Bool" else {
                    throw Untranslatable(reason: "`\(path.text)` used as a condition is not a Bool attribute")
                }
                parameters.append(.integer(1))
                return " \(column) = ?"
            case .membership(let path, let operand):
                guard case .column(let column, _) = try resolve(path) else {
                    throw Untranslatable(reason: "`\(path.text) IN …` on a relationship: Core Data passes the keys as a bound list (`_Z_intarray0`), not translated")
                }
                if case .value(let value) = operand { parameters.append(value) } else { parameters.append(nil) }
                return " \(column) IN (?)"
            case .search(let path, let kind, let operand):
                guard case .column(let column, let type) = try resolve(path), type == "String" else {
                    throw Untranslatable(reason: "`\(path.text)` searched as a string is not a String attribute")
                }
                if case .value(let value) = operand { parameters.append(value) } else { parameters.append(nil) }
                switch kind {
                case .containsInsensitive: return " NSCoreDataStringSearch( \(column), ?, 417, 1)"
                case .contains: return " NSCoreDataStringSearch( \(column), ?, 385, 0)"
                }
            case .comparison(let path, let op, let operand):
                let resolved = try resolve(path)
                let sqlOp = ["==": "=", "!=": "<>"][op] ?? op
                switch (resolved, operand) {
                case (.column(let column, _), .null), (.foreignKey(let column, _), .null):
                    return op == "==" ? " \(column) IS NULL" : " \(column) IS NOT NULL"
                case (.foreignKey(let column, let optional), .value(let value)):
                    guard op == "==" || op == "!=" else { throw Untranslatable(reason: "the relationship `\(path.text)` ordered with \(op)") }
                    parameters.append(value)
                    if optional && op == "==" { return "( \(column) IS NOT NULL AND  \(column) = ?)" }
                    return " \(column) \(sqlOp) ?"
                case (.column(let column, _), .value(let value)):
                    parameters.append(value)
                    return " \(column) \(sqlOp) ?"
                }
            }
        }

        /// The column and collation of a sort term.
        mutating func sortColumn(_ term: FetchSortTerm) throws -> (String, String?) {
            keepsUnrelatedRows = true
            defer { keepsUnrelatedRows = false }
            switch try resolve(term.path) {
            case .foreignKey(let column, _):
                return (column, nil)
            case .column(let column, let type):
                switch term.comparator {
                case .standard: return (column, type == "String" ? "NSCollateLocaleSensitive" : nil)
                case .lexical: return (column, nil)
                case .localized: return (column, "NSCollateLocaleSensitive")
                case .localizedStandard: return (column, "NSCollateFinderlike")
                case .caseInsensitive: return (column, "NSCollateNoCase")
                case .localizedCaseInsensitive: return (column, "NSCollateLocaleSensitiveNoCase")
                }
            }
        }
    }
}
