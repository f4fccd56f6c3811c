import Foundation
import Testing
@testable import IndexAdvisor

/// Checks that hold for any workload read from any input: nothing crashes, and the counts add up.
/// (Checked in plain code and reported once: `#expect` per statement is slow in debug builds.)
func expectSane(_ workload: Workload, input: [UInt8], format: WorkloadFormat, _ comment: Comment? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) {
    // Line ends: `\n`, `\r\n` and a lone `\r`, in every format (LineSplitter).
    let anyBreak = true
    var newlines = 0
    for (i, c) in input.enumerated() {
        if c == 0x0A, !(anyBreak && i > 0 && input[i - 1] == 0x0D) { newlines += 1 }
        if c == 0x0D, anyBreak { newlines += 1 }
    }
    let endsWithBreak = input.last == 0x0A || (anyBreak && input.last == 0x0D)
    let lines = input.isEmpty ? 0 : newlines + (endsWithBreak ? 0 : 1)
    let diagnostics = workload.diagnostics
    var problems: [String] = []
    func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { problems.append(what()) }
    }
    check(diagnostics.linesRead == lines, "lines read \(diagnostics.linesRead), expected \(lines)")
    check(diagnostics.skipped.values.allSatisfy { $0 > 0 }, "a reason counted 0")
    check(diagnostics.examples.count <= 10, "more than 10 examples")
    check(diagnostics.skipped.count <= WorkloadDiagnostics.reasonLimit + 1, "\(diagnostics.skipped.count) reasons")
    let unanalysable = diagnostics.skipped.filter {
        $0.key.hasPrefix("not a statement") || $0.key.hasPrefix("more than") || $0.key == CoreDataLogReader.longStatement
            || $0.key == CoreDataLogReader.unterminated || $0.key == SetAsideStatement.tooDeepReason
            || $0.key == SetAsideStatement.overSQLiteLengthReason
    }.values.reduce(0, +)
    if format == .coreDataLog {
        // Every statement occurrence is either kept (weight 1) or skipped with a reason.
        let kept = workload.statements.reduce(0) { $0 + $1.count }
        check(kept + unanalysable == diagnostics.statementsRead, "\(kept) kept + \(unanalysable) skipped != \(diagnostics.statementsRead) read")
    }
    check(workload.statements.count <= diagnostics.statementsRead, "more distinct statements than statements read")
    for statement in workload.statements {
        let name = statement.sql.prefix(60)
        check(statement.count >= 1, "\(name): count \(statement.count)")
        check(statement.parameterCount == statement.literalValues.count, "\(name): parameter count")
        // A tuple is the statement's own length, or one of its variants' (an IN list of another length), each
        // variant of a length of its own.
        let lengths = Set(statement.variants.map(\.literalValues.count))
        check(lengths.count == statement.variants.count && !lengths.contains(statement.parameterCount), "\(name): variant lengths")
        check(statement.observedBindings.allSatisfy { $0.count == statement.parameterCount || lengths.contains($0.count) }, "\(name): binding tuple size")
        check(statement.observedBindings.count <= 32, "\(name): too many binding tuples")
        if let timing = statement.observedTiming {
            check(timing.count >= 1 && timing.count <= statement.count, "\(name): timing count \(timing.count) of \(statement.count)")
            check(timing.medianSeconds >= 0 && timing.medianSeconds <= timing.totalSeconds + 1e-12, "\(name): median outside 0…total")
        }
        check(!statement.sources.isEmpty && statement.sources.count <= 8, "\(name): \(statement.sources.count) sources")
        check(statement.sources.allSatisfy { $0.firstLine >= 1 && $0.firstLine <= $0.lastLine && $0.lastLine <= max(1, lines) },
              "\(name): source lines \(statement.sources) outside 1…\(lines)")
    }
    #expect(problems.isEmpty, "\(comment.map { "\($0): " } ?? "")\(problems.joined(separator: "; "))", sourceLocation: sourceLocation)
}

/// Reads `bytes` as a file would be read (not as a Swift string first).
func read(_ bytes: [UInt8], format: WorkloadFormat?, chunk: Int = 1 << 20) -> Workload {
    var builder = WorkloadBuilder()
    let directory = try! TemporaryDirectory()
    let file = directory.url.appendingPathComponent("input")
    try! Data(bytes).write(to: file)
    try! WorkloadLoader.read(file, name: "input", format: format, into: &builder)
    return builder.build()
}

@Suite("Bad workload input")
struct WorkloadBadInputTests {
    @Test("binary garbage is skipped and counted in every format")
    func garbage() {
        var random = SeededGenerator(seed: 7)
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        for format in [WorkloadFormat.coreDataLog, .sql, .jsonl] {
            let workload = read(bytes, format: format)
            expectSane(workload, input: bytes, format: format, "\(format)")
            #expect(workload.analysedStatements.isEmpty, "\(format)")
            #expect(workload.diagnostics.skippedCount > 0, "\(format)")
        }
        #expect(read(bytes, format: nil).analysedStatements.isEmpty)
    }

