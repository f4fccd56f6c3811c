/// Reviews a store without a workload: redundant indexes (with the write cost they add, measured by
/// dropping each for real and rebuilding it afterwards, around inserting, updating and deleting copies of
/// real rows, see ``ChangeComparison``), foreign-key
/// and relationship columns without an index (with a lookup timed with and without one), identity-like
/// columns without a unique rule, large tables without indexes, statistics, and Core Data hierarchy indexes.
struct SchemaReview {
    let schema: Schema
    let snapshot: StoreSnapshot
    let timer: StatementTimer
    var seed: UInt64

    /// Tables smaller than this are not worth an index finding.
    static let largeTableRows = 10_000

    mutating func run(sizes: [String: Int64]) -> [SchemaFinding] {
        var findings: [SchemaFinding] = []
        if !schema.hasStatistics {
            findings.append(SchemaFinding(kind: .noStatistics, table: "", columns: [], detail: .noStatistics(isCoreData: schema.coreData != nil)))
        }
        for table in schema.tables where table.isIndexable {
            findings += redundantIndexes(in: table, sizes: sizes)
            findings += unindexedReferences(in: table)
            if table.rowCount >= Self.largeTableRows, table.indexes.isEmpty, !table.isWithoutRowid {
                findings.append(SchemaFinding(kind: .tableWithoutIndex, table: table.name, columns: [],
                                              detail: .tableWithoutIndex(rows: table.rowCount)))
            }
            findings += uniqueness(in: table)
            if let coreData = schema.coreData, coreData.entities(inTable: table.name).count > 1,
               let index = table.indexes.first(where: { $0.columns.first?.name?.uppercased() == "Z_ENT" && $0.columns.count == 1 }),
               !schema.hasStatistics, table.rowCount >= Self.largeTableRows {
                findings.append(SchemaFinding(kind: .hierarchyIndex, table: table.name, columns: ["Z_ENT"], index: index.name,
                                              bytes: sizes[index.name],
                                              detail: .hierarchyIndex(entities: coreData.entities(inTable: table.name).count)))
            }
        }
        return findings
    }

    // MARK: Redundant indexes, with the write cost they add

    private mutating func redundantIndexes(in table: Table, sizes: [String: Int64]) -> [SchemaFinding] {
        var findings: [SchemaFinding] = []
        for index in table.indexes where index.partialPredicate == nil {
            guard let wider = table.indexes.first(where: { other in
                other.name != index.name && other.partialPredicate == nil && IndexCandidate.leads(index.columns, other.columns)
                    && (index.columns.count < other.columns.count || index.name > other.name || other.isUnique)
                    && !(index.isUnique && !other.isUnique)
            }) else { continue }
            let caveat = ExistingIndexReview.caveat(for: index, schema: schema, connection: snapshot.connection)
            var finding = SchemaFinding(kind: .redundantIndex, table: table.name, columns: index.columnNames, index: index.name,
                                        bytes: sizes[index.name],
                                        detail: .redundantIndex(wider: wider.name, widerColumns: wider.columnNames, caveat: caveat),
                                        sql: caveat == nil ? "DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name));" : nil)
            if caveat == nil, table.rowCount > 0 {
                finding.measurements = writeCosts(of: index, in: table)
            }
            findings.append(finding)
        }
        return findings
    }

