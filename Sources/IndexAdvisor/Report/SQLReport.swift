/// `--format sql`: the recommended `CREATE INDEX IF NOT EXISTS` statements, one per line, best first.
public enum SQLReport {
    public static func render(_ result: AnalysisResult) -> String {
        result.recommendations.map { $0.sql + ";\n" }.joined()
    }
}
