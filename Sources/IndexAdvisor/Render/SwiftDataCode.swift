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

    /// True when an `#Index` can declare an index on `columns` with `partialPredicate`: the same rule as
    /// ``isDeclarable(_:)``, on a recommendation's columns.
    public static func isDeclarable(columns: [RecommendedColumn], partialPredicate: String?) -> Bool {
        partialPredicate == nil && columns.allSatisfy { column in
            !column.isDescending && column.collation.uppercased() == "BINARY" && !column.name.uppercased().hasPrefix("Z_")
        }
    }

    /// `#Index<Entity>([\.a, \.b])` for a recommendation's columns, or nil when it cannot be declared or a
    /// column has no key path.
    public static func indexMacro(entity: String, columns: [RecommendedColumn], partialPredicate: String?) -> String? {
        guard isDeclarable(columns: columns, partialPredicate: partialPredicate), isSwiftIdentifier(entity) else { return nil }
        let paths = columns.compactMap(\.keyPath)
        guard paths.count == columns.count, paths.allSatisfy({ isSwiftIdentifier(String($0.dropFirst(2))) }) else { return nil }
        return "#Index<\(entity)>([\(paths.joined(separator: ", "))])"
    }

    /// The declarations for `recommendations`, one `#Index` line per model with every index of that model:
    /// `#Index<Note>([\.folderID, \.isArchived, \.updatedAt], [\.remoteID])`. Indexes the model already
    /// declares (``Recommendation/declaredInModel``) are left out.
    public static func declarations(for recommendations: [Recommendation]) -> [String] {
        declarationsByModel(for: recommendations).map(\.declaration)
    }

    /// ``declarations(for:)`` with the model each line belongs in, in the order of first appearance.
    public static func declarationsByModel(for recommendations: [Recommendation]) -> [(model: String, declaration: String)] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for recommendation in recommendations where recommendation.declaredInModel == nil {
            guard let entity = recommendation.entity, recommendation.swiftDataIndex != nil else { continue }
            let paths = "[" + recommendation.columns.compactMap(\.keyPath).joined(separator: ", ") + "]"
            if groups[entity] == nil { order.append(entity) }
            groups[entity, default: []].append(paths)
        }
        return order.map { ($0, "#Index<\($0)>(\(groups[$0]!.joined(separator: ", ")))") }
    }

    /// `#Unique<Note>([\.remoteID], [\.folderID, \.slug])`, one line per model, for the proposed rules
    /// that hold in the data (never for a CloudKit store: the audit leaves those without a macro).
    public static func uniqueDeclarations(for findings: [UniquenessFinding]) -> [String] {
        uniqueDeclarationsByModel(for: findings).map(\.declaration)
    }

    /// ``uniqueDeclarations(for:)`` with the model each line belongs in.
    public static func uniqueDeclarationsByModel(for findings: [UniquenessFinding]) -> [(model: String, declaration: String)] {
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
        return order.map { ($0, "#Unique<\($0)>(\(groups[$0]!.joined(separator: ", ")))") }
    }
}
