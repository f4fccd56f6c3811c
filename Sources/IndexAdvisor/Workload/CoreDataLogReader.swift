import Foundation
import SQLFingerprint
import CSQLite

/// Reads Core Data / SwiftData SQL debug output (`-com.apple.CoreData.SQLDebug 1…4`), line by line, in
/// bounded memory: feed it lines with ``line(_:cut:into:)`` and call ``finish(into:)`` at the end.
///
/// Lines carry the marker `CoreData: ` anywhere (Xcode's console, `log stream`/`log show`, NSLog prefixes
/// such as `2024-05-01 10:00:00.123 Notes[4242:1234567]`, a device's stderr), or start with `sql:` /
/// `annotation:` / `details:` when the marker was stripped, or carry the unified log's
/// `[com.apple.coredata…]` tag before such a word. ANSI colour codes (`SyntaxColoredLogging`) are removed.
///
/// - `sql:` starts a statement. Lines without a marker continue it while it is open (indented lines, or
///   when the text so far cannot end: an open parenthesis, a trailing `WHERE`/`AND`/`,`…), unless they
///   look like another subsystem's log line (a date or a `Process[pid:tid]` prefix): those are skipped.
/// - `details: SQLite bind[i] = value` (level ≥ 2) adds a bound value: numbers, `"text"`, `nil`, `<hex>`.
/// - `annotation: sql connection fetch time: 0.0123s`, `sql execution time:`, `total fetch execution time:
///   0.0150s for 240 rows.`, `total count request execution time:` give the duration (seconds) and rows;
///   `fetch using NSSQLiteStatement … on entity 'Note' … returned 3 rows` the entity and rows.
/// - Level 3's `… returned N rows with values: (` starts a dump of row descriptions that runs until its
///   parentheses close; its lines are skipped and counted, never read as SQL.
/// - Level 4's `details: SQLite: EXPLAIN QUERY PLAN <sql>` starts the device's plan for that statement;
///   the rows that follow (`SCAN t0`, `SEARCH t0 USING INDEX …`, optionally after SQLite's id/parent
///   numbers or the shell's tree glyphs) are kept as the statement's ``WorkloadStatement/devicePlan``.
///
/// Everything else is counted as skipped, with the reason: other subsystems' lines, binary data, lines
/// longer than the line limit, unreadable bind lines. Identical statement text is normalised once (a
/// bounded cache from raw bytes to the fingerprint), so long logs cost little more than reading them.
/// One reader feeds one ``WorkloadBuilder``.
package struct CoreDataLogReader {
    /// What a statement's raw text normalises to. A class: the cache and the statement being read share
    /// it without copying its fields (copies cost reference counting on every line).
    private final class Cached {
        let normalized: NormalizedStatement
        /// The text ends inside a string, quoted name or comment: the log cut the statement.
        let isUnterminated: Bool
        /// Set once an occurrence was recorded (the EXPLAIN QUERY PLAN header only needs the fingerprint).
        var resolution: WorkloadBuilder.Resolution?

        init(normalized: NormalizedStatement, isUnterminated: Bool) {
            self.normalized = normalized
            self.isUnterminated = isUnterminated
        }
    }

    enum Level { case sql, details, annotation, error, other }

    static let notCoreData = "not a Core Data line"
    static let binary = "binary data, control characters or invalid UTF-8"
    static let rowValues = "level-3 row values (not SQL)"
    static let otherMessage = "Core Data message that is not SQL (debug:, warning:, CloudKit:, …)"
    static let otherThread = "bind or time logged by another thread than the statement being read (interleaved threads: not given to it)"
    static let deviceError = "Core Data error reported on the device (error:, with its wrapped lines)"
    static let unreadableBind = "unreadable bind line"
    static let bindOutOfTurn = "bind line out of turn (bind[N] where another position was next)"
    static let bindsUnmatched = "statement whose bind lines do not match its placeholders (its logged values not used)"
    static let unreadableTime = "unreadable time (not seconds from 0 to a day: `0,0012s`, `-0.5s`, `nans`)"
    static let orphanPlan = "query plan of a statement the log does not show"
    static let longStatement = "statement longer than 1 MB (over several lines)"
    static let unterminated = "statement cut inside a string, quoted name or comment"
    /// The longest statement text kept while joining continuation lines.
    static let maxStatementBytes = 1 << 20
    static var tooLong: String { "line longer than \(LineSplitter().maxLineBytes >> 20) MB" }
    /// The reason a logged statement whose line passes that bound is set aside.
    static var tooLongStatement: String { "statement on a log line longer than \(LineSplitter().maxLineBytes >> 20) MB, not read whole" }

    let file: String
    private var lineNumber = 0
    private var registered = false

    // The statement being read.
    private var hasPending = false
    /// The `pid:tid` of the line that opened it (`Notes[123:4567] CoreData: sql: …`), when the log has them.
    private var pendingThread: [UInt8]?
    private var pendingSQL: [UInt8] = []
    private var pendingOpen = false
    /// The statement's continuation lines went past ``maxStatementBytes``: it is skipped.
    private var pendingTooLong = false
    private var pendingFirstLine = 0
    private var pendingLastLine = 0
    private var pending: Cached?
    private var pendingBindings: [SQLValue] = []
    private var collectBindings = false
    /// SQLite's time (`sql connection fetch time:`, `sql execution time:`) and Core Data's total
    /// (`total fetch execution time:`, `total count request execution time:`), each kept under its own name.
    private var pendingConnectionSeconds: Double?
    private var pendingTotalSeconds: Double?
    /// The first device error after the statement (it failed on the device), when there was one.
    private var pendingError: String?
    /// An `error:` record is open: wrapped lines after it belong to it.
    private var inError = false
    /// The open `error:` record is the one that marked the statement as failed.
    private var errorOfPending = false
    private var pendingRows: Int?
    /// Whether the open statement's text can end, once a line without a marker asked (nil until then).
    private var pendingText: OpenText?
    private var pendingEntity: String?

    /// Parenthesis depth inside a level-3 value dump (0: not in one), and whether a quoted row
    /// description is open at the end of the last line (descriptions may span lines).
    private var dumpDepth = 0
    private var dumpQuoted = false
    /// The plan being collected: the fingerprint it belongs to and its rows.
    private var planFingerprint: String?
    private var planRows: [String] = []
    private var planLine = 0

    private var cache = BytesKeyedCache<Cached>(maxEntries: 4096)
    private var scratch: [UInt8] = []

    package init(file: String) {
        self.file = file
    }

    /// Reads all of `text` (for tests and text already in memory).
    package static func read(_ text: String, file: String, into builder: inout WorkloadBuilder) {
        var reader = CoreDataLogReader(file: file)
        var splitter = LineSplitter()
        var copy = text
        copy.withUTF8 { bytes in
            splitter.feed(bytes) { line, cut in reader.line(line, cut: cut, into: &builder) }
        }
        splitter.finish { line, cut in reader.line(line, cut: cut, into: &builder) }
        reader.finish(into: &builder)
    }

    /// Reads one line (without its line break); `cut` when it was longer than the splitter's limit.
    package mutating func line(_ raw: UnsafeBufferPointer<UInt8>, cut: Bool, into builder: inout WorkloadBuilder) {
        lineNumber += 1
        builder.diagnostics.linesRead += 1
        if !registered { register(&builder) }
        if cut {
            // A statement line past the bound is a statement the app ran that cannot be read whole: set aside
            // and counted with its execution, so that `check` fails it when hot, as a `.sql` file's statement
            // over 16 MB is (hostile round 8, F15: 20 fetches of 0.5 s each passed as "0 failures"). The lines
            // after it (its binds and times) find no open statement and are skipped.
            if let (level, text) = Self.coreDataMessage(in: raw), level == .sql {
                if planFingerprint != nil { commitPlan(into: &builder) }
                flush(into: &builder)
                let excerpt = String(decoding: text.prefix(SetAsideStatement.excerptBytes), as: UTF8.self)
                builder.diagnostics.setAside(reason: Self.tooLongStatement, id: Fingerprinter.normalize(excerpt).fingerprint.id,
                                             excerpt: excerpt, weight: 1, at: "\(file):\(lineNumber)")
                return
            }
            skip(Self.tooLong, into: &builder)
            return
        }
        if raw.contains(byte: 0x1B) {
            stripANSI(raw)
            scratch.withUnsafeBufferPointer { process($0, into: &builder) }
        } else {
            process(raw, into: &builder)
        }
    }

    /// Records the last statement and plan.
    package mutating func finish(into builder: inout WorkloadBuilder) {
        if !registered { register(&builder) }
        commitPlan(into: &builder)
        flush(into: &builder)
    }

    private mutating func register(_ builder: inout WorkloadBuilder) {
        registered = true
        if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
    }

    private mutating func process(_ line: UnsafeBufferPointer<UInt8>, into builder: inout WorkloadBuilder) {
        let message = Self.coreDataMessage(in: line)
        if dumpDepth > 0 {
            if message == nil {
                (dumpDepth, dumpQuoted) = Self.depth(after: line, from: dumpDepth, quoted: dumpQuoted)
                skip(Self.rowValues, into: &builder)
                return
            }
            dumpDepth = 0
            dumpQuoted = false
        }
        guard let (level, text) = message else {
            otherLine(line, into: &builder)
            return
        }
        inError = false
        if planFingerprint != nil {
            if level == .details, let row = Self.planRow(text) {
                if let row { planRows.append(row) }
                return
            }
            commitPlan(into: &builder)
        }
        let thread = Self.threadID(in: line)
        // Two threads' statements interleave in one log (contexts on several queues): a bind or a time from
        // another thread than the open statement's belongs to a statement no longer open here, and is not
        // given to this one (a breaking helper's log gave one thread's 2.5 s fetch to the other's lookup).
        if level == .details || level == .annotation, hasPending, let thread, let pendingThread, thread != pendingThread {
            skip(Self.otherThread, into: &builder)
            return
        }
        // A bind or a time with a control byte (a NUL inside `(int64)1␀junk`) is damaged: its value is not the app's.
        if level == .details || level == .annotation, !text.isPrintableUTF8 {
            skip(Self.binary, into: &builder)
            return
        }
        switch level {
        case .sql:
            flush(into: &builder)
            startStatement(text, builder: &builder)
            pendingThread = thread
        case .details:
            close(into: &builder)
            details(text, into: &builder)
        case .annotation:
            close(into: &builder)
            annotation(text, into: &builder)
        case .error:
            close(into: &builder)
            deviceError(text, into: &builder)
        case .other:
            close(into: &builder)
            skip(Self.otherMessage, into: &builder)
        }
    }

    // MARK: Statements

    private mutating func startStatement(_ text: UnsafeBufferPointer<UInt8>, builder: inout WorkloadBuilder) {
        hasPending = true
        pendingSQL.removeAll(keepingCapacity: true)
        pendingSQL.append(contentsOf: text)
        pendingOpen = true
        pendingTooLong = false
        pendingFirstLine = lineNumber
        pendingLastLine = lineNumber
        pending = nil
        pendingBindings.removeAll(keepingCapacity: true)
        collectBindings = false
        pendingConnectionSeconds = nil
        pendingTotalSeconds = nil
        pendingError = nil
        pendingText = nil
        pendingRows = nil
        pendingEntity = nil
    }

    /// Ends the statement's text: normalises it (once per distinct text) and finds its entry.
    private mutating func close(into builder: inout WorkloadBuilder) {
        guard hasPending else { return }
        pendingOpen = false
        guard pending == nil, !pendingTooLong else { return }
        let cached = pendingSQL.withUnsafeBufferPointer { cachedStatement(for: $0) }
        if cached.resolution == nil, !cached.isUnterminated {
            let location = SourceRange(file: file, firstLine: pendingFirstLine, lastLine: pendingLastLine)
            cached.resolution = builder.resolve(cached.normalized, text: String(decoding: pendingSQL, as: UTF8.self), location: location)
        }
        pending = cached
        if case .entry(let index)? = cached.resolution { collectBindings = builder.wantsBindings(at: index) }
    }

    /// The cached normalisation of `sql`, computed on a miss.
    private mutating func cachedStatement(for sql: UnsafeBufferPointer<UInt8>) -> Cached {
        let raw = UnsafeRawBufferPointer(sql)
        let hash = ByteHash.hash(raw)
        if let cached = cache.value(for: raw, hash: hash) { return cached }
        let text = String(decoding: sql, as: UTF8.self)
        // sqlite3_complete is true only when the text ends outside any string, name or comment
        // (https://sqlite.org/c3ref/complete.html); the newline ends a trailing line comment.
        let cached = Cached(normalized: Fingerprinter.normalize(text), isUnterminated: sqlite3_complete(text + "\n;") == 0)
        cache.insert(cached, for: raw, hash: hash)
        return cached
    }

    /// Records the statement read so far.
    private mutating func flush(into builder: inout WorkloadBuilder) {
        guard hasPending else { return }
        if pendingTooLong {
            hasPending = false
            builder.diagnostics.statementsRead += 1
            builder.diagnostics.skip(Self.longStatement, at: "\(file):\(pendingFirstLine)")
            return
        }
        close(into: &builder)
        hasPending = false
        if let pending, pending.isUnterminated {
            builder.diagnostics.statementsRead += 1
            builder.diagnostics.skip(Self.unterminated, at: "\(file):\(pendingFirstLine)")
            return
        }
        guard let pending, let resolution = pending.resolution else { return }
        // Bind lines that do not fill the statement's placeholders exactly (one missing, one too many) are not
        // one execution's values: counted, and the statement's values are drawn from the data instead (a
        // breaking helper's `bind[1]` on a statement with one placeholder was silently dropped).
        let placeholders = pending.normalized.parameterValues.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        var bindings: [SQLValue]? = pendingBindings.isEmpty ? nil : pendingBindings
        if let given = bindings, given.count != placeholders {
            builder.diagnostics.skip(Self.bindsUnmatched, at: "\(file):\(pendingFirstLine)")
            bindings = nil
        }
        builder.record(resolution, literals: pending.normalized.parameterValues, bindings: bindings,
                       durationSeconds: pendingConnectionSeconds ?? pendingTotalSeconds, rows: pendingRows, entityName: pendingEntity,
                       text: pending.normalized.parameterizedSQL,
                       location: SourceRange(file: file, firstLine: pendingFirstLine, lastLine: pendingLastLine))
        if case .entry(let index) = resolution {
            if pendingConnectionSeconds != nil || pendingTotalSeconds != nil {
                builder.addNamedTimings(connection: pendingConnectionSeconds, total: pendingTotalSeconds, at: index)
            }
            if let pendingError { builder.noteDeviceFailure(pendingError, at: index) }
        }
    }

    // MARK: Other lines

    /// A line without a Core Data marker: part of a plan, the open statement's text, blank, or skipped.
    private mutating func otherLine(_ line: UnsafeBufferPointer<UInt8>, into builder: inout WorkloadBuilder) {
        let trimmed = line.trimmingSpaces()
        if trimmed.isEmpty { return }
        if planFingerprint != nil {
            if let row = Self.planRow(trimmed) {
                if let row { planRows.append(row) }
                return
            }
            commitPlan(into: &builder)
        }
        if inError {
            if line[0] == 0x20 || line[0] == 0x09 || Self.continuesError(trimmed) {
                // A wrapped line of the device error (`SQLite error code:1, '…'`, its userInfo dictionary).
                if errorOfPending, let text = pendingError, text.utf8.count < Self.maxErrorBytes {
                    pendingError = Self.errorText(text + " " + String(decoding: trimmed.slice(0, Self.maxErrorBytes), as: UTF8.self))
                }
                skip(Self.deviceError, into: &builder)
                return
            }
            inError = false
        }
        // Joining rules (docs/coredata-log-joining.md): a line without a marker continues the statement
        // whose text is still open when it starts like a clause (`FROM`, `WHERE`, `VALUES`, `,`…) or the
        // text so far cannot end (`COLLATE`, `AND`, an open parenthesis or string…). Indentation says
        // nothing either way: consoles strip it, and other subsystems indent their own lines.
        if hasPending, pendingOpen, !Self.looksLikeLogLine(trimmed), trimmed.isPrintableUTF8,
           pendingExpectsMore() || (Self.startsLikeContinuation(trimmed) && !gluingBreaksStatement(trimmed)) {
            if pendingSQL.count + 1 + trimmed.count > Self.maxStatementBytes {
                pendingTooLong = true
            } else if !pendingTooLong {
                pendingSQL.append(0x20)
                pendingSQL.append(contentsOf: trimmed)
                pendingText?.add(trimmed)
            }
            pendingLastLine = lineNumber
            return
        }
        skip(line.isPrintableUTF8 ? Self.notCoreData : Self.binary, into: &builder)
    }

    /// A `CoreData: error:` line. Right after a statement (its SQL and bind lines, before any time was
    /// logged for it) it says that statement failed on the device.
    private mutating func deviceError(_ message: UnsafeBufferPointer<UInt8>, into builder: inout WorkloadBuilder) {
        inError = true
        errorOfPending = false
        skip(Self.deviceError, into: &builder)
        if hasPending, pendingError == nil, pendingConnectionSeconds == nil, pendingTotalSeconds == nil {
            pendingError = Self.errorText(String(decoding: message.slice(0, Self.maxErrorBytes), as: UTF8.self))
            errorOfPending = true
            pendingLastLine = lineNumber
        }
    }

    /// The longest device error message kept, in bytes.
    static let maxErrorBytes = 300

    /// The part of a device error worth showing: from `SQLite error code:` on when it has one, on one line.
    static func errorText(_ message: String) -> String {
        var text = message
        if let code = text.range(of: "SQLite error code:") { text = String(text[code.lowerBound...]) }
        text = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        return text.utf8.count > maxErrorBytes ? String(text.prefix(maxErrorBytes / 4)) + "…" : text
    }

    /// True for an unindented line that still belongs to a device error record.
    static func continuesError(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.hasPrefix("SQLite error code") || line.hasPrefix("}") || line.hasPrefix(")")
            || line.firstIndex(of: "NSSQLiteErrorDomain") != nil || line.firstIndex(of: "SQLite error code:") != nil
    }

    /// True when `line` starts with a symbol (`=`, `<`, `>`, `|`, `,`, `)`) and joining it would turn the open
    /// statement, which SQLite parses, into text it cannot parse: app output such as `=== sync finished ===`
    /// or an object's description (`<Note: 0x600003a1c000> (entity: Note; …)`), not the rest of the
    /// statement. SQLite's own parser decides (`sqlite3_prepare` on an empty database reports a syntax error,
    /// or an unrecognized token, before it looks up any name). Only lines the symbol alone would join are
    /// asked about, and only while the statement is at most ``maxCheckedBytes`` long.
    private mutating func gluingBreaksStatement(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = line.first, Self.continuationSymbols.contains(first), pendingSQL.count <= Self.maxCheckedBytes else { return false }
        let before = String(decoding: pendingSQL, as: UTF8.self)
        let after = before + " " + String(decoding: line, as: UTF8.self)
        return Self.isSyntaxError(after) && !Self.isSyntaxError(before)
    }

    /// The first bytes of a line that ``startsLikeContinuation(_:)`` joins as a symbol: `,` `)` `=` `<` `>` `|`.
    static let continuationSymbols: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: ")"), UInt8(ascii: "="), UInt8(ascii: "<"),
                                                   UInt8(ascii: ">"), UInt8(ascii: "|")]

    /// The longest open statement whose joining SQLite's parser is asked about, in bytes.
    static let maxCheckedBytes = 64 << 10

    /// True when SQLite's parser rejects `sql` as text ("near …: syntax error", "unrecognized token"), on an
    /// empty in-memory database (a name it lacks is an error of another kind, found after parsing).
    static func isSyntaxError(_ sql: String) -> Bool {
        guard let connection = try? SQLiteConnection.inMemory() else { return false }
        do {
            _ = try connection.prepare(sql)
            return false
        } catch let error as SQLiteError {
            let message = error.message.lowercased()
            return message.contains("syntax error") || message.hasPrefix("unrecognized token")
        } catch {
            return false
        }
    }

    /// True when the open statement's text cannot end where it stops (``OpenText``), worked out once from
    /// the text so far and then line by line as lines join, so a long run of continuation lines costs
    /// linear time.
    private mutating func pendingExpectsMore() -> Bool {
        if pendingText == nil {
            var text = OpenText()
            pendingSQL.withUnsafeBufferPointer { text.add($0) }
            pendingText = text
        }
        return pendingText!.expectsMore
    }

    private mutating func skip(_ reason: String, into builder: inout WorkloadBuilder) {
        builder.diagnostics.skip(reason, at: "\(file):\(lineNumber)")
    }

    // MARK: details: and annotation:

    private mutating func details(_ message: UnsafeBufferPointer<UInt8>, into builder: inout WorkloadBuilder) {
        if message.hasPrefix("SQLite bind[") {
            // Core Data numbers its binds from 0 in order: one out of turn (`bind[7]` as a statement's first)
            // would put its value at another parameter.
            guard let value = Self.bindValue(in: message), let position = Self.bindIndex(in: message) else {
                skip(Self.unreadableBind, into: &builder)
                return
            }
            // A readable bind at the wrong position is counted as such, not as unreadable (a breaking helper).
            guard !(hasPending && collectBindings) || position == pendingBindings.count else {
                skip(Self.bindOutOfTurn, into: &builder)
                return
            }
            if hasPending {
                if collectBindings { pendingBindings.append(value) }
                pendingLastLine = lineNumber
            }
            return
        }
        var rest = message
        if rest.hasPrefix("SQLite: ") { rest = rest.slice(8) }
        if rest.hasPrefix("EXPLAIN QUERY PLAN ") {
            let sql = rest.slice(19).trimmingSpaces()
            planFingerprint = cachedStatement(for: sql).normalized.fingerprint.id
            planRows = []
            planLine = lineNumber
        }
    }

    private mutating func annotation(_ message: UnsafeBufferPointer<UInt8>, into builder: inout WorkloadBuilder) {
        // Dispatch on the message's first words; only a fetch annotation can open a level-3 dump.
        /// The time at `offset`, or nil with the line counted as skipped.
        func time(after offset: Int) -> Double? {
            guard let seconds = Self.seconds(in: message, after: offset) else {
                skip(Self.unreadableTime, into: &builder)
                return nil
            }
            return seconds
        }
        if message.hasPrefix("sql connection fetch time:") {
            if hasPending { pendingConnectionSeconds = time(after: 26) }
        } else if message.hasPrefix("sql execution time:") {
            if hasPending { pendingConnectionSeconds = time(after: 19) }
        } else if message.hasPrefix("total fetch execution time:") {
            if hasPending {
                pendingTotalSeconds = time(after: 27)
                if let rows = message.lastIndex(of: " for ").flatMap({ message.integer(at: $0 + 5) }) { pendingRows = rows }
            }
        } else if message.hasPrefix("total count request execution time:") {
            if hasPending { pendingTotalSeconds = time(after: 35) }
        } else if message.hasPrefix("fetch using ") || message.firstIndex(of: " on entity '") != nil {
            if let values = message.firstIndex(of: "with values:") {
                // Level 3: the rows follow, until the parenthesis opened here closes.
                (dumpDepth, dumpQuoted) = Self.depth(after: message.slice(values + 12), from: 0, quoted: false)
            }
            if hasPending, let entity = message.firstIndex(of: "on entity '") {
                let name = message.slice(entity + 11)
                if let end = name.firstIndex(of: "'") { pendingEntity = String(decoding: name.slice(0, end), as: UTF8.self) }
                if let returned = message.lastIndex(of: " returned "), let rows = message.integer(at: returned + 10) { pendingRows = rows }
            }
        } else if let values = message.firstIndex(of: "with values:") {
            (dumpDepth, dumpQuoted) = Self.depth(after: message.slice(values + 12), from: 0, quoted: false)
        } else {
            return
        }
        if hasPending { pendingLastLine = lineNumber }
    }

    // MARK: Plans (level 4)

    private mutating func commitPlan(into builder: inout WorkloadBuilder) {
        guard let fingerprint = planFingerprint else { return }
        planFingerprint = nil
        if !planRows.isEmpty, !builder.setDevicePlan(planRows, forFingerprint: fingerprint) {
            builder.diagnostics.skip(Self.orphanPlan, at: "\(file):\(planLine)")
        }
        planRows = []
    }

    /// For a line of an EXPLAIN QUERY PLAN listing: the detail text (nil for the shell's `QUERY PLAN`
    /// heading); nil when the line is not a plan row. Accepts SQLite's `id parent notused` numbers (or the
    /// old `selectid order from`) before the detail, separated by spaces or `|`, and the shell's tree
    /// glyphs (`|--`, `` `-- ``). Detail keywords: https://sqlite.org/eqp.html.
    static func planRow(_ text: UnsafeBufferPointer<UInt8>) -> String?? {
        var rest = text.trimmingSpaces()
        if rest.hasPrefix("SQLite: ") { rest = rest.slice(8) }
        var i = 0
        while i < rest.count {
            let c = rest[i]
            if (c >= 0x30 && c <= 0x39) || c == 0x20 || c == 0x09 || c == UInt8(ascii: "|") || c == UInt8(ascii: "-")
                || c == UInt8(ascii: "`") {
                i += 1
            } else {
                break
            }
        }
        let detail = rest.slice(i)
        if detail.hasPrefix("QUERY PLAN"), detail.count == 10 { return .some(nil) }
        let keywords: [StaticString] = ["SCAN ", "SEARCH ", "USE TEMP B-TREE", "MULTI-INDEX OR", "INDEX ", "COMPOUND ",
                                        "MERGE (", "LEFT", "RIGHT", "CO-ROUTINE ", "MATERIALIZE ", "EXECUTE ", "CORRELATED ",
                                        "LIST SUBQUERY", "SCALAR SUBQUERY", "BLOOM FILTER", "UNION ", "AUTOMATIC "]
        guard keywords.contains(where: { detail.hasPrefix($0) }) else { return nil }
        return .some(String(decoding: detail, as: UTF8.self))
    }

    // MARK: Line shapes

    /// The level and the message after it, when the line is Core Data's.
    /// The `pid:tid` in the `Process[pid:tid]` before `CoreData: ` on a unified-log or Xcode line; nil without one.
    static func threadID(in line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let marker = line.firstIndex(of: "CoreData: ") else { return nil }
        let head = line.slice(0, marker)
        guard let close = head.lastIndex(of: "]"), let open = head.slice(0, close).lastIndex(of: "[") else { return nil }
        let inside = head.slice(open + 1, close)
        guard inside.contains(UInt8(ascii: ":")), inside.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "x") || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else { return nil }
        return Array(inside)
    }

    static func coreDataMessage(in line: UnsafeBufferPointer<UInt8>) -> (Level, UnsafeBufferPointer<UInt8>)? {
        var rest: UnsafeBufferPointer<UInt8>
        if let marker = line.firstIndex(of: "CoreData: ") {
            rest = line.slice(marker + 10)
        } else {
            rest = line.trimmingSpaces()
            if !(rest.hasPrefix("sql: ") || rest.hasPrefix("annotation: ") || rest.hasPrefix("details: ")) {
                // The unified log's subsystem tag, e.g. `[com.apple.coredata:sql] sql: SELECT …`.
                guard let tag = line.firstIndex(of: "[com.apple.coredata"),
                      let close = line.slice(tag).firstIndex(of: "]") else { return nil }
                rest = line.slice(tag + close + 1).trimmingSpaces()
                guard rest.hasPrefix("sql: ") || rest.hasPrefix("annotation: ") || rest.hasPrefix("details: ") else { return nil }
            }
        }
        var colon = 0
        while colon < rest.count, colon <= 12, (rest[colon] | 0x20) >= 0x61, (rest[colon] | 0x20) <= 0x7A { colon += 1 }
        guard colon > 0, colon <= 12, colon < rest.count, rest[colon] == UInt8(ascii: ":") else { return nil }
        let word = rest.slice(0, colon)
        let level: Level = word.hasPrefix("sql") && colon == 3 ? .sql
            : (word.hasPrefix("details") && colon == 7 ? .details : (word.hasPrefix("annotation") && colon == 10 ? .annotation
            : (word.hasPrefix("error") && colon == 5 ? .error : .other)))
        return (level, rest.slice(colon + 1).trimmingSpaces())
    }

    /// The parenthesis depth after `text`, starting from `depth`: `(` and `)` outside double-quoted strings
    /// (with `\"` escapes), and whether a string is still open.
    static func depth(after text: UnsafeBufferPointer<UInt8>, from depth: Int, quoted: Bool) -> (Int, Bool) {
        var depth = depth
        var quoted = quoted
        var i = 0
        while i < text.count {
            let c = text[i]
            if quoted {
                if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { quoted = false }
            } else if c == UInt8(ascii: "\"") {
                quoted = true
            } else if c == UInt8(ascii: "(") {
                depth += 1
            } else if c == UInt8(ascii: ")") {
                depth = max(0, depth - 1)
            }
            i += 1
        }
        return (depth, quoted)
    }

    /// The value of a `SQLite bind[i] = value` message: numbers, `"text"`, `nil`, `<hex bytes>`, `<x'hex'>`, each
    /// possibly after the C type Core Data bound it as (`(int64)1`, `(double)2.5`); other text as text. Nil for
    /// a value the log does not give (`<NSData len=16>`): binding its description would time another statement.
    static func bindValue(in message: UnsafeBufferPointer<UInt8>) -> SQLValue? {
        guard let equals = message.firstIndex(of: "] = ") else { return nil }
        var raw = message.slice(equals + 4).trimmingSpaces()
        // `(int64)1`: the type is a word in parentheses, the value follows it.
        var numeric = false
        if raw.count >= 3, raw[0] == UInt8(ascii: "("), let close = raw.firstIndex(of: ")"), close > 1, close + 1 < raw.count,
           raw.slice(1, close).allSatisfy({ ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 || $0 == UInt8(ascii: "_") }),
           raw.slice(1, close).contains(where: { $0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A }) {
            let type = String(decoding: raw.slice(1, close), as: UTF8.self).lowercased()
            numeric = type.contains("int") || type == "double" || type == "float" || type == "real"
            raw = raw.slice(close + 1).trimmingSpaces()
        }
        // A value bound as a number that is not one (`(int64)abc`, `(int64)1 junk`) is a damaged line, not text.
        if numeric {
            let text = String(decoding: raw, as: UTF8.self)
            if let integer = Int64(text) { return .integer(integer) }
            if let real = Double(text), real.isFinite { return .real(real) }
            return nil
        }
        if raw.count >= 5, raw[0] == UInt8(ascii: "<"), raw[1] | 0x20 == UInt8(ascii: "x"), raw[2] == UInt8(ascii: "'"),
           raw[raw.count - 2] == UInt8(ascii: "'"), raw[raw.count - 1] == UInt8(ascii: ">") {
            let hex = raw.slice(3, raw.count - 2)
            if hex.count % 2 == 0, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) {
                return .blob(SQLValue.bytes(fromHex: String(decoding: hex, as: UTF8.self)))
            }
        }
        if raw.hasPrefix("nil") && raw.count == 3 || raw.hasPrefix("NULL") && raw.count == 4 || raw.hasPrefix("(null)") && raw.count == 6 {
            return .null
        }
        if raw.count >= 2, raw[0] == UInt8(ascii: "\""), raw[raw.count - 1] == UInt8(ascii: "\"") {
            return .text(String(decoding: raw.slice(1, raw.count - 1), as: UTF8.self))
        }
        if raw.count >= 2, raw[0] == UInt8(ascii: "<"), raw[raw.count - 1] == UInt8(ascii: ">") {
            let hex = raw.slice(1, raw.count - 1).filter { $0 != 0x20 }
            if !hex.isEmpty, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) {
                return .blob(SQLValue.bytes(fromHex: String(decoding: hex, as: UTF8.self)))
            }
            // An object's description (`<NSData len=16>`, `<NSUUID: 0x…>`) is not its value.
            return nil
        }
        let text = String(decoding: raw, as: UTF8.self)
        if let integer = Int64(text) { return .integer(integer) }
        if let real = Double(text), real.isFinite { return .real(real) }
        return .text(text)
    }

    /// The longest time one logged execution may take, in seconds (a day): a larger value is not a
    /// timing but a damaged line, and summed it would overflow the workload's totals to infinity.
    static let longestLoggedSeconds = 86_400.0

    /// The seconds value at `offset` (after spaces), written as Core Data writes it: a decimal number and `s`
    /// (`0.0123s`, `0.0150s for 240 rows.`, also `0.0123 s`); nil when it is not that, or not a time from 0 to
    /// a day (`0,0012s`, a comma for the point, read as 0 before; `-0.5s`; `nans`).
    static func seconds(in message: UnsafeBufferPointer<UInt8>, after offset: Int) -> Double? {
        var i = offset
        while i < message.count, message[i] == 0x20 { i += 1 }
        var end = i
        while end < message.count, (message[end] >= 0x30 && message[end] <= 0x39) || message[end] == UInt8(ascii: ".")
            || message[end] | 0x20 == UInt8(ascii: "e") || message[end] == UInt8(ascii: "-") || message[end] == UInt8(ascii: "+") { end += 1 }
        while end < message.count, message[end] == 0x20 { end += 1 }
        guard end < message.count, message[end] == UInt8(ascii: "s"),
              end + 1 == message.count || message[end + 1] == 0x20 || message[end + 1] == UInt8(ascii: "."),
              let value = message.decimal(at: i), value.isFinite, value >= 0, value <= longestLoggedSeconds else { return nil }
        return value
    }

    /// The position of a `SQLite bind[i] = …` message: `i`, a number from 0; nil when it is not one
    /// (`bind[-1]`, `bind[99999999999999999999]`).
    static func bindIndex(in message: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let close = message.firstIndex(of: "]"), close > 12 else { return nil }
        let digits = message.slice(12, close)
        guard digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// Upper-case words a wrapped line of a Core Data statement can start with.
    static let continuationWords: [StaticString] = [
        "FROM", "WHERE", "AND", "OR", "ORDER", "GROUP", "HAVING", "LIMIT", "OFFSET", "VALUES", "SET", "JOIN", "LEFT",
        "RIGHT", "INNER", "CROSS", "OUTER", "NATURAL", "ON", "USING", "UNION", "INTERSECT", "EXCEPT", "COLLATE", "ASC",
        "DESC", "ESCAPE", "RETURNING", "WHEN", "THEN", "ELSE", "END", "NOT", "IN", "IS", "BETWEEN", "LIKE", "GLOB",
    ]

    /// True when `line` starts like the rest of a wrapped statement: one of ``continuationWords`` in upper
    /// case (followed by a space, a tab, `(` or the end of the line), or `,`, `)`, `=`, `<`, `>`, `|`.
    static func startsLikeContinuation(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = line.first else { return false }
        if first == UInt8(ascii: ",") || first == UInt8(ascii: ")") || first == UInt8(ascii: "=") || first == UInt8(ascii: "<")
            || first == UInt8(ascii: ">") || first == UInt8(ascii: "|") {
            return true
        }
        var end = 0
        while end < line.count, end < 10, line[end] >= 0x41, line[end] <= 0x5A { end += 1 }
        guard end >= 2, end == line.count || line[end] == 0x20 || line[end] == 0x09 || line[end] == UInt8(ascii: "(") else { return false }
        return continuationWords.contains { $0.utf8CodeUnitCount == end && line.hasPrefix($0) }
    }

    /// True when a statement's last token needs something after it (a word such as `WHERE`, `AND`, `COLLATE`,
    /// or a symbol other than `)` and `*`); nil when `list` has no token.
    static func lastTokenNeedsMore(_ list: SQLTokenList) -> Bool? {
        guard list.count > 0 else { return nil }
        let last = list.count - 1
        if list.tokens[last].kind == .symbol { return list.text(at: last) != ")" && list.text(at: last) != "*" }
        return needsMoreWords.contains { list.isWord(last, $0) }
    }

    static let needsMoreWords = ["WHERE", "AND", "OR", "ON", "BY", "SET", "VALUES", "FROM", "SELECT", "JOIN", "NOT", "IN", "IS",
                                 "LIKE", "GLOB", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "AS", "INTO", "LIMIT", "OFFSET", "HAVING", "DISTINCT",
                                 "COLLATE", "ORDER", "GROUP", "ESCAPE", "UNION", "EXCEPT", "INTERSECT", "ALL", "LEFT", "INNER", "OUTER", "CROSS",
                                 "NATURAL", "USING", "UPDATE", "INSERT", "DELETE", "EXISTS"]

    /// True when `sql` cannot end here: unbalanced parentheses, an open string, quoted name or comment, or it
    /// ends with a word or symbol that needs something after it (`WHERE`, `AND`, `COLLATE`, `,`, `(`, `=`…).
    static func expectsMore(_ sql: String) -> Bool {
        // sqlite3_complete is false inside a string, name or comment (the newline ends a line comment).
        if sqlite3_complete(sql + "\n;") == 0 { return true }
        let list = SQLTokenList(sql)
        var depth = 0
        for i in 0..<list.count {
            if list.isSymbol(i, "(") { depth += 1 } else if list.isSymbol(i, ")") { depth -= 1 }
        }
        if depth > 0 { return true }
        return lastTokenNeedsMore(list) ?? false
    }

    /// True for a line that starts like another log record (a date, or `Name[pid:tid]`).
    static func looksLikeLogLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let bytes = line.slice(0, 40)
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        if bytes.count >= 10, isDigit(bytes[0]), isDigit(bytes[1]), isDigit(bytes[2]), isDigit(bytes[3]), bytes[4] == UInt8(ascii: "-") {
            return true
        }
        guard let open = bytes.firstIndex(of: "["), open > 0 else { return false }
        let inside = bytes.slice(open + 1)
        guard let close = inside.firstIndex(of: "]") else { return false }
        let pidTid = inside.slice(0, close)
        return pidTid.contains(byte: UInt8(ascii: ":")) && pidTid.allSatisfy {
            isDigit($0) || ($0 >= 0x61 && $0 <= 0x66) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "x")
        }
    }

    /// Puts `line` without ANSI escape sequences (`ESC [ … final`) into `scratch`.
    private mutating func stripANSI(_ line: UnsafeBufferPointer<UInt8>) {
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < line.count {
            let byte = line[i]
            if byte == 0x1B, i + 1 < line.count, line[i + 1] == UInt8(ascii: "[") {
                i += 2
                while i < line.count, !(line[i] >= 0x40 && line[i] <= 0x7E) { i += 1 }
                i += 1
                continue
            }
            scratch.append(byte)
            i += 1
        }
    }
}

