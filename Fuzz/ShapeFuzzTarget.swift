import Foundation

/// The shape database and what-if planner for a small notes schema, built once per process.
nonisolated(unsafe) private var fuzzState: (ShapeExtractor, QueryPlanner)? = {
    guard let connection = try? SQLiteConnection.inMemory() else { return nil }
    connection.installStandIns()
    try? connection.execute("""
        CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZTITLE VARCHAR COLLATE NOCASE,
                            "order" TEXT, "we""ird name" BLOB, ZUPDATEDAT TIMESTAMP,
                            ZSLUG TEXT AS (lower(ZTITLE)) VIRTUAL, ZSTAMP INTEGER AS (ZUPDATEDAT * 1000) STORED);
        CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, ZNOTE INTEGER REFERENCES ZNOTE(Z_PK), ZNAME TEXT);
        CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER);
        CREATE INDEX ZNOTE_FOLDER_PLUS ON ZNOTE (ZFOLDER + 1, ZTITLE ->> '$.kind');
        CREATE VIEW notes AS SELECT * FROM ZNOTE WHERE Z_ENT = 1;
        """)
    guard let schema = try? SchemaReader.read(from: connection), let extractor = try? ShapeExtractor(schema: schema) else { return nil }
    return (extractor, QueryPlanner(connection: connection, schema: schema))
}()

/// libFuzzer entry point: statements of any text through the shape extractor (SQLite prepares and runs
/// them against the mirror tables) and the query planner. Only the kinds the advisor analyses are fed,
/// as in an analysis.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShapes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let (extractor, planner) = fuzzState else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let normalized = Fingerprinter.normalize(text)
    guard normalized.kind.isAnalysed else { return 0 }
    if let shape = try? extractor.shape(of: normalized.parameterizedSQL) {
        _ = Advisor.summaryForFuzzing(shape)
    }
    _ = try? planner.plan(for: normalized.parameterizedSQL)
    return 0
}
