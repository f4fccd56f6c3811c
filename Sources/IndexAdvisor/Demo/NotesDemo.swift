import Foundation

/// The notes app of the SwiftData articles, as a Core Data store and a workload log, for `indexadvisor demo`.
///
/// Model: `@Model class Note { var remoteID: String; var folderID: UUID; var slug: String; var title: String;
/// var body: String; var isArchived: Bool; var isPinned: Bool; var updatedAt: Date }`, stored the way Core
/// Data lays it out: table `ZNOTE` with `Z_PK`, `Z_ENT`, `Z_OPT` and one `Z…` column per attribute, plus
/// `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`; UUIDs as 16-byte blobs, dates as seconds since
/// 2001-01-01, WAL journal mode. Folder sizes are skewed (folder k holds a share ∝ 1/(k+1)), as real
/// note collections are. Everything is generated from `seed`, so two runs build the same store.
///
/// For the review without a workload the store also carries two things to find: a to-one relationship
/// `folder` (column `ZFOLDER`, entity `Folder`) whose index Core Data would create but this store lacks, and
/// fetch indexes on `title` and on `(title, updatedAt)`, the first a left prefix of the second.
public enum NotesDemo {
    /// Folders in the store.
    public static let folderCount = 200

    /// Writes a new store with `notes` notes at `url` (which must not exist).
    /// - Throws: ``SQLiteError`` when the file cannot be created or written.
    public static func makeStore(at url: URL, notes: Int = 100_000, seed: UInt64 = 42) throws {
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISARCHIVED INTEGER, ZISPINNED INTEGER, ZFOLDER INTEGER, ZUPDATEDAT TIMESTAMP, ZBODY VARCHAR, ZFOLDERID BLOB, ZREMOTEID VARCHAR, ZSLUG VARCHAR, ZTITLE VARCHAR );
            CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZFOLDERID BLOB );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            """)
        var generator = SeededGenerator(seed: seed)
        let folders = (0..<folderCount).map { _ in uuidBytes(&generator) }
        // Cumulative weights 1/(k+1) for the skewed folder sizes.
        var cumulative: [Double] = []
        var sum = 0.0
        for k in 0..<folderCount {
            sum += 1 / Double(k + 1)
            cumulative.append(sum)
        }
        try connection.execute("BEGIN")
        let folderInsert = try connection.prepare("INSERT INTO ZFOLDER VALUES (?, 2, 1, ?, ?)")
        for (offset, folder) in folders.enumerated() {
            try folderInsert.bind([.integer(Int64(offset + 1)), .text(words(&generator, count: 2).capitalizedFirst), .blob(folder)])
            try folderInsert.run()
        }
        let insert = try connection.prepare("""
            INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZISARCHIVED, ZISPINNED, ZFOLDER, ZUPDATEDAT, ZBODY, ZFOLDERID, ZREMOTEID, ZSLUG, ZTITLE)
            VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for pk in 1...max(1, notes) {
            let pick = Double(generator.next() % 1_000_000) / 1_000_000 * sum
            let folder = cumulative.firstIndex { $0 >= pick } ?? 0
            let title = words(&generator, count: 2 + Int(generator.next() % 4)).capitalizedFirst
            let body = words(&generator, count: 20 + Int(generator.next() % 60))
            try insert.bind([
                .integer(Int64(pk)), .integer(Int64(1 + generator.next() % 5)),
                .integer(generator.next() % 10 == 0 ? 1 : 0),  // 10 % archived
                .integer(generator.next() % 50 == 0 ? 1 : 0),  // 2 % pinned
                .integer(Int64(folder + 1)),
                .real(700_000_000 + Double(generator.next() % 94_000_000)),  // 2023…2025
                .text(body), .blob(folders[folder]), .text(uuidString(uuidBytes(&generator))),
                .text(slug(title) + "-\(pk)"), .text(title),
            ])
            try insert.run()
        }
        try connection.execute("""
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, \(max(1, notes))), (2, 'Folder', 0, \(folderCount));
            CREATE INDEX Z_Note_title ON ZNOTE (ZTITLE COLLATE BINARY ASC);
            CREATE INDEX Z_Note_title_updatedAt ON ZNOTE (ZTITLE COLLATE BINARY ASC, ZUPDATEDAT COLLATE BINARY ASC);
            INSERT INTO Z_METADATA VALUES (1, '\(uuidString(uuidBytes(&generator)))', x'62706c6973743030d0080000000000000101000000000000000100000000000000000000000000000009');
            INSERT INTO Z_MODELCACHE VALUES (zeroblob(2048));
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
    }

    /// The app's model as Swift source (`Note.swift`): the class whose Core Data layout ``makeStore(at:notes:seed:)``
    /// writes. `indexadvisor demo` reads it like `--model`, so the demo's key paths are exact.
    public static let modelSource = #"""
        import Foundation
        import SwiftData

        /// A note in a folder. The store `indexadvisor demo` builds is this model's Core Data layout.
        @Model
        final class Note {
            /// The server's identifier, used to match notes when syncing.
            var remoteID: String
            var folderID: UUID
            /// Unique within its folder; used in deep links.
            var slug: String
            var title: String
            var body: String
            var isArchived: Bool = false
            var isPinned: Bool = false
            var updatedAt: Date
            /// The folder as a relationship (its index is missing from the demo store, for the review to find).
            var folder: Folder?

            /// The first line of the body, for the list; computed, not stored.
            var preview: String {
                String(body.prefix { $0 != "\n" })
            }

            init(remoteID: String, folderID: UUID, slug: String, title: String, body: String = "", updatedAt: Date = .now) {
                self.remoteID = remoteID
                self.folderID = folderID
                self.slug = slug
                self.title = title
                self.body = body
                self.updatedAt = updatedAt
            }
        }

        @Model
        final class Folder {
            var name: String
            var folderID: UUID

            init(name: String, folderID: UUID) {
                self.name = name
                self.folderID = folderID
            }
        }
        """#

    /// The notes app's Swift source, as `--source` reads it: the model (``modelSource``), the views and
    /// the model layer that fetch — each fetch the demo log shows (its `// indexadvisor: freq N` comment
    /// gives the log's count), a recent-notes fetch the log does not show, and a search on the computed
    /// `preview`, which Core Data cannot run in SQL. Paths are relative to the app's folder.
    public static let appSource: [(path: String, text: String)] = [
        ("Models/Note.swift", modelSource),
        ("Models/NoteStore.swift", #"""
            import Foundation
            import SwiftData

            /// The model layer: list pages, sync lookups, deep links and counts.
            struct NoteStore {
                let context: ModelContext

                func page(in folderID: UUID) throws -> [Note] {
                    // indexadvisor: freq 400
                    var descriptor = FetchDescriptor<Note>(
                        predicate: #Predicate { $0.folderID == folderID && $0.isArchived == false },
                        sortBy: [SortDescriptor(\.updatedAt, order: .reverse)])
                    descriptor.fetchLimit = 50
                    return try context.fetch(descriptor)
                }

                func note(remoteID: String) throws -> Note? {
                    // indexadvisor: freq 300
                    var descriptor = FetchDescriptor<Note>(predicate: #Predicate { $0.remoteID == remoteID })
                    descriptor.fetchLimit = 1
                    return try context.fetch(descriptor).first
                }

                func note(folderID: UUID, slug: String) throws -> Note? {
                    // indexadvisor: freq 100
                    var descriptor = FetchDescriptor<Note>(predicate: #Predicate { $0.folderID == folderID && $0.slug == slug })
                    descriptor.fetchLimit = 1
                    return try context.fetch(descriptor).first
                }

                func activeCount(in folderID: UUID) throws -> Int {
                    // indexadvisor: freq 200
                    try context.fetchCount(FetchDescriptor<Note>(predicate: #Predicate { $0.folderID == folderID && $0.isArchived == false }))
                }

                func recent() throws -> [Note] {
                    var descriptor = FetchDescriptor<Note>(sortBy: [SortDescriptor(\.updatedAt, order: .reverse)])
                    descriptor.fetchLimit = 20
                    return try context.fetch(descriptor)
                }
            }
            """#),
        ("Views/PinnedNotesView.swift", #"""
            import SwiftUI
            import SwiftData

            struct PinnedNotesView: View {
                @Query private var pinned: [Note]

                init(folderID: UUID) {
                    // indexadvisor: freq 150
                    _pinned = Query(filter: #Predicate<Note> { $0.folderID == folderID && $0.isArchived == false && $0.isPinned == true },
                                    sort: \Note.updatedAt, order: .reverse)
                }

                var body: some View {
                    List(pinned) { note in Text(note.title) }
                }
            }
            """#),
        ("Views/SearchView.swift", #"""
            import SwiftUI
            import SwiftData

            struct SearchView: View {
                @Query private var results: [Note]

                init(text: String) {
                    // indexadvisor: freq 20
                    _results = Query(filter: #Predicate<Note> { $0.title.localizedStandardContains(text) },
                                     sort: [SortDescriptor(\Note.title, comparator: .localizedStandard)])
                }

                var body: some View {
                    List(results) { note in Text(note.title) }
                }
            }

            struct PreviewSearchView: View {
                let text: String
                @Environment(\.modelContext) private var context

                var body: some View {
                    // The preview is computed from the body: not a stored property, so no SQL can filter on it.
                    let matches = (try? context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.preview.contains(text) }))) ?? []
                    List(matches) { note in Text(note.title) }
                }
            }
            """#),
    ]

    /// A SwiftData app session's SQL, as `-com.apple.CoreData.SQLDebug 2` prints it: the note list of a
    /// folder (not archived, newest first), the folder's pinned notes (not archived, newest first), sync lookups by remote ID, deep links by folder
    /// and slug, per-folder counts, a title search with the localized sort SwiftData emits, and the saves
    /// (inserts, edits, archiving) with Core Data's key allocation and transactions. Console and NSLog
    /// prefixes are mixed, as pasted logs are. Bound values are printed only for the search; every other
    /// statement leaves them to be drawn from the store.
    public static func workloadLog(seed: UInt64 = 42) -> String {
        let columns = "t0.Z_PK, t0.Z_OPT, t0.ZBODY, t0.ZFOLDERID, t0.ZISARCHIVED, t0.ZISPINNED, t0.ZREMOTEID, t0.ZSLUG, t0.ZTITLE, t0.ZUPDATEDAT"
        let reads: [(count: Int, sql: String, binds: [String])] = [
            (400, "SELECT 0, \(columns) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND  t0.ZISARCHIVED = ?) ORDER BY t0.ZUPDATEDAT DESC LIMIT 50", []),
            (150, "SELECT 0, \(columns) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND  t0.ZISARCHIVED = ? AND  t0.ZISPINNED = ?) ORDER BY t0.ZUPDATEDAT DESC", []),
            (300, "SELECT 0, \(columns) FROM ZNOTE t0 WHERE  t0.ZREMOTEID = ?  LIMIT 1", []),
            (100, "SELECT 0, \(columns) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND  t0.ZSLUG = ?)  LIMIT 1", []),
            (200, "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND  t0.ZISARCHIVED = ?)", []),
            (20, "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZUPDATEDAT FROM ZNOTE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZTITLE COLLATE NSCollateFinderlike", ["\"garden\""]),
        ]
        let insert = "INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZISARCHIVED, ZISPINNED, ZUPDATEDAT, ZBODY, ZFOLDERID, ZREMOTEID, ZSLUG, ZTITLE) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        let edit = "UPDATE ZNOTE SET ZBODY = ?, ZUPDATEDAT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
        let archive = "UPDATE ZNOTE SET ZISARCHIVED = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
        var events: [[String]] = []
        for read in reads {
            for _ in 0..<read.count {
                events.append(["sql: " + read.sql] + read.binds.enumerated().map { "details: SQLite bind[\($0.offset)] = \($0.element)" })
            }
        }
        for (count, write) in [(60, insert), (150, edit), (20, archive)] {
            for _ in 0..<count {
                var save = ["sql: BEGIN EXCLUSIVE"]
                if write == insert {
                    save += ["sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                             "sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"]
                }
                save += ["sql: " + write, "sql: COMMIT", "sql: pragma page_count"]
                events.append(save)
            }
        }
        // Interleave deterministically, as an app session would.
        var generator = SeededGenerator(seed: seed)
        for i in stride(from: events.count - 1, to: 0, by: -1) {
            events.swapAt(i, Int(generator.next() % UInt64(i + 1)))
        }
        var lines = ["CoreData: sql: pragma cache_size=200", "CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"]
        var second = 0
        for event in events {
            for line in event {
                second += 1
                if second % 3 == 0 {
                    let time = String(format: "2026-11-29 10:%02d:%02d.%03d", (second / 60) % 60, second % 60, second % 1000)
                    lines.append("\(time) Notes[4242:1234567] CoreData: \(line)")
                } else {
                    lines.append("CoreData: \(line)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let vocabulary = ["garden", "meeting", "recipe", "travel", "budget", "idea", "book", "project",
                                     "music", "running", "weekend", "family", "shopping", "notes", "plan", "draft",
                                     "coffee", "morning", "review", "design", "list", "call", "summer", "trip",
                                     "code", "swift", "data", "index", "query", "store", "fetch", "model"]

    private static func words(_ generator: inout SeededGenerator, count: Int) -> String {
        (0..<count).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
    }

    private static func slug(_ title: String) -> String {
        title.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    private static func uuidBytes(_ generator: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let value = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes
    }

    private static func uuidString(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