    /// INSERT of a copied row, UPDATE of the index's first column, DELETE of a row: each timed with and
    /// without `index` (dropped for real and rebuilt from its own definition).
    private mutating func writeCosts(of index: Index, in table: Table) -> [SchemaMeasurement] {
        guard let column = index.columns.first?.name, !table.isWithoutRowid else { return [] }
        let name = SQLIdentifier.quote(table.name)
        let columns = table.columns.filter { !$0.isHidden && !$0.isRowidAlias }.map { SQLIdentifier.quote($0.name) }
        let list = columns.joined(separator: ", ")
        let rowids = sampleRowids(of: table, count: 6)
        guard !rowids.isEmpty else { return [] }
        let operations: [(String, String, [[SQLValue]])] = [
            ("INSERT of a copied row", "INSERT INTO \(name) (\(list)) SELECT \(list) FROM \(name) WHERE rowid = ?", rowids.map { [.integer($0)] }),
            ("UPDATE of \(column)", "UPDATE \(name) SET \(SQLIdentifier.quote(column)) = (SELECT \(SQLIdentifier.quote(column)) FROM \(name) WHERE rowid = ?) WHERE rowid = ?",
             zip(rowids, rowids.reversed()).map { [.integer($0), .integer($1)] }),
            ("DELETE of a row", "DELETE FROM \(name) WHERE rowid = ?", rowids.map { [.integer($0)] }),
        ]
        var result: [SchemaMeasurement] = []
        for (label, sql, samples) in operations {
            guard index.sql != nil else { continue }
            if let (with, without) = ChangeComparison(snapshot: snapshot, timer: timer)
                .compare(hiding: [index.name], sql: sql, samples: samples, isWrite: true) {
                result.append(SchemaMeasurement(operation: label, withIndex: with, withoutIndex: without,
                                                isSignificant: with.isSlower(than: without) || without.isSlower(than: with)))
            }
        }
        return result
    }

    // MARK: Foreign keys and relationships without an index

    private mutating func unindexedReferences(in table: Table) -> [SchemaFinding] {
        guard table.rowCount >= Self.largeTableRows, !table.isWithoutRowid else { return [] }
        var references: [(column: String, target: String, kind: ReferenceKind)] = []
        let declared = (try? snapshot.connection.query("SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", [.text(table.name)])) ?? []
        for row in declared {
            if let from = row[0].textValue, let target = row[1].textValue { references.append((from, target, .foreignKey)) }
        }
        if schema.coreData != nil {
            // Core Data keeps a to-one relationship `folder` as integer column ZFOLDER holding the destination's
            // Z_PK, and always indexes it (ZNOTE_ZFOLDER_INDEX).
            for column in table.columns where column.declaredType.uppercased() == "INTEGER" && column.name.hasPrefix("Z") && !column.name.hasPrefix("Z_") {
                if let target = schema.tables.first(where: { $0.name.uppercased() == column.name.uppercased() && $0.name != table.name }) {
                    references.append((column.name, target.name, .toOneRelationship))
                }
            }
        } else {
            // GRDB and hand-written schemas: `author_id` / `authorId` referring to table `author`.
            for column in table.columns where !column.isRowidAlias {
                let lower = column.name.sqlFolded
                for suffix in ["_id", "id"] where lower.hasSuffix(suffix) && lower.count > suffix.count {
                    let stem = String(lower.dropLast(suffix.count))
                    if let target = schema.tables.first(where: { $0.name.sqlFolded == stem || $0.name.sqlFolded == stem + "s" }),
                       !references.contains(where: { $0.column == column.name }) {
                        references.append((column.name, target.name, .namedLikeReference))
                    }
                }
            }
        }
        var findings: [SchemaFinding] = []
        for reference in references {
            let indexed = table.indexes.contains { $0.columns.first?.name?.sqlFolded == reference.column.sqlFolded }
            guard !indexed else { continue }
            let candidate = IndexCandidate(table: table.name, columns: [IndexColumn(name: reference.column)])
            let indexName = "idx_\(table.name)_\(reference.column)".filter { $0.isLetter || $0.isNumber || $0 == "_" }
            var finding = SchemaFinding(kind: .unindexedReference, table: table.name, columns: [reference.column],
                                        detail: .unindexedReference(target: reference.target, kind: reference.kind),
                                        sql: candidate.createSQL(name: indexName, ifNotExists: true) + ";")
            let lookup = "SELECT * FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(reference.column)) = ?"
            let values = sampleValues(of: reference.column, in: table, count: 6).map { [$0] }
            if !values.isEmpty, let (without, with) = ChangeComparison(snapshot: snapshot, timer: timer).compare(
                apply: [candidate.createSQL(name: "indexadvisor_review_candidate")],
                revert: ["DROP INDEX IF EXISTS indexadvisor_review_candidate"], sql: lookup, samples: values, isWrite: false) {
                finding.measurements = [SchemaMeasurement(operation: "lookup: \(lookup)", withIndex: with, withoutIndex: without,
                                                          isSignificant: with.isSlower(than: without) || without.isSlower(than: with))]
            }
            findings.append(finding)
        }
        return findings
    }

