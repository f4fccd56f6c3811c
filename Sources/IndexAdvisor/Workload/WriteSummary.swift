/// Executions of INSERT, UPDATE and DELETE statements on one table (every index on the table is
/// maintained by each of them).
public struct TableWrites: Sendable, Codable, Equatable {
    /// The table as the first statement naming it wrote it.
    public var table: String
    /// Executions of INSERT (and REPLACE) statements into the table.
    public var inserts = 0
    /// Executions of UPDATE statements on the table.
    public var updates = 0
    /// Executions of DELETE statements from the table.
    public var deletes = 0
    /// UPDATE executions per assigned column (a column assigned by several statements adds their counts).
    public var updatedColumns: [String: Int] = [:]

    public init(table: String) { self.table = table }

    /// inserts + updates + deletes.
    public var total: Int { inserts.addingSaturating(updates).addingSaturating(deletes) }
}

/// Transaction statements executed: `BEGIN`, `COMMIT`/`END`, `ROLLBACK`, `SAVEPOINT`/`RELEASE`.
public struct TransactionCounts: Sendable, Codable, Equatable {
    /// `BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE]` executions.
    public var begins = 0
    /// `COMMIT` and `END` executions.
    public var commits = 0
    /// `ROLLBACK` executions that end a transaction.
    public var rollbacks = 0
    /// `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` executions.
    public var savepoints = 0

    public init() {}
}

extension Workload {
    /// Writes per table, the most written first (ties by name); Core Data's bookkeeping included. The
    /// target table of a write is the first table it names (`INSERT INTO t … SELECT … FROM u` writes `t`).
    public var writesByTable: [TableWrites] {
        var order: [String] = []
        var byTable: [String: TableWrites] = [:]
        for statement in statements where statement.kind.isWrite {
            guard let table = statement.tables.first else { continue }
            let key = table.sqlFolded
            if byTable[key] == nil {
                order.append(key)
                byTable[key] = TableWrites(table: table)
            }
            switch statement.kind {
            case .insert: byTable[key]!.inserts = byTable[key]!.inserts.addingSaturating(statement.count)
            case .update: byTable[key]!.updates = byTable[key]!.updates.addingSaturating(statement.count)
            case .delete: byTable[key]!.deletes = byTable[key]!.deletes.addingSaturating(statement.count)
            default: break
            }
            // An UPDATE's SET columns, and an upsert's DO UPDATE SET columns (its rows count as inserts).
            for column in statement.updatedColumns {
                byTable[key]!.updatedColumns[column, default: 0] = byTable[key]!.updatedColumns[column, default: 0].addingSaturating(statement.count)
            }
        }
        return order.compactMap { byTable[$0] }.sorted { ($0.total, $1.table) > ($1.total, $0.table) }
    }

    /// Transaction statements executed, by kind.
    public var transactions: TransactionCounts {
        var counts = TransactionCounts()
        for statement in statements where statement.kind == .transaction {
            let verb = statement.sql.prefix { $0.isLetter }.uppercased()
            switch verb {
            case "BEGIN": counts.begins = counts.begins.addingSaturating(statement.count)
            case "COMMIT", "END": counts.commits = counts.commits.addingSaturating(statement.count)
            case "ROLLBACK":
                // ROLLBACK TO a savepoint ends no transaction.
                if statement.fingerprint.text.hasPrefix("ROLLBACK TO") || statement.fingerprint.text.hasPrefix("ROLLBACK TRANSACTION TO") {
                    counts.savepoints = counts.savepoints.addingSaturating(statement.count)
                } else {
                    counts.rollbacks = counts.rollbacks.addingSaturating(statement.count)
                }
            default: counts.savepoints = counts.savepoints.addingSaturating(statement.count)
            }
        }
        return counts
    }
}

extension Int {
    /// The sum, or Int.max when it would overflow.
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}
