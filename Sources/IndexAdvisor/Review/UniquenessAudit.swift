/// A uniqueness rule to check against the data: a table and the columns whose values must not repeat.
public struct UniqueRule: Sendable, Codable, Hashable {
    public var table: String
    public var columns: [String]

    public init(table: String, columns: [String]) {
        self.table = table
        self.columns = columns
    }

    /// Parses `TABLE(col1, col2)` (identifiers may be double-quoted).
    /// - Throws: ``UniqueRuleError`` when the text has no table or no column.
    public init(parsing text: String) throws {
        let tokens = SQLTokenList(text)
        guard tokens.count >= 4, tokens.tokens[0].kind == .word || tokens.tokens[0].kind == .quotedIdentifier,
              tokens.isSymbol(1, "("), tokens.isSymbol(tokens.count - 1, ")") else {
            throw UniqueRuleError(text: text)
        }
        let columns = tokens.items(inParenthesisAt: 1).map { tokens.identifier(at: $0.lowerBound) }
        guard !columns.isEmpty else { throw UniqueRuleError(text: text) }
        self.init(table: tokens.identifier(at: 0), columns: columns)
    }

    /// `TABLE(col1, col2)`.
    public var description: String { "\(table)(\(columns.joined(separator: ", ")))" }
}

/// A `--unique` argument that is not of the form `TABLE(col, …)`.
public struct UniqueRuleError: Error, Sendable, CustomStringConvertible {
    public var text: String
    public var description: String { "'\(text)' is not a uniqueness rule; write it as TABLE(column, …), e.g. ZNOTE(ZREMOTEID)" }
}

/// Counts, for each rule, the rows that break it (https://sqlite.org/lang_createindex.html#unique_indexes:
/// NULLs are distinct). Rules come from the user, from UNIQUE indexes, and from the workload: a column the
/// workload filters by equality that is named like an identifier (`…id`, `uuid`, `key`, `slug`…), or a
/// set of up to 3 columns fetched with `LIMIT 1`. A proposed set that more than 1 % of rows break is not
/// an identifier and is left out.
struct UniquenessAudit {
    let schema: Schema
    let connection: SQLiteConnection

    func audit(declared: [UniqueRule], profiles: [StatementProfile]) -> [UniquenessFinding] {
        var findings: [UniquenessFinding] = []
        var seen = Set<String>()
        func key(_ table: String, _ columns: [String]) -> String {
            ([table] + columns.sorted()).map { $0.sqlFolded }.joined(separator: "\u{1}")
        }
        for rule in declared {
            guard let table = schema.table(named: rule.table), rule.columns.allSatisfy({ table.column(named: $0) != nil }) else {
                findings.append(UniquenessFinding(origin: .declared, table: rule.table, columns: rule.columns, violatingRows: 0,
                                                  duplicateValues: 0, nullRows: 0, tableRows: 0, swiftDataUnique: nil, verdict: .notChecked))
                continue
            }
            guard seen.insert(key(table.name, rule.columns)).inserted else { continue }
            if let finding = check(table: table, columns: rule.columns, origin: .declared) { findings.append(finding) }
        }
        for table in schema.tables {
            for index in table.indexes where index.isUnique && index.origin != .primaryKey {
                let columns = index.columns.compactMap(\.name)
                guard columns.count == index.columns.count, seen.insert(key(table.name, columns)).inserted else { continue }
                findings.append(UniquenessFinding(origin: .enforced, table: table.name, columns: columns, violatingRows: 0,
                                                  duplicateValues: 0, nullRows: 0, tableRows: table.rowCount, swiftDataUnique: nil,
                                                  verdict: Self.verdict(enforcedBy: index, in: table)))
            }
        }
        for (table, columns) in lookupKeys(profiles: profiles) where seen.insert(key(table.name, columns)).inserted {
            // A foreign key's child column points at a parent: many rows may share one (a history, a list's
            // items), however unique the data happens to be today (foreignkeys.html).
            if columns.count == 1, ForeignKeys.isChildColumn(columns[0], of: table, connection: connection) { continue }
            // Columns that many rows share are not an identifier: only near-unique sets are worth a word.
            if let finding = check(table: table, columns: columns, origin: .proposed),
               Double(finding.violatingRows) <= Double(max(1, finding.tableRows)) * 0.01 {
                findings.append(finding)
            }
        }
        return findings
    }

