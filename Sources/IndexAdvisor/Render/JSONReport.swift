import Foundation
import CSQLite

/// The JSON report: ``AnalysisResult`` encoded with sorted keys. Times are seconds, sizes bytes; optional
/// fields are left out when they have no value. `schemaVersion` changes when a field changes meaning or
/// is removed; adding a field does not change it, so readers ignore fields they do not know. Every field
/// is described in docs/report-json.md.
public enum JSONReport {
    public static func render(_ result: AnalysisResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            // The method's paragraph is the renderers' words for its fields, carried for readers of the JSON.
            var result = result
            result.method.description = result.methodText
            // So is each recommendation's model declaration, or why it is SQL only (hostile round 6, F9).
            for position in result.recommendations.indices {
                result.recommendations[position].modelDeclaration = result.modelDeclarationText(for: result.recommendations[position])
            }
            return String(decoding: try encoder.encode(result), as: UTF8.self) + "\n"
        } catch {
            // Every field is a plain value; this cannot happen, but an empty object must never pass for a report.
            return "{\"schemaVersion\": \(AnalysisResult.currentSchemaVersion), \"error\": \(String(reflecting: String(describing: error)))}\n"
        }
    }

    /// Reads a JSON report back (a baseline saved by an earlier run, or any format's source).
    /// - Throws: ``JSONReportError`` when the text is JSON but not a report, a report of a newer schema
    ///   version than this build reads, or one edited to hold code indexadvisor does not write or a figure no
    ///   measurement gives (a negative time, count or size, any figure beyond 10^15), one that is not JSON, or one whose field is missing
    ///   or has the wrong type (``JSONReportError/unreadableField(_:)``, naming it).
    public static func decode(_ data: Data) throws -> AnalysisResult {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let version: Int
        do {
            guard let found = try decoder.decode(VersionProbe.self, from: data).schemaVersion else { throw JSONReportError.notAReport }
            version = found
        } catch let error as JSONReportError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty
                    && data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") {
            // Text that opens a JSON object but does not parse was cut short or damaged: say so, not that a
            // field is missing. Text that opens no object is some other file.
            throw JSONReportError.notJSON("cut short, damaged, or holding a value JSON has no form for, such as a bare NaN or 1e400")
        } catch {
            throw JSONReportError.notAReport
        }
        guard version >= 1 else { throw JSONReportError.notAReport }
        guard version <= AnalysisResult.currentSchemaVersion else {
            throw JSONReportError.newerSchema(found: version, supported: AnalysisResult.currentSchemaVersion)
        }
        let result: AnalysisResult
        do {
            result = try decoder.decode(AnalysisResult.self, from: data)
        } catch let error as DecodingError {
            // A number too large for its field (`1e300` where a count is an integer) fails as the whole text,
            // with no path: name the field from the JSON itself.
            if let problem = numberBeyondRange(in: data) { throw JSONReportError.impossibleFigure(problem) }
            throw JSONReportError.unreadableField(Self.describe(error))
        }
        if let problem = codeProblem(in: result) { throw JSONReportError.unsafeField(problem) }
        if let problem = figureProblem(in: result) { throw JSONReportError.impossibleFigure(problem) }
        return result
    }

    /// The first field that `render` would print as code (SQL statements, Swift macros) but that is not
    /// what indexadvisor writes there, or nil. A report is a file in a repository that anyone can edit in a
    /// pull request: a `DROP TABLE` appended to a `CREATE INDEX`, or a line of Swift in a key path, must
    /// not reach a migration or source file.
    /// True when `recommendation.sql` is the statement indexadvisor writes for its name, table, columns (each a
    /// column's name, or an expression, in parentheses) and partial predicate: the migration prints `sql`, the
    /// other formats print the fields, and an edited report must not say one index in one and another in the
    /// other (a breaking helper's `sql` held a `load_extension(…)` expression that its columns did not).
    static func describes(_ recommendation: Recommendation) -> Bool {
        var rest = Substring(recommendation.sql)
        func take(_ text: String) -> Bool {
            guard rest.hasPrefix(text) else { return false }
            rest = rest.dropFirst(text.count)
            return true
        }
        guard take("CREATE INDEX ") else { return false }
        _ = take("IF NOT EXISTS ")
        guard take(SQLIdentifier.quote(recommendation.name) + " ON " + SQLIdentifier.quote(recommendation.table) + " (") else { return false }
        for (position, column) in recommendation.columns.enumerated() {
            var suffix = column.collation.uppercased() == "BINARY" ? "" : " COLLATE " + SQLIdentifier.quote(column.collation)
            if column.isDescending { suffix += " DESC" }
            suffix += position == recommendation.columns.count - 1 ? ")" : ", "
            guard take(SQLIdentifier.quote(column.name) + suffix) || take("(" + column.name + ")" + suffix) else { return false }
        }
        if let predicate = recommendation.partialPredicate, !take(" WHERE " + predicate) { return false }
        return rest.isEmpty || rest == ";"
    }

    static func codeProblem(in result: AnalysisResult) -> String? {
        // `CREATE [UNIQUE] INDEX … ON t (…) [WHERE …] [;]` and `DROP INDEX [IF EXISTS] [s.]i [;]`, one statement.
        // Complete with the `;` the migration appends: no comment or string left open to swallow what follows.
        func closed(_ sql: String) -> Bool { sqlite3_complete(sql + ";") == 1 }
        func createIndex(_ sql: String) -> Bool {
            guard closed(sql) else { return false }
            let tokens = SQLTokenList(sql)
            // One statement: no `;` but a last one, no subquery (SQLite refuses one in an index's expressions
            // and WHERE, and a breaking helper's `;\nDROP TABLE book;` after the ON passed while `;` was taken
            // for a symbol, which the tokenizer never makes it). After ON, the table's name, then its key.
            guard tokens.isWord(0, "CREATE"), tokens.isWord(1, "INDEX") || (tokens.isWord(1, "UNIQUE") && tokens.isWord(2, "INDEX")),
                  !(0..<max(0, tokens.count - 1)).contains(where: { tokens.isSemicolon($0) }),
                  !(0..<tokens.count).contains(where: { tokens.isWord($0, "SELECT") }),
                  let on = (0..<tokens.count).first(where: { tokens.isWord($0, "ON") }), tokens.isNameToken(on + 1) else { return false }
            let open = tokens.isSymbol(on + 2, ".") && tokens.isNameToken(on + 3) ? on + 4 : on + 2
            guard tokens.isSymbol(open, "(") else { return false }
            var depth = 0, close = open
            for i in open..<tokens.count {
                if tokens.isSymbol(i, "(") { depth += 1 }
                if tokens.isSymbol(i, ")") { depth -= 1; if depth == 0 { close = i; break } }
            }
            guard depth == 0 else { return false }
            let next = close + 1
            return next == tokens.count || tokens.isWord(next, "WHERE") || (tokens.isSemicolon(next) && next == tokens.count - 1)
        }
        func dropIndex(_ sql: String) -> Bool {
            guard closed(sql) else { return false }
            let tokens = SQLTokenList(sql)
            guard tokens.isWord(0, "DROP"), tokens.isWord(1, "INDEX") else { return false }
            var i = tokens.isWord(2, "IF") && tokens.isWord(3, "EXISTS") ? 4 : 2
            guard i < tokens.count else { return false }
            i += 1
            if tokens.isSymbol(i, "."), i + 1 < tokens.count { i += 2 }
            return i == tokens.count || (tokens.isSemicolon(i) && i == tokens.count - 1)
        }
        func keyPath(_ path: String) -> Bool {
            guard path.hasPrefix("\\.") else { return false }
            return path.dropFirst(2).split(separator: ".", omittingEmptySubsequences: false).allSatisfy { SwiftDataCode.isSwiftIdentifier(String($0)) }
        }
        // `#Name<Entity>([\.a, \.b], [\.c])`, parsed whole.
        func macro(_ code: String, _ name: String) -> Bool {
            let prefix = "#\(name)<"
            guard code.hasPrefix(prefix), code.hasSuffix("])"), let close = code.firstIndex(of: ">"),
                  SwiftDataCode.isSwiftIdentifier(String(code[code.index(code.startIndex, offsetBy: prefix.count)..<close])) else { return false }
            let body = code[code.index(after: close)...]
            guard body.hasPrefix("([") else { return false }
            let lists = body.dropFirst(2).dropLast(2).components(separatedBy: "], [")
            return lists.allSatisfy { list in list.components(separatedBy: ", ").allSatisfy(keyPath) }
        }
        for (offset, recommendation) in result.recommendations.enumerated() {
            let field = "recommendations[\(offset)]"
            if !createIndex(recommendation.sql) {
                return "\(field).sql is not one CREATE INDEX statement"
            }
            if !Self.describes(recommendation) {
                return "\(field).sql does not create the index its name, table, columns and partialPredicate give"
            }
            // Entity and key paths become Swift code only with a `#Index` (an entity named "My Note" has none).
            if let code = recommendation.swiftDataIndex {
                if !macro(code, "Index") { return "\(field).swiftDataIndex is not one #Index line" }
                if let entity = recommendation.entity, !SwiftDataCode.isSwiftIdentifier(entity) { return "\(field).entity is not a Swift type name" }
                if recommendation.columns.contains(where: { $0.keyPath.map { !keyPath($0) } ?? true }) { return "\(field).columns has a keyPath that is not a Swift key path" }
            }
        }
        for (offset, finding) in result.existingIndexes.enumerated() {
            if let drop = finding.dropSQL, !dropIndex(drop) { return "existingIndexes[\(offset)].dropSQL is not one DROP INDEX statement" }
        }
        // An effect names a statement of the report: the renderers print its label ("S2"), never the raw text.
        let statementIDs = Set(result.statements.map(\.id))
        for (offset, recommendation) in result.recommendations.enumerated() {
            if let effect = recommendation.effects.firstIndex(where: { !statementIDs.contains($0.statementID) }) {
                return "recommendations[\(offset)].effects[\(effect)].statementID names no statement of the report"
            }
        }
        for (offset, alternative) in (result.alternatives ?? []).enumerated() {
            if !createIndex(alternative.sql) { return "alternatives[\(offset)].sql is not one CREATE INDEX statement" }
            if let effect = alternative.effects.firstIndex(where: { !statementIDs.contains($0.statementID) }) {
                return "alternatives[\(offset)].effects[\(effect)].statementID names no statement of the report"
            }
        }
        for (offset, finding) in result.uniqueness.enumerated() {
            if let code = finding.swiftDataUnique, !macro(code, "Unique") { return "uniqueness[\(offset)].swiftDataUnique is not one #Unique line" }
            // The Core Data forms are pasted into code and XML: names only.
            if let names = finding.coreDataConstraint, !(names + [finding.coreDataEntity ?? "x"]).allSatisfy(SwiftDataCode.isSwiftIdentifier) {
                return "uniqueness[\(offset)].coreDataConstraint holds a name that is not a Swift identifier"
            }
        }
        for (offset, recommendation) in result.recommendations.enumerated() {
            if let index = recommendation.fetchIndex, !([index.entity, index.name] + index.elements.map(\.property)).allSatisfy(SwiftDataCode.isSwiftIdentifier) {
                return "recommendations[\(offset)].fetchIndex holds a name that is not a Swift identifier"
            }
        }
        for (offset, recommendation) in result.recommendations.enumerated()
        where ![recommendation.readSecondsSaved, recommendation.writeSecondsAdded, recommendation.netSecondsSaved].allSatisfy(\.isFinite)
            || recommendation.writeSecondsAdded < 0 {
            return "recommendations[\(offset)] holds a saving that is not a number or a negative write time"
        }
        return nil
    }

    /// A `DecodingError` in one line: the field's path (`statements[2].timingBefore`) and what is wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let all = keys + (last.map { [$0] } ?? [])
            let text = all.reduce("") { text, key in
                key.intValue.map { "\(text)[\($0)]" } ?? (text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)")
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath, key)) is missing"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) is null"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) is not \(type == String.self ? "text" : "a \(type)")"
        case .dataCorrupted(let context): return "\(path(context.codingPath)) cannot be read (a number out of range, or a value of the wrong form)"
        @unknown default: return "a field cannot be read"
        }
    }

    private struct VersionProbe: Decodable {
        var schemaVersion: Int?
    }
}

