/// The executions to time for a workload statement: its text as the app ran it.
///
/// A statement's fingerprint replaces literals with `?` so that `LIMIT 20` and `LIMIT 50` group together;
/// but SQLite's planner reads literal values (a LIMIT, a constant compared with an indexed column, a LIKE
/// pattern: optoverview.html), so `LIMIT ?` can get another join order than `LIMIT 20`. Each value set is
/// therefore timed as its own text: parameters that were literals in the app's statement are written back
/// as literals, placeholders the app bound itself stay parameters and are bound.
package enum LiteralExecutions {
    /// The most parameters a statement is given bound: SQLite's default `SQLITE_MAX_VARIABLE_NUMBER`
    /// since 3.32 (https://sqlite.org/limits.html#max_variable_number); builds may allow more.
    static let maxBoundParameters = 32_766

    /// One ``Execution`` per value set in `samples` (each a full tuple of `statement.parameterCount`
    /// values, or of a variant's: an IN list of another length, timed as its own text,
    /// ``WorkloadStatement/form(forParameterCount:)``), with `weights` (one per sample; 1 each when nil).
    ///
    /// Falls back to binding every value to the parameterised text when that text's parameters are not
    /// plain `?` in order (numbered or named placeholders), so the tuple's order cannot be trusted to
    /// match the text's.
    package static func executions(for statement: WorkloadStatement, samples: [[SQLValue]], weights: [Double]? = nil) -> [Execution] {
        guard !samples.isEmpty else { return [Execution(sql: statement.sql, values: [])] }
        let weight = { (index: Int) -> Double in weights.map { index < $0.count ? $0[index] : 1 } ?? 1 }
        var texts: [Int: Text] = [:]
        return samples.enumerated().map { index, sample in
            let text = texts[sample.count] ?? Text(statement.form(forParameterCount: sample.count))
            texts[sample.count] = text
            return text.execution(sample, weight: weight(index))
        }
    }

    /// One text's parameters, read once for all its value sets.
    private struct Text {
        let form: StatementVariant
        let tokens: SQLTokenList
        let parameters: [Int]
        /// Every value written in as a literal (more placeholders than SQLite binds).
        let inlineAll: Bool
        /// False when the values are bound to the parameterised text as they are.
        let writesLiterals: Bool

        init(_ form: StatementVariant) {
            self.form = form
            let tokens = SQLTokenList(form.sql)
            let parameters = tokens.tokens.indices.filter { tokens.tokens[$0].kind == .parameter }
            let literalPositions = form.literalValues.enumerated().filter { $0.element != nil }.map(\.offset)
            // More placeholders than SQLite binds (a recorded statement with a 300,000-value IN list): every value
            // is written in as a literal, as the app's SQLite, built with a higher limit, received it.
            let plain = parameters.allSatisfy { tokens.text(at: $0) == "?" }
            let inlineAll = parameters.count > maxBoundParameters && plain
            self.tokens = tokens
            self.parameters = parameters
            self.inlineAll = inlineAll
            writesLiterals = inlineAll || (!literalPositions.isEmpty && parameters.count == form.literalValues.count && plain)
        }

        func execution(_ sample: [SQLValue], weight: Double) -> Execution {
            guard writesLiterals else { return Execution(sql: form.sql, values: sample, weight: weight) }
            var text: [UInt8] = []
            var values: [SQLValue] = []
            var cursor = 0
            for (position, token) in parameters.enumerated() {
                let range = tokens.tokens[token]
                text += tokens.utf8[cursor..<range.start]
                let value = position < sample.count ? sample[position] : .null
                if inlineAll || (position < form.literalValues.count && form.literalValues[position] != nil) {
                    text += Array(literal(value).utf8)
                } else {
                    text += Array("?".utf8)
                    values.append(value)
                }
                cursor = range.end
            }
            text += tokens.utf8[cursor...]
            return Execution(sql: String(decoding: text, as: UTF8.self), values: values, weight: weight)
        }
    }

    /// `value` as SQL literal text that stays one operand wherever a `?` stood: negative numbers are
    /// parenthesised, so `x - ?` never becomes `x --5` (a comment).
    static func literal(_ value: SQLValue) -> String {
        switch value {
        case .integer(let number) where number < 0: return "(\(value.sqlLiteral))"
        case .real(let number) where number < 0 || number.isInfinite: return "(\(value.sqlLiteral))"
        default: return value.sqlLiteral
        }
    }
}
