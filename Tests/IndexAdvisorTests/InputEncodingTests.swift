import Foundation
import Testing
@testable import IndexAdvisor

/// Byte-order marks, line ends, oversized JSON Lines records and encodings the readers do not take: files
/// as editors and tools write them, read from disk as `--workload` reads them.
@Suite("Workload encodings and line ends")
struct InputEncodingTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    func readFile(_ bytes: [UInt8], name: String = "input") throws -> Workload {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return try WorkloadLoader.read([file])
    }

    @Test("a UTF-8 byte-order mark keeps a .sql file's first statement and its weight")
    func bomSQL() throws {
        let workload = try readFile(Self.bom + Array("-- freq: 5\nSELECT a FROM t WHERE b = 1;\nSELECT c FROM t;\n".utf8), name: "q.sql")
        #expect(workload.statements.map(\.text) == ["SELECT a FROM t WHERE b = 1", "SELECT c FROM t"])
        #expect(workload.statements.map(\.count) == [5, 1])
        #expect(workload.statements[0].sources == [SourceRange(file: "q.sql", firstLine: 2, lastLine: 2)])
        #expect(workload.diagnostics.skipped.isEmpty)
        #expect(workload.diagnostics.formats.first?.encoding == "UTF-8 with a byte-order mark (removed)")
        // A statement first on the first line, right after the mark.
        let first = try readFile(Self.bom + Array("SELECT a FROM t;".utf8), name: "one.sql")
        #expect(first.statements.map(\.text) == ["SELECT a FROM t"])
    }

    @Test("a UTF-8 byte-order mark: a .jsonl file is still JSON Lines, a log still a log")
    func bomOthers() throws {
        let jsonl = try readFile(Self.bom + Array("{\"type\":\"header\",\"format\":\"indexadvisor-workload\",\"version\":1}\n{\"type\":\"statement\",\"sql\":\"SELECT a FROM t WHERE b = ?\",\"count\":12}\n".utf8))
        #expect(jsonl.diagnostics.formats.first?.format == .jsonl)
        #expect(jsonl.statements.map(\.count) == [12])
        #expect(jsonl.diagnostics.skipped.isEmpty)
        let log = try readFile(Self.bom + Array("CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0\n".utf8))
        #expect(log.diagnostics.formats.first?.format == .coreDataLog)
        #expect(log.statements.map(\.text) == ["SELECT 0, t0.Z_PK FROM ZPLANT t0"])
        // Text in memory with U+FEFF first, too.
        #expect(WorkloadLoader.parse("\u{FEFF}SELECT a FROM t;").statements.map(\.text) == ["SELECT a FROM t"])
    }

    @Test("CR-only line ends: a -- freq: comment ends at its line; lines are counted")
    func crOnlySQL() throws {
        let workload = try readFile(Array("-- freq: 3\rSELECT a FROM t;\r-- freq: 7\rSELECT b FROM t\r  WHERE c = 1;\rSELECT d FROM t;\r".utf8), name: "mac.sql")
        #expect(workload.statements.map(\.text) == ["SELECT a FROM t", "SELECT b FROM t\n  WHERE c = 1", "SELECT d FROM t"])
        #expect(workload.statements.map(\.count) == [3, 7, 1])
        #expect(workload.statements.map(\.sources) == [[SourceRange(file: "mac.sql", firstLine: 2, lastLine: 2)],
                                                       [SourceRange(file: "mac.sql", firstLine: 4, lastLine: 5)],
                                                       [SourceRange(file: "mac.sql", firstLine: 6, lastLine: 6)]])
        #expect(workload.diagnostics.linesRead == 6)
        #expect(workload.diagnostics.formats.first?.lineEnds == "CR")
    }

    @Test("every line end in a log and in JSON Lines: LF, CRLF, CR", arguments: ["\n", "\r\n", "\r"])
    func lineEnds(end: String) throws {
        let log = ["CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0", "WHERE t0.ZWATERED = ?", "CoreData: annotation: sql connection fetch time: 0.0020s",
                   "[Garden] watering", "CoreData: sql: COMMIT"].joined(separator: end) + end
        let workload = try readFile(Array(log.utf8))
        #expect(workload.statements.map(\.text) == ["SELECT 0, t0.Z_PK FROM ZPLANT t0 WHERE t0.ZWATERED = ?", "COMMIT"])
        #expect(workload.statements.first?.observedTiming?.medianSeconds == 0.002)
        #expect(workload.diagnostics.linesRead == 5)
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.notCoreData: 1])
        #expect(workload.diagnostics.formats.first?.lineEnds == ["\n": "LF", "\r\n": "CRLF", "\r": "CR"][end])
        let jsonl = ["{\"type\":\"header\",\"version\":1}", "{\"sql\":\"SELECT a FROM t\",\"count\":4}", "{\"sql\":\"SELECT b FROM t\",\"count\":2}"].joined(separator: end)
        let recorded = try readFile(Array(jsonl.utf8))
        #expect(recorded.statements.map(\.count) == [4, 2])
        #expect(recorded.diagnostics.linesRead == 3)
        #expect(recorded.diagnostics.skipped.isEmpty)
    }

    // Regression (a breaking helper): a Core Data log pasted from two sources, LF first and then lone CRs,
    // without a final line break, was read as two lines: the second statement and both its times were lost.
    @Test("a log whose line ends change from LF to lone CR part-way keeps every statement and time")
    func mixedLineEnds() throws {
        let p = "2025-03-04 05:06:07.000001+0000 Garden[9:10] CoreData:"
        for tail in ["", "\r", "\n", "\r\n"] {
            let log = "\(p) sql: SELECT 0, t0.Z_PK FROM ZBED t0 WHERE t0.ZROW = ?\n\(p) annotation: sql connection fetch time: 0.0020s\r"
                + "\(p) sql: SELECT 0, t0.Z_PK FROM ZBED t0 WHERE t0.ZSOIL = ?\r\(p) annotation: sql connection fetch time: 0.0050s" + tail
            let workload = try readFile(Array(log.utf8))
            #expect(workload.statements.map(\.text) == ["SELECT 0, t0.Z_PK FROM ZBED t0 WHERE t0.ZROW = ?", "SELECT 0, t0.Z_PK FROM ZBED t0 WHERE t0.ZSOIL = ?"], "tail \(tail.debugDescription)")
            #expect(workload.statements.map { $0.observedTiming?.medianSeconds } == [0.002, 0.005], "tail \(tail.debugDescription)")
            #expect(workload.diagnostics.linesRead == 4, "tail \(tail.debugDescription)")
            #expect(workload.diagnostics.skipped.isEmpty, "tail \(tail.debugDescription)")
        }
    }

    @Test("a CR-only log read in chunks of any size, a CR and its LF split between chunks")
    func crChunks() {
        let bytes = Array("CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0\r\nFROM_NOTHING\rCoreData: sql: COMMIT\r".utf8)
        for size in [1, 2, 3, 5, 49, 50, 51] {
            var lines: [String] = []
            var splitter = LineSplitter()
            bytes.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {
                    splitter.feed(all.slice(start, start + size)) { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
                    start += size
                }
            }
            splitter.finish { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
            // The first line ends in CRLF (LF mode), and a lone CR inside a later line ends a line too (a breaking
            // helper's pasted log lost its second statement, skipped as binary data); a CR last in the file is a
            // line end.
            #expect(lines == ["CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0", "FROM_NOTHING", "CoreData: sql: COMMIT"], "chunk size \(size)")
        }
        let crOnly = Array("first\rsecond\r\nthird\rfourth".utf8)
        for size in [1, 2, 5, 6, 7] {
            var lines: [String] = []
            var splitter = LineSplitter()
            crOnly.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {
                    splitter.feed(all.slice(start, start + size)) { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
                    start += size
                }
            }
            splitter.finish { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
            #expect(lines == ["first", "second", "third", "fourth"], "chunk size \(size)")
        }
    }

    @Test("a JSON Lines record over 1 MB keeps its statement and count; only its samples are left out")
    func oversizedRecord() throws {
        let big = String(repeating: "x", count: 1_500_000)
        let lines = [
            "{\"type\":\"header\",\"format\":\"indexadvisor-workload\",\"version\":1}",
            "{\"type\":\"statement\",\"sql\":\"SELECT body FROM note WHERE id = ?\",\"count\":300000,\"total_ns\":600000000000,\"median_ns\":2000000,\"rows\":300000,\"samples\":[[\"\(big)\"],[7]],\"first_seen\":\"2024-05-01T10:00:00.000Z\"}",
            "{\"type\":\"statement\",\"sql\":\"SELECT id FROM note\",\"count\":3,\"samples\":[[]]}",
        ]
        let workload = try readFile(Array(lines.joined(separator: "\n").utf8))
        #expect(workload.statements.map(\.sql) == ["SELECT body FROM note WHERE id = ?", "SELECT id FROM note"])
        #expect(workload.statements.map(\.count) == [300_000, 3])
        #expect(workload.statements[0].observedTiming?.medianSeconds == 0.002)
        #expect(workload.statements[0].observedTiming?.totalSeconds == 600)
        #expect(workload.statements[0].observedRows == 1)
        #expect(workload.statements[0].observedBindings.isEmpty)
        #expect(workload.diagnostics.skipped == [JSONLWorkloadReader.samplesDropped: 1])
        // A record over the limit whose SQL itself is what is large cannot be kept: skipped with the reason.
        let hugeSQL = "{\"sql\":\"SELECT '\(big)'\",\"count\":2}"
        let skipped = try readFile(Array((lines[0] + "\n" + hugeSQL + "\n").utf8))
        #expect(skipped.statements.isEmpty)
        #expect(skipped.diagnostics.skipped == [CoreDataLogReader.tooLong: 1])
    }

    @Test("UTF-16 and UTF-32 input: one error naming the encoding, with or without a byte-order mark", arguments: [
        ([0xFF, 0xFE] + Array("SELECT 1;\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16 little-endian", "UTF-16LE"),
        ([0xFE, 0xFF] + Array("SELECT 1;\n".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16 big-endian", "UTF-16BE"),
        (Array("CoreData: sql: SELECT 1\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "UTF-16 little-endian", "UTF-16LE"),
        (Array("SELECT 1;".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "UTF-16 big-endian", "UTF-16BE"),
        ([0xFF, 0xFE, 0, 0, 0x53, 0, 0, 0], "UTF-32 little-endian", "UTF-32LE"),
    ] as [([UInt8], String, String)])
    func unsupportedEncoding(bytes: [UInt8], encoding: String, iconv: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("wide.sql")
        try Data(bytes).write(to: file)
        let error = #expect(throws: WorkloadError.self) { try WorkloadLoader.read([file]) }
        #expect(error?.description == "\(file.path): the workload is \(encoding) text; indexadvisor reads UTF-8 (convert it: iconv -f \(iconv) -t UTF-8 FILE > FILE.utf8)")
    }

    @Test("binary data is not taken for UTF-16: it is read and skipped line by line")
    func binaryIsNotUTF16() throws {
        let workload = try readFile([0x00, 0x01, 0x00, 0x41, 0x0A, 0xFF, 0x00, 0x0A])
        #expect(workload.statements.isEmpty)
        #expect(workload.diagnostics.linesRead == 2)
    }
}

/// Regression (a breaking helper): `--workload a.sql --workload a.sql` read the file twice and doubled every
/// statement's count, so the advice weighed the workload twice over.
@Suite("One file given twice is read once")
struct SameFileTwiceTests {
    @Test("twice by name, by a link, and by name beside its folder: each count is the file's, and the repeats are counted")
    func readOnce() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("captures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("orders.sql")
        try Data("-- freq: 25\nSELECT * FROM orders WHERE customer_id = 8;\nUPDATE orders SET state = 2 WHERE id = 5;\n".utf8).write(to: file)
        let link = directory.url.appendingPathComponent("same.sql")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let other = directory.url.appendingPathComponent("other.sql")
        try Data("-- freq: 3\nSELECT * FROM orders WHERE customer_id = 8;\n".utf8).write(to: other)
        let workload = try WorkloadLoader.read([file, link, folder, file, other])
        #expect(workload.statements.map(\.count) == [28, 1])
        #expect(workload.diagnostics.skipped == [WorkloadLoader.sameFileAgain: 3])
        #expect(workload.diagnostics.files == ["orders.sql", "other.sql"])
    }
}
