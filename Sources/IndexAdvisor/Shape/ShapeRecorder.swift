import CSQLite

/// Collects what SQLite reports while preparing and running one statement against the shape database:
/// `xBestIndex` constraints and ORDER BY terms, `xFilter` and `xUpdate` values (to map parameters to
/// columns), `xFindFunction` calls, and the authorizer's reads and writes.
final class ShapeRecorder {
    /// A table of the store, mirrored by one virtual table.
    struct MirroredTable {
        var name: String
        var columns: [String]
        var declaration: String
    }

    struct RecordedConstraint: Hashable {
        var column: Int32
        var op: ConstraintOperator
        var collation: String
    }

    /// Per-table observations for the statement being examined.
    struct Observation {
        var constraints: [RecordedConstraint] = []
        var orderBy: [(column: Int32, descending: Bool)] = []
        var parameterOf: [RecordedConstraint: Int] = [:]
        var joined: Set<RecordedConstraint> = []
        var read: [String] = []
        var written: Set<Int> = []
        var writtenByName: [String] = []
        var inserted = false
        var updated = false
        var deleted = false
        var functions: [String] = []
        var touched = false
        /// The columns constrained in the first `xBestIndex` call for this table: the WHERE clause's terms
        /// as a whole. SQLite plans each branch of an OR across columns (`a = ? OR b = ?`) afterwards, with a
        /// call of its own that holds only that branch's terms (where.c, `whereLoopAddOr`; eqp.html, MULTI-INDEX OR).
        var firstCallColumns: [Int32]? = nil
        /// The columns of each later call that constrains a column the first did not: an OR's branches.
        var orBranches: [[Int32]] = []
    }

    /// Parameters are bound to `sentinelBase + index` so that values reaching `xFilter`/`xUpdate` name them.
    static let sentinelBase: Int64 = 8_000_000_000_000_000_000

    var tables: [MirroredTable] = []
    var observations: [Int: Observation] = [:]
    /// The constraints behind each `idxNum` handed out by `xBestIndex`, in `argv` order.
    var plans: [(table: Int, constraints: [RecordedConstraint])] = []
    var parameterTargets: [ParameterTarget] = []
    /// The same targets, for a constant-time look-up.
    private var recordedTargets: Set<ParameterTarget> = []
    var authorizing = false

    func reset() {
        observations = [:]
        plans = []
        parameterTargets = []
        recordedTargets = []
    }

    private func index(ofTable name: String) -> Int? {
        let key = name.sqlFolded
        return tables.firstIndex { $0.name.sqlFolded == key }
    }

    // MARK: Virtual-table callbacks

    func bestIndex(table: Int, info: UnsafeMutablePointer<sqlite3_index_info>) -> Int32 {
        var observation = observations[table] ?? Observation()
        observation.touched = true
        var argument: Int32 = 0
        var used: [RecordedConstraint] = []
        var callColumns: [Int32] = []
        for i in 0..<Int(info.pointee.nConstraint) {
            let constraint = info.pointee.aConstraint[i]
            var op = ConstraintOperator(sqliteOperator: Int32(constraint.op))
            if op == .equal, sqlite3_vtab_in(info, Int32(i), -1) != 0 { op = .in }
            let collation = sqlite3_vtab_collation(info, Int32(i)).map { String(cString: $0) } ?? "BINARY"
            let recorded = RecordedConstraint(column: constraint.iColumn, op: op, collation: collation)
            if !observation.constraints.contains(recorded) { observation.constraints.append(recorded) }
            if op != .limit, op != .offset, !callColumns.contains(recorded.column) { callColumns.append(recorded.column) }
            if constraint.usable != 0 {
                argument += 1
                info.pointee.aConstraintUsage[i].argvIndex = argument
                info.pointee.aConstraintUsage[i].omit = 1
                used.append(recorded)
            }
        }
        if let first = observation.firstCallColumns {
            let branch = callColumns.filter { !first.contains($0) }
            if !branch.isEmpty, !observation.orBranches.contains(branch) { observation.orBranches.append(branch) }
        } else {
            observation.firstCallColumns = callColumns
        }
        let orderCount = Int(info.pointee.nOrderBy)
        if orderCount > 0, observation.orderBy.isEmpty {
            observation.orderBy = (0..<orderCount).map { j in
                (info.pointee.aOrderBy[j].iColumn, info.pointee.aOrderBy[j].desc != 0)
            }
        }
        info.pointee.orderByConsumed = orderCount > 0 ? 1 : 0
        // Plans that use more constraints are cheaper, so the one that runs receives every parameter.
        info.pointee.estimatedCost = 1_000_000 / Double(1 + Int(argument) * Int(argument))
        info.pointee.estimatedRows = 1
        info.pointee.idxNum = Int32(plans.count)
        plans.append((table, used))
        observations[table] = observation
        return SQLITE_OK
    }