    @Test("invalid UTF-8 inside a statement and on lines of their own")
    func invalidUTF8() {
        var bytes = Array("CoreData: sql: SELECT * FROM t WHERE a = 'caf".utf8) + [0xC3, 0x28, 0xFF] + Array("' AND b = ?\n".utf8)
        bytes += [0xFE, 0xFF, 0xC0, 0xAF, 0x0A]
        bytes += Array("CoreData: details: SQLite bind[0] = \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"\n".utf8)
        let workload = read(bytes, format: nil)
        expectSane(workload, input: bytes, format: .coreDataLog)
        #expect(workload.statements.count == 1)
        #expect(workload.statements[0].sql == "SELECT * FROM t WHERE a = ? AND b = ?")
        // The line of its own, and the bind whose text is not UTF-8: its value is not the app's.
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.binary: 2])
        #expect(workload.statements[0].observedBindings.isEmpty)
    }

    @Test("a 10 MB line is cut and skipped; the lines around it are read")
    func longLine() {
        var bytes = Array("CoreData: sql: SELECT * FROM t WHERE a = ?\n".utf8)
        bytes += Array(repeating: UInt8(ascii: "x"), count: 10 << 20) + [0x0A]
        bytes += Array("CoreData: sql: SELECT * FROM t WHERE a = ?\n".utf8)
        let workload = read(bytes, format: .coreDataLog)
        expectSane(workload, input: bytes, format: .coreDataLog)
        #expect(workload.statements.map(\.count) == [2])
        #expect(workload.diagnostics.skipped == ["line longer than 1 MB": 1])
        // In a .sql file such a line is one statement (statements up to 16 MB are read): here of nothing
        // analysable. (2 MB: the tokenizer is slow in debug builds.)
        let script = Array("SELECT 1 FROM t;\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 2 << 20)
        let scripted = read(script, format: .sql)
        expectSane(scripted, input: script, format: .sql)
        #expect(scripted.statements.count == 1)
        #expect(scripted.diagnostics.skippedCount == 1)
    }

    @Test("a truncated last line, an empty file, a log without Core Data lines")
    func truncatedAndEmpty() throws {
        let truncated = Array("CoreData: sql: SELECT * FROM t WHERE a = ?\nCoreData: details: SQLite bind[0] = 4".utf8)
        let workload = read(truncated, format: nil)
        expectSane(workload, input: truncated, format: .coreDataLog)
        #expect(workload.statements.first?.observedBindings == [[.integer(4)]])
        let cutStatement = Array("CoreData: sql: SELECT * FROM t WHERE (a = ? AND".utf8)
        expectSane(read(cutStatement, format: .coreDataLog), input: cutStatement, format: .coreDataLog)

        for format in [WorkloadFormat?.none, .sql, .coreDataLog, .jsonl] {
            let empty = read([], format: format)
            #expect(empty.statements.isEmpty)
            #expect(empty.diagnostics.linesRead == 0)
            #expect(empty.diagnostics.files == ["input"])
        }
        let foreign = Array("2024-05-01 10:00:00.000 Notes[1:2] [UIKit] hello\njust words\n\n".utf8)
        let none = read(foreign, format: .coreDataLog)
        expectSane(none, input: foreign, format: .coreDataLog)
        #expect(none.diagnostics.skipped == [CoreDataLogReader.notCoreData: 2])
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("foreign.log")
        try Data(foreign).write(to: file)
        let error = try #require(throws: WorkloadError.self) { try WorkloadLoader.load([file], format: .coreDataLog) }
        #expect(error.description.hasSuffix("foreign.log: the workload has no SELECT, INSERT, UPDATE or DELETE statement (3 lines read, 0 statements, 2 items skipped)"))
    }

    @Test("a statement whose continuation lines never end is skipped past 1 MB; the next one is read")
    func endlessStatement() {
        var bytes = Array("CoreData: sql: SELECT * FROM t WHERE a IN (\n".utf8)
        for _ in 0..<30_000 { bytes += Array("    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,\n".utf8) }
        bytes += Array("CoreData: details: SQLite bind[0] = 1\n    more text\nCoreData: sql: SELECT * FROM t WHERE b = ?\n".utf8)
        let workload = read(bytes, format: .coreDataLog)
        expectSane(workload, input: bytes, format: .coreDataLog)
        #expect(workload.statements.map(\.sql) == ["SELECT * FROM t WHERE b = ?"])
        #expect(workload.diagnostics.statementsRead == 2)
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.longStatement: 1, CoreDataLogReader.notCoreData: 1])
    }

    @Test("many distinct unreadable statements keep at most 50 reasons")
    func manyReasons() {
        let text = (0..<500).map { "WORD\($0) something;" }.joined(separator: "\n")
        let workload = WorkloadLoader.parse(text, format: .sql)
        #expect(workload.diagnostics.skipped.count == 51)
        #expect(workload.diagnostics.skippedCount == 500)
        #expect(workload.diagnostics.skipped[WorkloadDiagnostics.otherReasons] == 450)
    }

    @Test("a .sql script read in chunks of any size gives the same workload")
    func scriptChunks() {
        let script = Array("""
            -- freq: 40
            SELECT * FROM note WHERE folder = 'a;b' ORDER BY updated DESC;
            /* not a ; separator */ SELECT * FROM note WHERE folder = 'c'
              ORDER BY updated DESC; -- trailing
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; DELETE FROM v; END;
            -- freq: 3
            INSERT INTO "odd;name"(a) VALUES ('it''s;');
            SELECT 2
            """.utf8)
        let whole = read(script, format: .sql)
        #expect(whole.statements.map(\.count) == [41, 1, 3, 1])
        #expect(whole.statements[2].sources == [SourceRange(file: "input", firstLine: 7, lastLine: 7)])
        for size in [1, 2, 3, 5, 16] {
            var builder = WorkloadBuilder()
            var reader = SQLScriptReader(file: "input")
            script.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {
                    reader.feed(all.slice(start, start + size), into: &builder)
                    start += size
                }
            }
            reader.finish(into: &builder)
            let chunked = builder.build()
            var expected = whole.diagnostics
            expected.formats = []  // the loader's, not the reader's
            #expect(chunked.diagnostics == expected, "chunk size \(size)")
            #expect(chunked.statements.map(\.sql) == whole.statements.map(\.sql), "chunk size \(size)")
            #expect(chunked.statements.map(\.sources) == whole.statements.map(\.sources), "chunk size \(size)")
        }
    }
}

