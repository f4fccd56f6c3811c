import Foundation

/// The JSON report: ``AnalysisResult`` encoded with sorted keys. Times are seconds, sizes bytes;
/// `schemaVersion` changes when a field changes meaning.
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

    /// Reads a JSON report back.
    /// - Throws: `DecodingError` when the text is not a report of a known schema version.
    public static func decode(_ data: Data) throws -> AnalysisResult {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(AnalysisResult.self, from: data)
    }
}
