import Foundation

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
            return String(decoding: try encoder.encode(result), as: UTF8.self) + "\n"
        } catch {
            // Every field is a plain value; this cannot happen, but an empty object must never pass for a report.
            return "{\"schemaVersion\": \(AnalysisResult.currentSchemaVersion), \"error\": \(String(reflecting: String(describing: error)))}\n"
        }
    }

    /// Reads a JSON report back (a baseline saved by an earlier run, or any format's source).
    /// - Throws: ``JSONReportError`` when the text is JSON but not a report, or a report of a newer schema
    ///   version than this build reads; `DecodingError` when a field is missing or has the wrong type.
    public static func decode(_ data: Data) throws -> AnalysisResult {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let version: Int
        do {
            guard let found = try decoder.decode(VersionProbe.self, from: data).schemaVersion else { throw JSONReportError.notAReport }
            version = found
        } catch let error as JSONReportError {
            throw error
        } catch {
            throw JSONReportError.notAReport
        }
        guard version <= AnalysisResult.currentSchemaVersion else {
            throw JSONReportError.newerSchema(found: version, supported: AnalysisResult.currentSchemaVersion)
        }
        return try decoder.decode(AnalysisResult.self, from: data)
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

    public var description: String {
        switch self {
        case .notAReport:
            return "not an indexadvisor JSON report (no integer schemaVersion at the top level)"
        case .newerSchema(let found, let supported):
            return "the report has schemaVersion \(found); this indexadvisor reads up to \(supported): update indexadvisor"
        }
    }
}