/// Whether a statement's text, read line by line, can end where it stops: the parenthesis depth and the
/// string, quoted name or comment open at the end (tracked byte by byte), and whether the last token
/// needs more (from the last line's tokens after any string or comment that closed in it).
struct OpenText {
    private var depth = 0
    /// The byte that closes the open string or name (`'`, `"`, `` ` ``, `]`), 1 for a block comment, 0 for none.
    private var close: UInt8 = 0
    private var lastNeedsMore = false

    var expectsMore: Bool { depth > 0 || close != 0 || lastNeedsMore }

    /// Reads one more line of the statement (lines are joined with a space: a `--` comment ends with its line).
    mutating func add(_ line: UnsafeBufferPointer<UInt8>) {
        var resume = close == 0 ? 0 : line.count
        var end = line.count
        var i = 0
        scan: while i < line.count {
            let c = line[i]
            switch close {
            case 0:
                if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "`") {
                    close = c
                } else if c == UInt8(ascii: "[") {
                    close = UInt8(ascii: "]")
                } else if c == UInt8(ascii: "(") {
                    depth += 1
                } else if c == UInt8(ascii: ")") {
                    depth = max(0, depth - 1)
                } else if c == UInt8(ascii: "-"), i + 1 < line.count, line[i + 1] == UInt8(ascii: "-") {
                    end = i
                    break scan
                } else if c == UInt8(ascii: "/"), i + 1 < line.count, line[i + 1] == UInt8(ascii: "*") {
                    close = 1
                    i += 1
                }
            case 1:
                if c == UInt8(ascii: "*"), i + 1 < line.count, line[i + 1] == UInt8(ascii: "/") {
                    close = 0
                    i += 1
                    resume = i + 1
                }
            default:
                if c == close {
                    close = 0
                    resume = i + 1
                }
            }
            i += 1
        }
        guard close == 0 else { return }
        if resume > 0, resume == min(end, line.count) {
            // The line ends right after a string or comment that closed: a complete term.
            lastNeedsMore = false
            return
        }
        if let needsMore = Self.lastTokenNeedsMore(line.slice(resume, end)) { lastNeedsMore = needsMore }
    }

    /// ``CoreDataLogReader/needsMoreWords`` as bytes.
    private static let needsMoreWords: [[UInt8]] = CoreDataLogReader.needsMoreWords.map { Array($0.utf8) }

    /// ``CoreDataLogReader/lastTokenNeedsMore(_:)`` on bytes, without tokenizing: the last word (letters,
    /// digits, `_`, `$`, non-ASCII) is compared with the words that need more, case-insensitively; a last
    /// symbol needs more unless it is `)`, `*`, `?` or a closing quote or bracket. Nil for blank text.
    static func lastTokenNeedsMore(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        var end = text.count
        while end > 0, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
        guard end > 0 else { return nil }
        func isWordByte(_ c: UInt8) -> Bool {
            (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || c >= 0x80
        }
        let last = text[end - 1]
        guard isWordByte(last) else {
            return !(last == UInt8(ascii: ")") || last == UInt8(ascii: "*") || last == UInt8(ascii: "?") || last == UInt8(ascii: "'")
                     || last == UInt8(ascii: "\"") || last == UInt8(ascii: "`") || last == UInt8(ascii: "]"))
        }
        var start = end
        while start > 0, isWordByte(text[start - 1]) { start -= 1 }
        let length = end - start
        return needsMoreWords.contains { word in
            word.count == length && (0..<length).allSatisfy { text[start + $0] & 0xDF == word[$0] }
        }
    }
}