    // MARK: Uniqueness

    private func uniqueness(in table: Table) -> [SchemaFinding] {
        var findings: [SchemaFinding] = []
        for index in table.indexes where index.isUnique && index.origin != .primaryKey && index.name.contains("UNIQUE") {
            findings.append(SchemaFinding(kind: .uniqueRule, table: table.name, columns: index.columnNames, index: index.name,
                                          detail: .uniqueRule))
        }
        guard table.rowCount >= 100, !table.isWithoutRowid else { return findings }
        let naming = SwiftDataNaming(schema: schema)
        for column in table.columns where !column.isRowidAlias && !column.isHidden && UniquenessAudit.looksLikeIdentifier(column.name)
            && !column.name.uppercased().hasPrefix("Z_") {
            let covered = table.indexes.contains { $0.isUnique && $0.columns.count == 1 && $0.columns.first?.name?.sqlFolded == column.name.sqlFolded }
            guard !covered, !ForeignKeys.isChildColumn(column.name, of: table, connection: snapshot.connection) else { continue }
            let quoted = SQLIdentifier.quote(column.name)
            guard let row = try? snapshot.connection.query("SELECT count(\(quoted)), count(DISTINCT \(quoted)) FROM \(SQLIdentifier.quote(table.name))").first,
                  let present = row[0].integerValue, let distinct = row[1].integerValue,
                  present == Int64(table.rowCount), distinct == present else { continue }
            var next = IdentityAdvice.uniqueIndex
            var macro: String?
            if let entity = schema.coreData?.rootEntity(ofTable: table.name)?.name {
                next = .nothing
                if schema.coreData?.isCloudKitSynced == true {
                    next = .cloudKitForbids
                } else {
                    let property = naming.propertyName(forColumn: column.name).name
                    if SwiftDataCode.isSwiftIdentifier(entity), SwiftDataCode.isSwiftIdentifier(property) {
                        macro = "#Unique<\(entity)>([\\.\(property)])"
                        next = .declareOn(entity: entity)
                    }
                }
            }
            findings.append(SchemaFinding(kind: .identityColumn, table: table.name, columns: [column.name],
                                          detail: .identityColumn(rows: table.rowCount, next: next), swiftDataUnique: macro))
        }
        return findings
    }

    // MARK: Helpers

    private mutating func sampleRowids(of table: Table, count: Int) -> [Int64] {
        guard let bounds = try? snapshot.connection.query("SELECT min(rowid), max(rowid) FROM \(SQLIdentifier.quote(table.name))").first,
              let low = bounds[0].integerValue, let high = bounds[1].integerValue else { return [] }
        var generator = SeededGenerator(seed: seed)
        seed &+= 1
        let span = UInt64(bitPattern: high &- low) &+ 1
        return (0..<count).compactMap { _ in
            let pick = low &+ Int64(bitPattern: span == 0 ? generator.next() : generator.next() % span)
            return (try? snapshot.connection.scalar("SELECT rowid FROM \(SQLIdentifier.quote(table.name)) WHERE rowid >= ? ORDER BY rowid LIMIT 1", [.integer(pick)]))??.integerValue
        }
    }

    private mutating func sampleValues(of column: String, in table: Table, count: Int) -> [SQLValue] {
        sampleRowids(of: table, count: count).compactMap { rowid in
            (try? snapshot.connection.scalar("SELECT \(SQLIdentifier.quote(column)) FROM \(SQLIdentifier.quote(table.name)) WHERE rowid = ?", [.integer(rowid)])) ?? nil
        }
    }
}
