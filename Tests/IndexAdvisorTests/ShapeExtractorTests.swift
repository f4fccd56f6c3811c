import Testing
@testable import IndexAdvisor

@Suite("Statement shapes from SQLite's parser")
struct ShapeExtractorTests {
    static let schemaSQL = """
        CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDERID BLOB,
                            ZISARCHIVED INTEGER, ZUPDATEDAT TIMESTAMP, ZTITLE VARCHAR, ZSLUG VARCHAR, ZREMOTEID VARCHAR);
        CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, ZNOTE INTEGER, ZNAME VARCHAR COLLATE NOCASE);
        """

    func extractor() throws -> ShapeExtractor { try shapeExtractor(Self.schemaSQL) }

    @Test("equality, range and ORDER BY with direction, parameters mapped to columns")
    func equalityRangeAndSort() throws {
        let shape = try extractor().shape(of: """
            SELECT t0.Z_PK FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND  t0.ZISARCHIVED = ?) AND t0.ZUPDATEDAT > ? ORDER BY t0.ZUPDATEDAT DESC
            """)
        let note = try #require(shape.access(to: "ZNOTE"))
        let byColumn = Dictionary(grouping: note.constraints, by: \.column)
        #expect(byColumn["ZFOLDERID"]?.first?.op == .equal)
        #expect(byColumn["ZFOLDERID"]?.first?.parameter == 1)
        #expect(byColumn["ZISARCHIVED"]?.first?.parameter == 2)
        #expect(byColumn["ZUPDATEDAT"]?.first?.op == .greaterThan)
        #expect(byColumn["ZUPDATEDAT"]?.first?.parameter == 3)
        #expect(note.orderBy == [SortTerm(column: "ZUPDATEDAT", isDescending: true)])
        #expect(shape.parameters.map(\.column) == ["ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT"])
        #expect(Set(note.readColumns) == ["Z_PK", "ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT"])
    }

    @Test("IN lists, IS NULL, IS NOT NULL and LIKE are told apart")
    func operators() throws {
        let shape = try extractor().shape(of: """
            SELECT * FROM ZNOTE WHERE ZSLUG IN (?, ?, ?) AND ZREMOTEID IS NULL AND ZTITLE LIKE ? AND ZUPDATEDAT IS NOT NULL
            """)
        let ops = Dictionary(uniqueKeysWithValues: try #require(shape.access(to: "ZNOTE")).constraints.map { ($0.column, $0.op) })
        #expect(ops["ZSLUG"] == .in)
        #expect(ops["ZREMOTEID"] == .isNull)
        #expect(ops["ZTITLE"] == .like)
        #expect(ops["ZUPDATEDAT"] == .isNotNull)
        #expect(shape.parameters.first { $0.parameter == 4 }?.column == "ZTITLE")
    }

    @Test("a join maps the join column and the parameters of both tables")
    func join() throws {
        let shape = try extractor().shape(of: """
            SELECT t0.ZTITLE FROM ZNOTE t0 JOIN ZTAG t1 ON t1.ZNOTE = t0.Z_PK WHERE t1.ZNAME = ? AND t0.ZISARCHIVED = ?
            """)
        let tag = try #require(shape.access(to: "ZTAG"))
        #expect(tag.constraints.contains { $0.column == "ZNOTE" && $0.isJoin })
        #expect(tag.constraints.first { $0.column == "ZNAME" }?.collation == "NOCASE")
        #expect(shape.parameters.map(\.column) == ["ZNAME", "ZISARCHIVED"])
    }

    @Test("INSERT and UPDATE report written columns and map values to them")
    func writes() throws {
        let extractor = try extractor()
        let insert = try extractor.shape(of: "INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES(?, ?, ?, ?)")
        let inserted = try #require(insert.access(to: "ZNOTE"))
        #expect(inserted.isInserted)
        #expect(insert.parameters.map(\.column) == ["Z_PK", "Z_ENT", "Z_OPT", "ZTITLE"])
        #expect(insert.parameters.allSatisfy { $0.op == nil })

        let update = try extractor.shape(of: "UPDATE ZNOTE SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
        let updated = try #require(update.access(to: "ZNOTE"))
        #expect(updated.isUpdated)
        #expect(Set(updated.writtenColumns) == ["ZTITLE", "Z_OPT"])
        #expect(update.parameters.map(\.column) == ["ZTITLE", "Z_OPT", "Z_PK", "Z_OPT"])
        #expect(update.parameters[2].op == .equal)

        let delete = try extractor.shape(of: "DELETE FROM ZNOTE WHERE Z_PK = ?")
        #expect(delete.access(to: "ZNOTE")?.isDeleted == true)
    }

    @Test("Core Data functions and collations get stand-ins; an NSCollate sort is unindexable")
    func coreDataStandIns() throws {
        let shape = try extractor().shape(of: """
            SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1) ORDER BY t0.ZTITLE COLLATE NSCollateFinderlike DESC
            """)
        #expect(shape.standIns == ["NSCollateFinderlike", "NSCoreDataStringSearch"])
        #expect(shape.access(to: "ZNOTE")?.columnFunctions == ["NSCoreDataStringSearch"])
        #expect(shape.access(to: "ZNOTE")?.orderBy == [SortTerm(column: "ZTITLE", isDescending: true, collation: "NSCollateFinderlike")])
        #expect(shape.unindexableSorts.map(\.column) == ["ZTITLE"])
    }

    @Test("a sort under NOCASE on a BINARY column keeps the collation and stays indexable")
    func nocaseSort() throws {
        let shape = try extractor().shape(of: "SELECT Z_PK FROM ZNOTE WHERE ZADDED IS NOT NULL ORDER BY ZTITLE COLLATE NOCASE DESC".replacingOccurrences(of: "ZADDED", with: "ZSLUG"))
        #expect(shape.access(to: "ZNOTE")?.orderBy == [SortTerm(column: "ZTITLE", isDescending: true, collation: "NOCASE")])
        #expect(shape.unindexableSorts.isEmpty)
    }

    @Test("Core Data's key-list tables do not stop a statement")
    func intArray() throws {
        let shape = try extractor().shape(of: "SELECT 0, t0.Z_PK, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 20")
        #expect(shape.access(to: "ZNOTE")?.constraints.contains { $0.column == "Z_PK" && $0.op == .in } == true)
    }

    @Test("a statement on a table the store lacks throws SQLite's error with the SQL")
    func unknownTable() throws {
        let error = try #require(throws: SQLiteError.self) { try extractor().shape(of: "SELECT * FROM nope WHERE a = 1") }
        #expect(error.message == "no such table: nope")
        #expect(error.sql == "SELECT * FROM nope WHERE a = 1")
    }
}
