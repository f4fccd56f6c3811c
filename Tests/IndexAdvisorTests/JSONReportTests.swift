import Testing
import Foundation
@testable import IndexAdvisor

@Suite("The JSON report")
struct JSONReportTests {
    @Test("JSON round-trips through its Codable model; newer schemas and non-reports are refused by name")
    func jsonRoundTrip() throws {
        var result = ReportFixture.result()
        result.model = ModelSummary(files: ["Note.swift"], entities: [ModelEntityMapping(entity: "Note", table: "ZNOTE", declaredAt: "Note.swift:4",
                                                                                         properties: [PropertyMapping(column: "ZFOLDER", property: "folder", kind: .toOneRelationship)])],
                                    notes: ["x"])
        result.recommendations[0].declaredInModel = "Note.swift:9"
        let json = JSONReport.render(result)
        let decoded = try JSONReport.decode(Data(json.utf8))
        #expect(JSONReport.render(decoded) == json)
        #expect(decoded.model?.entities.first?.properties.first?.kind == .toOneRelationship)
        #expect(decoded.recommendations[0].declaredInModel == "Note.swift:9")
        #expect(decoded.statements[0].timingBefore == result.statements[0].timingBefore)
        // A report without the optional fields (an older writer) still reads.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object["model"] = nil
        let older = try JSONReport.decode(try JSONSerialization.data(withJSONObject: object))
        #expect(older.model == nil)
        // Regression: a report written before the timed executions and value-set counts were kept (the
        // committed demo report, a CI baseline) must still read.
        var statements = try #require(object["statements"] as? [[String: Any]])
        statements[0]["timedExecutions"] = [["sql": "SELECT 1 LIMIT 20", "values": [], "weight": 1.0]]
        let withExecutions = try JSONReport.decode(try JSONSerialization.data(withJSONObject: object.merging(["statements": statements]) { $1 }))
        #expect(withExecutions.statements[0].timedExecutions == [TimedExecution(sql: "SELECT 1 LIMIT 20", values: [], weight: 1)])
        for key in ["timedExecutions", "valueSetsSeen", "valueSetsTimed"] { statements[0][key] = nil }
        let beforeValueSets = try JSONReport.decode(try JSONSerialization.data(withJSONObject: object.merging(["statements": statements]) { $1 }))
        #expect(beforeValueSets.statements[0].timedExecutions == nil)
        object["schemaVersion"] = AnalysisResult.currentSchemaVersion + 1
        #expect(throws: JSONReportError.newerSchema(found: AnalysisResult.currentSchemaVersion + 1, supported: AnalysisResult.currentSchemaVersion)) {
            try JSONReport.decode(try JSONSerialization.data(withJSONObject: object))
        }
        #expect(throws: JSONReportError.notAReport) { try JSONReport.decode(Data("[1, 2]".utf8)) }
        // A breaking helper's cut-short report and missing field: said as such, not as a missing schemaVersion
        // or in DecodingError's words.
        let rendered = JSONReport.render(ReportFixture.result())
        #expect(throws: JSONReportError.notJSON("cut short, damaged, or holding a value JSON has no form for, such as a bare NaN or 1e400")) {
            try JSONReport.decode(Data(rendered.utf8.prefix(rendered.utf8.count / 2)))
        }
        var withoutTotals = try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
        withoutTotals["totals"] = nil
        #expect(throws: JSONReportError.unreadableField("totals is missing")) {
            try JSONReport.decode(try JSONSerialization.data(withJSONObject: withoutTotals))
        }
        #expect(throws: JSONReportError.notAReport) { try JSONReport.decode(Data("{\"tool\": {}}".utf8)) }
    }

    // Regression: render printed report fields as code without a look: a DROP TABLE appended to a
    // recommendation's SQL reached the migration, a newline in a key path reached the Swift file.
    @Test("a report whose code fields were edited into something else is refused, naming the field")
    func editedCodeFields() throws {
        let json = JSONReport.render(ReportFixture.result())
        func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            change(&object)
            return try JSONSerialization.data(withJSONObject: object)
        }
        func recommendation(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
            { object in
                var list = object["recommendations"] as! [[String: Any]]
                list[0][key] = value
                object["recommendations"] = list
            }
        }
        let sql = (ReportFixture.result().recommendations[0].sql)
        #expect(throws: JSONReportError.unsafeField("recommendations[0].sql is not one CREATE INDEX statement")) {
            try JSONReport.decode(try edited(recommendation("sql", sql + "\nDROP TABLE z; --")))
        }
        #expect(throws: JSONReportError.unsafeField("recommendations[0].sql is not one CREATE INDEX statement")) {
            try JSONReport.decode(try edited(recommendation("sql", "DELETE FROM t;")))
        }
        // A breaking helper's edits that passed: statements after the ON (a `;` is its own kind of token, which
        // the check took for a symbol), and a subquery in a partial index's WHERE.
        let table = ReportFixture.result().recommendations[0].table
        for injected in ["CREATE INDEX IF NOT EXISTS \"i\" ON\n;\nDROP TABLE \(table);\n\"\(table)\" (\"a\")",
                         "CREATE INDEX \"i\" ON \"\(table)\"; DROP TABLE \(table); CREATE INDEX j ON \(table) (a)",
                         "CREATE INDEX \"i\" ON \"\(table)\" (\"a\") WHERE (SELECT load_extension('x'))"] {
            #expect(throws: JSONReportError.unsafeField("recommendations[0].sql is not one CREATE INDEX statement")) {
                try JSONReport.decode(try edited(recommendation("sql", injected)))
            }
        }
        // A breaking helper's edits that passed: a `sql` whose key or name is not the one the fields give (an
        // expression calling load_extension; another index's name). The unedited SQL, and with a `;`, passes.
        let mismatch = "recommendations[0].sql does not create the index its name, table, columns and partialPredicate give"
        let name = ReportFixture.result().recommendations[0].name
        for injected in ["CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quote(name)) ON \"\(table)\" ((load_extension('/tmp/x.so')))",
                         sql.replacingOccurrences(of: SQLIdentifier.quote(name), with: "\"other_index\"")] {
            #expect(throws: JSONReportError.unsafeField(mismatch)) { try JSONReport.decode(try edited(recommendation("sql", injected))) }
        }
        #expect(JSONReport.describes(ReportFixture.result().recommendations[0]))
        _ = try JSONReport.decode(try edited(recommendation("sql", sql + ";")))
        #expect(throws: JSONReportError.unsafeField("recommendations[0].entity is not a Swift type name")) {
            try JSONReport.decode(try edited(recommendation("entity", "Note>([])\nimport Evil\n#Index<Note")))
        }
        // A breaking helper's edit: a statement ID that the Markdown printed raw (a <script> and a heading).
        #expect(throws: JSONReportError.unsafeField("recommendations[0].effects[0].statementID names no statement of the report")) {
            try JSONReport.decode(try edited { object in
                var list = object["recommendations"] as! [[String: Any]]
                var effects = list[0]["effects"] as! [[String: Any]]
                effects[0]["statementID"] = "<script>alert(1)</script>\n```\n# INJECTED"
                list[0]["effects"] = effects
                object["recommendations"] = list
            })
        }
        #expect(throws: JSONReportError.unsafeField("existingIndexes[0].dropSQL is not one DROP INDEX statement")) {
            try JSONReport.decode(try edited { object in
                var list = object["existingIndexes"] as! [[String: Any]]
                list[0]["dropSQL"] = "DROP INDEX IF EXISTS \"i\"; DROP TABLE z"
                object["existingIndexes"] = list
            })
        }
        // Second pass: a comment or string left open in one field swallowed the `;` and the next field's quoting.
        #expect(throws: JSONReportError.unsafeField("recommendations[0].sql is not one CREATE INDEX statement")) {
            try JSONReport.decode(try edited(recommendation("sql", #"CREATE INDEX IF NOT EXISTS "x" ON "ZNOTE" ("ZTITLE") WHERE 1 /*"#)))
        }
        #expect(throws: JSONReportError.unsafeField("recommendations[0].sql is not one CREATE INDEX statement")) {
            try JSONReport.decode(try edited(recommendation("sql", #"CREATE INDEX IF NOT EXISTS "x" ON "ZNOTE" ("ZTITLE") WHERE ZSLUG = '"#)))
        }
        #expect(throws: JSONReportError.unsafeField("recommendations[0].sql is not one CREATE INDEX statement")) {
            try JSONReport.decode(try edited(recommendation("sql", #"CREATE INDEX IF NOT EXISTS "x" ON "ZNOTE" ("ZTITLE") --"#)))
        }
        #expect(throws: JSONReportError.unsafeField("uniqueness[0].swiftDataUnique is not one #Unique line")) {
            try JSONReport.decode(try edited { object in
                var list = object["uniqueness"] as! [[String: Any]]
                list[0]["swiftDataUnique"] = #"#Unique<Note>([\.remoteID]); static let pwned: Void = print("pwned")"#
                object["uniqueness"] = list
            })
        }
        // An entity that is not a Swift type name is fine where no #Index is generated for it (our own reports).
        let plain = try JSONReport.decode(try edited { object in
            var list = object["recommendations"] as! [[String: Any]]
            list[0]["entity"] = "My Note"
            list[0]["swiftDataIndex"] = nil
            object["recommendations"] = list
        })
        #expect(plain.recommendations[0].entity == "My Note")
        #expect(throws: JSONReportError.notAReport) {
            try JSONReport.decode(try edited { $0["schemaVersion"] = 0 })
        }
        // The untouched report still reads.
        #expect(try JSONReport.decode(Data(json.utf8)).recommendations.count == ReportFixture.result().recommendations.count)
    }

    @Test("docs/report-json.md describes every field the JSON report can hold, and the current schema version")
    func documented() throws {
        // A result with every optional field set, so every key appears.
        var result = ReportFixture.result()
        result.model = ModelSummary(files: ["Note.swift"], entities: [ModelEntityMapping(entity: "Note", table: "ZNOTE", declaredAt: "Note.swift:4",
                                                                                         properties: [PropertyMapping(column: "ZNAME", property: "title", kind: .attribute, originalName: "name")])],
                                    notes: [])
        result.recommendations[0].declaredInModel = "Note.swift:9"
        result.recommendations[0].partialPredicate = "ZISARCHIVED = 0"
        result.rejectedCandidates[0].partialPredicate = "x IS NOT NULL"
        result.store.sampledTables = [SampledTable(table: "ZNOTE", rows: 1_000_000, sampledRows: 250_000, step: 4)]
        result.store.tables[0].sampledRows = 250_000
        result.store.tables[0].indexes[0].partialPredicate = "x > 0"
        result.store.tables[0].columnStatistics = result.recommendations[0].columnStatistics
        result.statements[0].planBefore?.findings[0].index = "i"
        result.statements[0].planBefore?.findings[0].constraints = "a=?"
        let timing = result.statements[0].timingBefore
        result.queryAdvice = [QueryAdvice(kind: .statistics, statementID: "x", finding: .other(advice: "a", caveat: "c"), timing: timing,
                                          rewrite: "PRAGMA optimize;", rewriteTiming: timing, rewritePlan: result.statements[0].planBefore)]
        if let timing {
            result.schemaReview = [SchemaFinding(kind: .redundantIndex, table: "t", columns: ["a"], index: "i", bytes: 1, detail: .other("a"), sql: "DROP INDEX i;",
                                                 measurements: [SchemaMeasurement(operation: "INSERT", withIndex: timing, withoutIndex: timing, isSignificant: false)],
                                                 swiftDataUnique: "#Unique<T>([\\.a])")]
        }
        result.captureHint = ["x"]
        result.statements[0].valueSetsSeen = 40
        result.statements[0].valueSetsTimed = 12
        result.statements[0].valueSetsOnExistingRows = 8
        result.statements[0].valueSetsChangingNoRow = 4
        result.statements[0].timedExecutions = [TimedExecution(sql: "SELECT 1", values: [.integer(1)], weight: 2)]
        result.method.costSource = .sqliteCounters
        result.statements[0].timingBefore?.costSource = .wallClock
        result.statements[0].timingBefore?.vmStepsPerExecution = 10
        result.statements[0].timingBefore?.pageLookupsPerExecution = 2
        result.existingIndexes[0].caveat = "c"
        result.recommendations[0].readSecondsSavedBound = .atLeast
        result.recommendations[0].writeSecondsAddedBound = .atMost
        result.rejectedCandidates[0].readSecondsSavedBound = .notKnown
        result.rejectedCandidates[0].writeSecondsAddedBound = .atLeast
        let json = try JSONSerialization.jsonObject(with: Data(JSONReport.render(result).utf8))
        var keys = Set<String>()
        func collect(_ value: Any, under parent: String?) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    // `skipped` maps reasons (free text) to counts: its keys are data, not fields.
                    if parent != "skipped" { keys.insert(key) }
                    collect(child, under: key)
                }
            } else if let array = value as? [Any] {
                for child in array { collect(child, under: parent) }
            }
        }
        collect(json, under: nil)
        let doc = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/report-json.md").standardizedFileURL, encoding: .utf8)
        let undocumented = keys.filter { !doc.contains("`\($0)`") }.sorted()
        #expect(undocumented.isEmpty, "fields missing from docs/report-json.md: \(undocumented)")
        #expect(keys.count > 100)
        #expect(doc.contains("`schemaVersion` (integer, currently **\(AnalysisResult.currentSchemaVersion)**)"))
    }
}

