import Foundation

extension AnalysisRun {
    /// `ZNOTE: ZFOLDERID =, ZISARCHIVED =; ORDER BY ZUPDATEDAT DESC`.
    static func summary(_ shape: StatementShape) -> String {
        shape.tables.map { access in
            var parts: [String] = []
            let filters = access.constraints.filter { !$0.column.isEmpty }.map { constraint -> String in
                let value = constraint.isJoin ? " (join)" : ""
                let op = constraint.op == .isNull || constraint.op == .isNotNull ? " \(constraint.op.rawValue)" : " \(constraint.op.rawValue)"
                return constraint.column + op + value
            }
            if !filters.isEmpty { parts.append(filters.joined(separator: ", ")) }
            if !access.orderBy.isEmpty {
                parts.append("ORDER BY " + access.orderBy.map { term in
                    term.column + (term.collation.uppercased() == "BINARY" ? "" : " COLLATE \(term.collation)") + (term.isDescending ? " DESC" : "")
                }.joined(separator: ", "))
            }
            if access.isInserted { parts.append("INSERT") }
            if access.isUpdated { parts.append("UPDATE " + access.updatedColumns.joined(separator: ", ")) }
            if access.isDeleted { parts.append("DELETE") }
            if !access.columnFunctions.isEmpty { parts.append("calls " + access.columnFunctions.joined(separator: ", ")) }
            return access.table + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
        }.joined(separator: " · ")
    }
}