/// Why a JSON text cannot be read as a report.
public enum JSONReportError: Error, Equatable, CustomStringConvertible {
    /// Not a JSON object with an integer `schemaVersion`.
    case notAReport
    /// Written by a newer indexadvisor whose schema this build does not know.
    case newerSchema(found: Int, supported: Int)
    /// A field that reports print as code holds something indexadvisor does not write there.
    case unsafeField(String)
    /// A figure no measurement gives (a negative time, count or size, a figure beyond 10^15), named by its path.
    case impossibleFigure(String)
    /// Not JSON: cut short, damaged, or empty; why.
    case notJSON(String)
    /// JSON, but a field is missing or of the wrong type: its path and what is wrong.
    case unreadableField(String)

    public var description: String {
        switch self {
        case .notAReport:
            return "not an indexadvisor JSON report (no integer schemaVersion at the top level)"
        case .newerSchema(let found, let supported):
            return "the report has schemaVersion \(found); this indexadvisor reads up to \(supported): update indexadvisor"
        case .unsafeField(let problem):
            return "the report was edited: \(problem); regenerate it with analyze --format json"
        case .notJSON(let why):
            return "not valid JSON (\(why)); regenerate it with analyze --format json"
        case .unreadableField(let problem):
            return "not a report this indexadvisor reads: \(problem)"
        case .impossibleFigure(let problem):
            return "the report holds a figure no measurement gives: \(problem); regenerate it with analyze --format json"
        }
    }
}
