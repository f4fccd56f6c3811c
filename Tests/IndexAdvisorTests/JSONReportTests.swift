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
        object["schemaVersion"] = AnalysisResult.currentSchemaVersion + 1
        #expect(throws: JSONReportError.newerSchema(found: AnalysisResult.currentSchemaVersion + 1, supported: AnalysisResult.currentSchemaVersion)) {
            try JSONReport.decode(try JSONSerialization.data(withJSONObject: object))
        }
        #expect(throws: JSONReportError.notAReport) { try JSONReport.decode(Data("[1, 2]".utf8)) }
        #expect(throws: JSONReportError.notAReport) { try JSONReport.decode(Data("{\"tool\": {}}".utf8)) }
    }
}
