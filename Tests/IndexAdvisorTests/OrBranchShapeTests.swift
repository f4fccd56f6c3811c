import Testing
@testable import IndexAdvisor

/// The branches of an OR across columns, as SQLite plans them (each branch in an `xBestIndex` call of its own).
@Suite("OR across columns in statement shapes")
struct OrBranchShapeTests {
    static let schemaSQL = """
        CREATE TABLE track (id INTEGER PRIMARY KEY, path TEXT, mirror TEXT, url TEXT, album INTEGER, n INTEGER);
        CREATE TABLE star (ref TEXT PRIMARY KEY, at INTEGER);
        """

    func extractor() throws -> ShapeExtractor { try shapeExtractor(Self.schemaSQL) }

    @Test("a WHERE that ORs three columns has three branches; an AND term outside the OR is in none")
    func singleTable() throws {
        let shape = try extractor().shape(of: "SELECT id FROM track WHERE album = ? AND (path = ? OR mirror = ? OR url = ?)")
        let track = try #require(shape.access(to: "track"))
        #expect(track.orBranches == [["path"], ["mirror"], ["url"]])
        #expect(track.withoutOrBranches.constraints.map(\.column) == ["album"])
    }

    @Test("a join condition that ORs three columns of one side: branches on that side, an IN on the other")
    func joinCondition() throws {
        let shape = try extractor().shape(of: """
            SELECT t.id FROM track t JOIN star s ON (t.path = s.ref OR t.mirror = s.ref OR t.url = s.ref) ORDER BY s.at DESC
            """)
        #expect(try #require(shape.access(to: "track")).orBranches == [["path"], ["mirror"], ["url"]])
        #expect(try #require(shape.access(to: "star")).orBranches == nil)
    }

    @Test("an OR of values of one column is an IN, and AND terms alone have no branches")
    func noBranches() throws {
        let extractor = try extractor()
        #expect(try #require(extractor.shape(of: "SELECT id FROM track WHERE path = ? OR path = ?").access(to: "track")).orBranches == nil)
        #expect(try #require(extractor.shape(of: "SELECT id FROM track WHERE album = ? AND n > ?").access(to: "track")).orBranches == nil)
    }

    @Test("literals, a sort and a LIMIT: still two branches (a new user's reviews by user or by recipe)")
    func literalsSortLimit() throws {
        let shape = try extractor().shape(of: "SELECT * FROM track WHERE album = 55 OR n = 1234 ORDER BY path DESC LIMIT 40")
        #expect(try #require(shape.access(to: "track")).orBranches == [["album"], ["n"]])
    }

    @Test("a branch of two AND terms keeps both columns")
    func conjunctionBranch() throws {
        let shape = try extractor().shape(of: "SELECT id FROM track WHERE (album = ? AND n = ?) OR url = ?")
        #expect(try #require(shape.access(to: "track")).orBranches == [["album", "n"], ["url"]])
    }
}
