import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each note on a recommended index (issue 22: the advisor states the fact, the renderers word
/// it), exactly as the reports printed them before; in the JSON report a note is still its words.
@Suite("Notes on recommended indexes")
struct PickNoteTests {
    @Test("each note in words")
    func words() {
        #expect(PickNote.entityLeads(table: "ZENTRY", entities: ["Task", "Event"], coreDataIndexes: []).text
                == "Z_ENT leads it because ZENTRY holds several entities (Task, Event) and the statements it serves fetch one of them: an index without it reads other entities' rows too. Z_ENT is no property, so no model can declare the index (no fetch index or #Index holds Z_ENT, and a fetch index declared on a sub-entity is built without it): it is SQL only.")
        #expect(PickNote.entityLeads(table: "ZENTRY", entities: ["Task"], coreDataIndexes: ["ZENTRY_Z_ENT_INDEX"]).text
            .contains(": without it first, SQLite may prefer Core Data's own ZENTRY_Z_ENT_INDEX (Z_ENT = ?) when the store has no statistics, and an index without it"))
        #expect(PickNote.churn(ColumnChurn(column: "ZTITLE", share: 0.5, table: "ZNOTE")).text
                == "ZTITLE changes on 50% of the writes to ZNOTE (UPDATE … SET it), and each such write moves its entry in this index: that cost is in the write time above.")
        #expect(PickNote.untimedWrite(statement: "S2", sql: "INSERT INTO t(a)\n  VALUES (?)", error: "NOT NULL constraint failed: t.b").text
                == "The write cost is incomplete: S2 (INSERT INTO t(a) VALUES (?)) was not timed: NOT NULL constraint failed: t.b.")
        #expect(PickNote.failedWrites(failures: 1, statement: "S4", sql: "DELETE FROM t").text
                == "The write cost is incomplete: 1 execution of S4 (DELETE FROM t) failed on the snapshot and are not in its time.")
        #expect(PickNote.failedWrites(failures: 3, statement: "S4", sql: "DELETE FROM t").text.contains(": 3 executions of S4"))
        #expect(PickNote.subEntityColumn(entity: "Item").text
                == "a key column belongs to a sub-entity of Item, so neither #Index<Item> nor a fetch index of Item can declare it: it is SQL only")
    }

    @Test("in the JSON report a note is its words, and reads back as them")
    func json() throws {
        let notes: [PickNote] = [.subEntityColumn(entity: "Item"), .other("in words")]
        let data = try JSONEncoder().encode(notes)
        #expect(String(decoding: data, as: UTF8.self)
                == #"["a key column belongs to a sub-entity of Item, so neither #Index<Item> nor a fetch index of Item can declare it: it is SQL only","in words"]"#)
        let read = try JSONDecoder().decode([PickNote].self, from: data)
        #expect(read.map(\.text) == notes.map(\.text))
    }

    @Test("renaming an index reaches the names inside a note")
    func renaming() {
        let note = PickNote.entityLeads(table: "ZENTRY", entities: ["Task"], coreDataIndexes: ["old_index"])
            .renamingNames { $0.replacingIdentifier("old_index", with: "new_index") }
        #expect(note == .entityLeads(table: "ZENTRY", entities: ["Task"], coreDataIndexes: ["new_index"]))
    }
}

@Suite("The join set's note")
struct JoinNoteTests {
    @Test("a member of a join's set: its note in the words the advisor wrote before, the index renamed with the rest")
    func keptForJoin() {
        let alone = JoinSets.Need(index: "idx_membership_user_id", statement: "S2", changedPlanAlone: true).note
        #expect(alone.text == "Kept for S2 together with idx_membership_user_id: SQLite uses that index for S2 only when this one exists too; S2's saving is counted under idx_membership_user_id.")
        let first = JoinSets.Need(index: "idx_b", statement: "S1", changedPlanAlone: false).note
        #expect(first.text == "Kept for S1 together with idx_b: SQLite uses that index for S1 only when this one exists too (built first, on its own it left S1's plan as it was); S1's saving is counted under idx_b.")
        #expect(first.renamingNames { $0 == "idx_b" ? "Z_User_b" : $0 } == .keptForJoin(statement: "S1", index: "Z_User_b", changedPlanAlone: false))
    }
}