@Suite("Times in a saved report")
struct SavedReportTimeTests {
    // Regression (breaking round): a baseline whose medians read "nan" passed `check` with 0 failures,
    // since NaN compares as neither slower nor faster.
    @Test("a report with a time that is not a number, or negative, is refused by name")
    func notANumber() throws {
        let time = "a time is never negative or not a number", count = "a count or size is never negative or not a number"
        let fixture = ReportFixture.result()
        let net = fixture.recommendations[0].readSecondsSaved - fixture.recommendations[0].writeSecondsAdded
        // Each edit and the words it is refused with. Beyond the NaN: a breaking helper's edits that
        // `render --check` passed (a count, an effect's time, a size, the totals, the method, a net saving
        // that is not read − write).
        let edits: [(String, (inout AnalysisResult) -> Void)] = [
            ("statements[0].timingBefore.medianSeconds is nan: \(time)", { $0.statements[0].timingBefore?.medianSeconds = .nan }),
            ("statements[0].timingBefore.medianSeconds is -1: \(time)", { $0.statements[0].timingBefore?.medianSeconds = -1 }),
            ("statements[1].count is -5: \(count)", { $0.statements[1].count = -5 }),
            ("recommendations[0].effects[0].after.p75Seconds is -0.5: \(time)", { $0.recommendations[0].effects[0].after.p75Seconds = -0.5 }),
            ("recommendations[0].bytes is -4096: \(count)", { $0.recommendations[0].bytes = -4096 }),
            ("totals.readSecondsBefore is -3: \(time)", { $0.totals.readSecondsBefore = -3 }),
            ("method.repeats is -3: \(count)", { $0.method.repeats = -3 }),
            ("recommendations[0].netSecondsSaved is -3, not readSecondsSaved − writeSecondsAdded (\(net))", { $0.recommendations[0].netSecondsSaved = -3 }),
            // Hostile round 7, F10: the machine's load, as edited reports gave it.
            ("method.machineLoad.atStart is -3: \(count)", { $0.method.machineLoad = MachineLoadFigures(atStart: -3, highest: 10.6, cores: 2) }),
            ("method.machineLoad.atStart is 9.5, above its highest (2.0)", { $0.method.machineLoad = MachineLoadFigures(atStart: 9.5, highest: 2, cores: 2) }),
        ]
        for (words, edit) in edits {
            var result = fixture
            edit(&result)
            #expect(throws: JSONReportError.impossibleFigure(words)) { try JSONReport.decode(Data(JSONReport.render(result).utf8)) }
        }
        // The fixture as written reads.
        #expect(throws: Never.self) { try JSONReport.decode(Data(JSONReport.render(ReportFixture.result()).utf8)) }
    }
}