    /// What the data says of the rule `index` enforces: enforced, or implied by a narrower key of the table
    /// (``ImpliedUniqueness``), which makes it redundant as a rule.
    static func verdict(enforcedBy index: Index, in table: Table) -> UniquenessVerdict {
        guard index.partialPredicate == nil, let key = ImpliedUniqueness.implyingKey(for: index.columns, named: index.name, in: table) else {
            return .enforced(index: index.name)
        }
        return .implied(index: index.name, by: key.name, columns: key.columns.compactMap(\.name), tableConstraint: index.origin != .createIndex)
    }

    /// Column sets the workload looks up by equality that look like identifiers.
    private func lookupKeys(profiles: [StatementProfile]) -> [(Table, [String])] {
        var result: [(Table, [String])] = []
        for profile in profiles where profile.isUsable && profile.isRead {
            let singleRow = profile.statement.sql.range(of: #"LIMIT\s+(1|\?)\s*$"#, options: [.regularExpression, .caseInsensitive]) != nil
                && (profile.statement.literalValues.last.flatMap { $0 }?.integerValue ?? 1) == 1
            for access in profile.shape?.tables ?? [] {
                guard let table = schema.table(named: access.table), table.isIndexable else { continue }
                let rowid = table.rowidAlias?.name.sqlFolded
                let columns = access.constraints
                    .filter { $0.op == .equal && !$0.isJoin && !$0.column.isEmpty && $0.column.sqlFolded != "rowid" && $0.column.sqlFolded != rowid }
                    .map(\.column)
                var unique: [String] = []
                for column in columns where !unique.contains(where: { $0.sqlFolded == column.sqlFolded }) { unique.append(column) }
                guard !unique.isEmpty, unique.count <= 3, !unique.contains(where: { $0.uppercased().hasPrefix("Z_") }) else { continue }
                // A rule already enforced on a subset of these columns makes the set unique anyway.
                let enforced = table.indexes.contains { index in
                    index.isUnique && index.columns.allSatisfy { column in unique.contains { $0.sqlFolded == column.name?.sqlFolded } }
                }
                if enforced { continue }
                // One column named like an identifier, or any small set fetched as a single row.
                if singleRow || (unique.count == 1 && Self.looksLikeIdentifier(unique[0])) {
                    result.append((table, unique))
                }
            }
        }
        return result
    }

    static func looksLikeIdentifier(_ column: String) -> Bool {
        let name = column.sqlFolded
        return ["id", "uuid", "guid", "key", "slug", "identifier", "hash", "code", "email", "isbn", "sku"].contains { name.hasSuffix($0) }
    }

    private func check(table: Table, columns: [String], origin: UniquenessFinding.Origin) -> UniquenessFinding? {
        let quotedTable = SQLIdentifier.quote(table.name)
        let list = columns.map(SQLIdentifier.quote).joined(separator: ", ")
        let notNull = columns.map { "\(SQLIdentifier.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        guard let groups = try? connection.query("""
                SELECT count(*), coalesce(sum(n), 0) FROM (SELECT count(*) AS n FROM \(quotedTable) WHERE \(notNull)
                GROUP BY \(list) HAVING count(*) > 1)
                """).first,
              let nulls = try? connection.scalar("SELECT count(*) FROM \(quotedTable) WHERE NOT (\(notNull))")?.integerValue
        else { return nil }
        let duplicateValues = Int(groups[0].integerValue ?? 0)
        let violating = Int(groups[1].integerValue ?? 0) - duplicateValues
        let entity = schema.coreData?.rootEntity(ofTable: table.name)?.name
        let cloudKit = schema.coreData?.isCloudKitSynced ?? false
        let naming = SwiftDataNaming(schema: schema)
        var macro: String?
        let verdict: UniquenessVerdict
        if violating > 0 {
            verdict = .broken
        } else if origin == .proposed && cloudKit {
            verdict = .cloudKitForbids
        } else if origin == .proposed {
            let properties = columns.map { naming.propertyName(forColumn: $0).name }
            if let entity, SwiftDataCode.isSwiftIdentifier(entity), properties.allSatisfy(SwiftDataCode.isSwiftIdentifier),
               columns.allSatisfy({ !$0.uppercased().hasPrefix("Z_") }) {
                let paths = properties.map { "\\." + $0 }
                macro = "#Unique<\(entity)>([\(paths.joined(separator: ", "))])"
            }
            verdict = .declareIt(withMacro: macro != nil)
        } else {
            verdict = .holds
        }
        return UniquenessFinding(origin: origin, table: table.name, columns: columns, violatingRows: violating,
                                 duplicateValues: duplicateValues, nullRows: Int(nulls), tableRows: table.rowCount,
                                 swiftDataUnique: macro, verdict: verdict)
    }
}