@Suite("Fuzzing the workload readers")
struct WorkloadFuzzTests {
    /// Mutations of real log text: bytes dropped, inserted (line breaks, NUL, invalid UTF-8, escapes,
    /// quotes, parentheses), lines repeated, swapped and cut.
    static func mutate(_ base: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = base
        let specials: [UInt8] = [0x0A, 0x00, 0xFF, 0xC3, 0x1B, 0x22, 0x27, 0x28, 0x29, 0x3B, 0x0D, 0x09, 0x5B, 0x5D, 0x3A, 0x2D]
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &random)))
            case 1: bytes.insert(specials.randomElement(using: &random)!, at: at)
            case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            case 3:
                let end = min(bytes.count, at + Int.random(in: 1...200, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: end)
            case 4: bytes.removeSubrange(at...)
            default:
                let other = Int.random(in: 0..<bytes.count, using: &random)
                bytes.swapAt(at, other)
            }
        }
        return bytes
    }

    @Test("3,000 mutated and random logs: no crash, and the counts add up")
    func logs() {
        var random = SeededGenerator(seed: 2024)
        let base = Array(SampleLogs.allLevels.utf8)
        for iteration in 0..<3000 {
            let input: [UInt8]
            if iteration % 10 == 9 {
                input = (0..<Int.random(in: 0...2000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                input = Self.mutate(base, &random)
            }
            var builder = WorkloadBuilder()
            input.withUnsafeBufferPointer { bytes in
                var reader = CoreDataLogReader(file: "fuzz")
                var splitter = LineSplitter(maxLineBytes: 512)
                // Chunks of varying size, as a file read would give.
                var start = 0
                while start < bytes.count {
                    let size = Int.random(in: 1...700, using: &random)
                    splitter.feed(bytes.slice(start, start + size)) { reader.line($0, cut: $1, into: &builder) }
                    start += size
                }
                splitter.finish { reader.line($0, cut: $1, into: &builder) }
                reader.finish(into: &builder)
            }
            expectSane(builder.build(), input: input, format: .coreDataLog, "iteration \(iteration)")
        }
    }

    @Test("1,000 mutated .sql scripts and JSON Lines files: no crash, and the counts add up")
    func scriptsAndJSONLines() {
        var random = SeededGenerator(seed: 99)
        let script = Array("""
            -- freq: 40
            SELECT * FROM note WHERE folder = 'a;b' AND x IN (1, 2, 3) ORDER BY 2 DESC;
            /* comment ; */ INSERT INTO t VALUES (x'00ff', -1.5e3, "q""d", [br]);
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; END;
            """.utf8)
        let lines = Array("""
            {"type":"header","format":"indexadvisor-workload","version":1}
            {"type":"statement","sql":"SELECT * FROM t WHERE a = ? AND b IN (?, ?)","count":12,"total_ns":1200,"median_ns":90,"rows":24,"samples":[[1,2,3],["x",{"blob":"00"},{"real":2.0}]]}
            {"sql":"UPDATE t SET a = ? WHERE id = ?","count":3}
            """.utf8)
        for iteration in 0..<1000 {
            let format: WorkloadFormat = iteration % 2 == 0 ? .sql : .jsonl
            let input = Self.mutate(format == .sql ? script : lines, &random)
            let text = String(decoding: input, as: UTF8.self)
            let workload = WorkloadLoader.parse(text, file: "fuzz", format: format)
            expectSane(workload, input: Array(text.utf8), format: format, "iteration \(iteration)")
        }
    }
}
