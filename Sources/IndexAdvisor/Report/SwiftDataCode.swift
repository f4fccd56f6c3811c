import Foundation

/// SwiftData `#Index` declarations for recommended indexes, grouped per model.
///
/// `#Index<Note>([\.folderID, \.isArchived, \.updatedAt])` declares a compound index on the model; SwiftData
/// creates it (ascending, binary collation, named `Z_Note_SwiftDataIndexOnBinary…`) only when it creates
/// a store, so an existing store also needs the literal `CREATE INDEX IF NOT EXISTS` with that name.
public enum SwiftDataCode {
    /// True when an `#Index` can declare `candidate`: plain attribute columns, ascending, binary collation,
    /// no partial predicate (SwiftData's `#Index` has no direction, collation or predicate), and no Core
    /// Data bookkeeping column (`Z_PK`, `Z_ENT`, `Z_OPT`).
    public static func isDeclarable(_ candidate: IndexCandidate) -> Bool {
        candidate.partialPredicate == nil && candidate.columns.allSatisfy { column in
            guard let name = column.name else { return false }
            return !column.isDescending && column.collation.uppercased() == "BINARY" && !name.uppercased().hasPrefix("Z_")
        }
    }

    /// True for a plain Swift identifier (letters, digits, `_`, not starting with a digit): names from a
    /// store that are not are never pasted into generated Swift.
    public static func isSwiftIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }

    /// `#Index<Entity>([\.a, \.b])`, or nil when the candidate cannot be declared.
    static func indexMacro(entity: String, columns: [RecommendedColumn], candidate: IndexCandidate) -> String? {
        guard isDeclarable(candidate), isSwiftIdentifier(entity) else { return nil }
        let paths = columns.compactMap(\.keyPath)
        guard paths.count == columns.count, paths.allSatisfy({ isSwiftIdentifier(String($0.dropFirst(2))) }) else { return nil }
        return "#Index<\(entity)>([\(paths.joined(separator: ", "))])"
    }

    /// The declarations for `recommendations`, one `#Index` line per model with every index of that model:
    /// `#Index<Note>([\.folderID, \.isArchived, \.updatedAt], [\.remoteID])`.
    public static func declarations(for recommendations: [Recommendation]) -> [String] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for recommendation in recommendations {
            guard let entity = recommendation.entity, recommendation.swiftDataIndex != nil else { continue }
            let paths = "[" + recommendation.columns.compactMap(\.keyPath).joined(separator: ", ") + "]"
            if groups[entity] == nil { order.append(entity) }
            groups[entity, default: []].append(paths)
        }
        return order.map { "#Index<\($0)>(\(groups[$0]!.joined(separator: ", ")))" }
    }

    /// `#Unique<Note>([\.remoteID], [\.folderID, \.slug])`, one line per model, for the proposed rules
    /// that hold in the data (never for a CloudKit store: the audit leaves those without a macro).
    public static func uniqueDeclarations(for findings: [UniquenessFinding]) -> [String] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for finding in findings {
            guard let macro = finding.swiftDataUnique, let open = macro.firstIndex(of: "<"), let close = macro.firstIndex(of: ">"),
                  let list = macro.range(of: "([") else { continue }
            let entity = String(macro[macro.index(after: open)..<close])
            let paths = String(macro[macro.index(after: list.lowerBound)..<macro.index(before: macro.endIndex)])
            if groups[entity] == nil { order.append(entity) }
            groups[entity, default: []].append(paths)
        }
        return order.map { "#Unique<\($0)>(\(groups[$0]!.joined(separator: ", ")))" }
    }
}