    func filter(table: Int, plan: Int, arguments: [OpaquePointer?]) {
        guard plan >= 0, plan < plans.count else { return }
        let constraints = plans[plan].constraints
        var observation = observations[table] ?? Observation()
        for (k, value) in arguments.enumerated() where k < constraints.count {
            let constraint = constraints[k]
            if let parameter = sentinel(value) {
                observation.parameterOf[constraint] = parameter
                recordTarget(parameter: parameter, table: table, column: Int(constraint.column), op: constraint.op)
            } else if sqlite3_value_type(value) == SQLITE_NULL, constraint.op != .isNull, constraint.op != .isNotNull {
                observation.joined.insert(constraint)
            }
        }
        observations[table] = observation
    }

    func update(table: Int, arguments: [OpaquePointer?]) {
        var observation = observations[table] ?? Observation()
        observation.touched = true
        if arguments.count == 1 {
            observation.deleted = true
        } else if sqlite3_value_type(arguments[0]) == SQLITE_NULL {
            observation.inserted = true
            for column in 0..<(arguments.count - 2) {
                observation.written.insert(column)
                if let parameter = sentinel(arguments[column + 2]) {
                    recordTarget(parameter: parameter, table: table, column: column, op: nil)
                }
            }
        } else {
            observation.updated = true
            for column in 0..<(arguments.count - 2) where sqlite3_value_nochange(arguments[column + 2]) == 0 {
                observation.written.insert(column)
                if let parameter = sentinel(arguments[column + 2]) {
                    recordTarget(parameter: parameter, table: table, column: column, op: nil)
                }
            }
        }
        observations[table] = observation
    }

    func findFunction(table: Int, name: String) {
        var observation = observations[table] ?? Observation()
        if !observation.functions.contains(name) { observation.functions.append(name) }
        observations[table] = observation
    }

    // MARK: Authorizer (https://sqlite.org/c3ref/set_authorizer.html)

    func authorize(action: Int32, first: String?, second: String?) {
        guard authorizing else { return }
        switch action {
        case SQLITE_READ:
            guard let name = first, let table = index(ofTable: name), let column = second, !column.isEmpty else { return }
            var observation = observations[table] ?? Observation()
            observation.touched = true
            if !observation.read.contains(column) { observation.read.append(column) }
            observations[table] = observation
        case SQLITE_INSERT, SQLITE_DELETE, SQLITE_UPDATE:
            guard let name = first, let table = index(ofTable: name) else { return }
            var observation = observations[table] ?? Observation()
            observation.touched = true
            if action == SQLITE_INSERT { observation.inserted = true }
            if action == SQLITE_DELETE { observation.deleted = true }
            if action == SQLITE_UPDATE {
                observation.updated = true
                if let column = second, !observation.writtenByName.contains(column) { observation.writtenByName.append(column) }
            }
            observations[table] = observation
        default:
            return
        }
    }

    // MARK: Helpers

    private func sentinel(_ value: OpaquePointer?) -> Int? {
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { return nil }
        let raw = sqlite3_value_int64(value)
        let offset = raw &- Self.sentinelBase
        guard offset > 0, offset < 1_000_000 else { return nil }
        return Int(offset)
    }

    private func recordTarget(parameter: Int, table: Int, column: Int, op: ConstraintOperator?) {
        let columnName = columnName(table: table, column: Int32(column))
        let target = ParameterTarget(parameter: parameter, table: tables[table].name, column: columnName, op: op)
        if recordedTargets.insert(target).inserted { parameterTargets.append(target) }
    }

    func columnName(table: Int, column: Int32) -> String {
        column >= 0 && Int(column) < tables[table].columns.count ? tables[table].columns[Int(column)] : "rowid"
    }
}
