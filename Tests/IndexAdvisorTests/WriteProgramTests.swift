import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, hostile round 7 F1 and F5: a write's plan stopped at the first foreign-key level (a cascade set
/// off by a cascade was left out) and its shape left out a cascade under a trigger. The program a write sets
/// off is followed to any depth, each trigger and each key's action once.
@Suite("What a write sets off, to any depth")
struct WriteProgramTests {
    /// The program readers of `schema`'s store, with foreign keys enforced or not.
    static func reader(_ schema: String, enforced: Bool = true) throws -> (FixtureStore, QueryPlanner) {
        let store = try FixtureStore(schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        if enforced { try connection.execute("PRAGMA foreign_keys = ON") }
        return (store, QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection)))
    }

    // Hostile round 8, F4: `SET rowid = ?` changes the INTEGER PRIMARY KEY as `SET id = ?` does, and sets off the
    // same ON UPDATE CASCADE chain; it used to stop at the child's search.
    @Test("SET rowid, oid or _rowid_ of an INTEGER PRIMARY KEY follows the same cascade as SET id")
    func rowidSpellings() throws {
        let (_, planner) = try Self.reader("""
            CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE login (id INTEGER PRIMARY KEY, account_id INTEGER UNIQUE REFERENCES account(id) ON UPDATE CASCADE);
            CREATE TABLE visit (id INTEGER PRIMARY KEY, login_ref INTEGER REFERENCES login(account_id) ON UPDATE CASCADE);
            """)
        let byName = planner.programs.program(of: "UPDATE account SET id = ? WHERE id = ?").parts.map(\.label)
        #expect(byName == ["FOREIGN KEY login(account_id) ON UPDATE CASCADE", "FOREIGN KEY visit(login_ref) ON UPDATE CASCADE"])
        for spelling in ["rowid", "oid", "_rowid_"] {
            #expect(planner.programs.program(of: "UPDATE account SET \(spelling) = ? WHERE id = ?").parts.map(\.label) == byName, "\(spelling)")
        }
        #expect(planner.programs.program(of: "UPDATE account SET name = ? WHERE id = ?").parts.isEmpty)
    }

    @Test("each action as the statement SQLite codes for it: CASCADE deletes, ON UPDATE CASCADE and SET DEFAULT set a value, SET NULL nulls")
    func actionStatements() {
        let key = ForeignKey(child: "part list", columns: ["maker", "code"], parent: "maker", parentColumns: ["name", "code"],
                             onDelete: "cascade", onUpdate: "CASCADE")
        #expect(ForeignKeyAction(key: key, onDelete: true).sql == #"DELETE FROM "part list" WHERE "maker" = ? AND "code" = ?"#)
        #expect(ForeignKeyAction(key: key, onDelete: false).sql == #"UPDATE "part list" SET "maker" = ?, "code" = ? WHERE "maker" = ? AND "code" = ?"#)
        var nulling = key
        nulling.onDelete = "SET NULL"
        nulling.onUpdate = "SET DEFAULT"
        #expect(ForeignKeyAction(key: nulling, onDelete: true).sql == #"UPDATE "part list" SET "maker" = NULL, "code" = NULL WHERE "maker" = ? AND "code" = ?"#)
        #expect(ForeignKeyAction(key: nulling, onDelete: false).sql == #"UPDATE "part list" SET "maker" = ?, "code" = ? WHERE "maker" = ? AND "code" = ?"#)
        #expect(ForeignKeyAction(key: nulling, onDelete: true).label == "FOREIGN KEY part list(maker, code) ON DELETE SET NULL")
    }

    // Four levels: a site's floors cascade, their rooms cascade, the rooms' desks cascade and each desk deleted
    // is looked up among the assets (NO ACTION, no index); the rooms' badges are set NULL (no index), which
    // fires the badge's trigger.
    static let offices = """
        CREATE TABLE site(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE floor(id INTEGER PRIMARY KEY, site_id INTEGER REFERENCES site(id) ON DELETE CASCADE);
        CREATE INDEX floor_site ON floor(site_id);
        CREATE TABLE room(id INTEGER PRIMARY KEY, floor_id INTEGER REFERENCES floor(id) ON DELETE CASCADE);
        CREATE INDEX room_floor ON room(floor_id);
        CREATE TABLE desk(id INTEGER PRIMARY KEY, room_id INTEGER REFERENCES room(id) ON DELETE CASCADE);
        CREATE INDEX desk_room ON desk(room_id);
        CREATE TABLE asset(id INTEGER PRIMARY KEY, desk_id INTEGER REFERENCES desk(id), tag TEXT);
        CREATE TABLE badge(id INTEGER PRIMARY KEY, room_id INTEGER REFERENCES room(id) ON DELETE SET NULL ON UPDATE CASCADE);
        CREATE TABLE movelog(id INTEGER PRIMARY KEY, badge INTEGER);
        CREATE TRIGGER badge_moved AFTER UPDATE OF room_id ON badge BEGIN INSERT INTO movelog(badge) VALUES (NEW.id); END;
        """

    @Test("a delete four levels deep: every cascade, the SET NULL, the trigger it fires; an insert sets off nothing; without enforcement only triggers")
    func fourLevels() throws {
        let (_, planner) = try Self.reader(Self.offices)
        let program = planner.programs.program(of: "DELETE FROM site WHERE id = ?")
        #expect(program.parts.map(\.label) == ["TRIGGER badge_moved", "FOREIGN KEY floor(site_id) ON DELETE CASCADE",
                                               "FOREIGN KEY room(floor_id) ON DELETE CASCADE", "FOREIGN KEY desk(room_id) ON DELETE CASCADE",
                                               "FOREIGN KEY badge(room_id) ON DELETE SET NULL"])
        #expect(program.parts.map(\.depth) == [1, 1, 2, 3, 3])
        #expect(!program.isCut)
        #expect(program.parts.last?.statements == [#"UPDATE "badge" SET "room_id" = NULL WHERE "room_id" = ?"#])
        // The plan: the assets looked up for each desk the room's cascade deletes, the badges looked up for each
        // room deleted and searched again by the SET NULL; all in a foreign key's action, none in a trigger.
        let plan = try planner.plan(for: "DELETE FROM site WHERE id = ?")
        #expect(plan.steps.map(\.detail).filter { $0.hasPrefix("SCAN ") }.sorted() == ["SCAN asset", "SCAN badge", "SCAN badge"])
        #expect(CheckEvaluator.programFindings(plan).filter { $0.finding.kind == .fullTableScan }.map { "\($0.finding.table ?? "") \($0.part)" }.sorted()
                == ["asset foreignKeyAction", "badge foreignKeyAction", "badge foreignKeyAction"])
        // A parent key's change: only the key that cascades on update, and the trigger that fires.
        #expect(planner.programs.program(of: "UPDATE room SET id = ? WHERE id = ?").parts.map(\.label)
                == ["TRIGGER badge_moved", "FOREIGN KEY badge(room_id) ON UPDATE CASCADE"])
        #expect(planner.programs.program(of: "UPDATE room SET floor_id = ? WHERE id = ?").parts.isEmpty)
        #expect(planner.programs.program(of: "INSERT INTO site(name) VALUES (?)").parts.isEmpty)
        let (_, plain) = try Self.reader(Self.offices, enforced: false)
        #expect(plain.programs.program(of: "DELETE FROM site WHERE id = ?").parts.isEmpty)
        #expect(plain.programs.program(of: "UPDATE badge SET room_id = ? WHERE id = ?").parts.map(\.label) == ["TRIGGER badge_moved"])
    }

    @Test("cycles end: a table that refers to itself, two that refer to each other, triggers that delete from each other's tables")
    func cycles() throws {
        let (_, planner) = try Self.reader("""
            CREATE TABLE topic(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES topic(id) ON DELETE CASCADE ON UPDATE SET NULL);
            CREATE TABLE yin(id INTEGER PRIMARY KEY, yang_id INTEGER REFERENCES yang(id) ON DELETE CASCADE);
            CREATE TABLE yang(id INTEGER PRIMARY KEY, yin_id INTEGER REFERENCES yin(id) ON DELETE CASCADE);
            CREATE TABLE left_side(id INTEGER PRIMARY KEY, k INTEGER);
            CREATE TABLE right_side(id INTEGER PRIMARY KEY, k INTEGER);
            CREATE TRIGGER left_gone AFTER DELETE ON left_side BEGIN DELETE FROM right_side WHERE k = OLD.k; END;
            CREATE TRIGGER right_gone AFTER DELETE ON right_side BEGIN DELETE FROM left_side WHERE k = OLD.k; DELETE FROM yin WHERE id = OLD.k; END;
            """)
        #expect(planner.programs.program(of: "DELETE FROM topic WHERE id = ?").parts.map(\.label) == ["FOREIGN KEY topic(parent) ON DELETE CASCADE"])
        #expect(planner.programs.program(of: "UPDATE topic SET id = ? WHERE id = ?").parts.map(\.label) == ["FOREIGN KEY topic(parent) ON UPDATE SET NULL"])
        #expect(planner.programs.program(of: "DELETE FROM yin WHERE id = ?").parts.map(\.label)
                == ["FOREIGN KEY yang(yin_id) ON DELETE CASCADE", "FOREIGN KEY yin(yang_id) ON DELETE CASCADE"])
        let crossed = planner.programs.program(of: "DELETE FROM left_side WHERE id = ?")
        #expect(crossed.parts.map(\.label) == ["TRIGGER left_gone", "TRIGGER right_gone", "FOREIGN KEY yang(yin_id) ON DELETE CASCADE",
                                               "FOREIGN KEY yin(yang_id) ON DELETE CASCADE"])
        #expect(crossed.parts.map(\.depth) == [1, 1, 2, 3])
        let plan = try planner.plan(for: "DELETE FROM left_side WHERE id = ?")
        #expect(plan.steps.filter { QueryPlanner.isProgramStep($0.detail) }.count == 4)
    }

    @Test("a REPLACE that deletes a parent row sets off its keys' ON DELETE actions")
    func replace() throws {
        let (_, planner) = try Self.reader("""
            CREATE TABLE tenant(id INTEGER PRIMARY KEY, slug TEXT UNIQUE);
            CREATE TABLE lease(id INTEGER PRIMARY KEY, tenant_id INTEGER REFERENCES tenant(id) ON DELETE CASCADE);
            CREATE TABLE rent(id INTEGER PRIMARY KEY, lease_id INTEGER REFERENCES lease(id) ON DELETE CASCADE);
            """)
        #expect(SQLTokenList("insert or replace into tenant(slug) values (?)").replacesRows)
        #expect(!SQLTokenList("INSERT INTO tenant(slug) VALUES ('replace')").replacesRows)
        #expect(planner.programs.program(of: "REPLACE INTO tenant(id, slug) VALUES (?, ?)").parts.map(\.label)
                == ["FOREIGN KEY lease(tenant_id) ON DELETE CASCADE", "FOREIGN KEY rent(lease_id) ON DELETE CASCADE"])
        #expect(planner.programs.program(of: "INSERT INTO tenant(id, slug) VALUES (?, ?)").parts.isEmpty)
    }
}
