import Foundation
import IndexAdvisor

/// A Zipf-like draw over 1…count: key k is drawn with a probability proportional to 1 / k^exponent, so a
/// few keys hold most rows and a long tail holds a handful each.
struct ZipfDraw {
    private let cumulative: [Double]

    init(count: Int, exponent: Double) {
        var sum = 0.0
        cumulative = (1...max(1, count)).map { k in
            sum += 1 / pow(Double(k), exponent)
            return sum
        }
    }

    func next(_ generator: inout SeededGenerator) -> Int {
        let target = Double(generator.next() % 1_000_000_007) / 1_000_000_007 * cumulative[cumulative.count - 1]
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low + 1
    }
}

/// Generated pairs: shapes that the four `advice` stores do not have (wide tables, Zipf keys, a flag that is
/// NULL or 0 on almost every row, one-to-many and three-table joins, insert- and update-heavy mixes,
/// literals in LIMIT and ranges, statistics present or not, a Core Data entity hierarchy, a table that
/// already carries many indexes). Built from a seed. They were used while changing the advisor (several were
/// written for the fix they show), so they are regression pairs (``PairsBenchmark``): evidence that fixes
/// hold, not that the advice generalizes. Held-out pairs live in Benchmarks/Pairs/held-out.
enum GeneralizationStores {
    /// - Parameter scale: 1 for the full suite, 0.1 for `--quick`.
    static func all(in directory: URL, scale: Double, seed: UInt64) throws -> [AdviceStore] {
        func rows(_ full: Int) -> Int { max(2_000, Int(Double(full) * scale)) }
        return [
            try wideCatalog(in: directory, rows: rows(60_000), seed: seed),
            try syncFlag(in: directory, rows: rows(80_000), seed: seed),
            try albumTracks(in: directory, tracks: rows(100_000), seed: seed),
            try teamsJoin(in: directory, memberships: rows(60_000), seed: seed),
            try telemetryInserts(in: directory, rows: rows(80_000), seed: seed),
            try taskUpdates(in: directory, rows: rows(50_000), seed: seed),
            try readingRanges(in: directory, rows: rows(100_000), seed: seed),
            try tickets(in: directory, rows: rows(60_000), seed: seed, analyzed: false),
            try tickets(in: directory, rows: rows(60_000), seed: seed, analyzed: true),
            try coreDataHierarchy(in: directory, rows: rows(60_000), seed: seed),
            try matureMail(in: directory, rows: rows(60_000), seed: seed),
            try matureChat(in: directory, rows: rows(80_000), seed: seed),
            try courseGrades(in: directory, enrolments: rows(90_000), seed: seed),
        ]
    }

    // MARK: - Helpers

    private static func open(_ name: String, in directory: URL, schema: String) throws -> (URL, SQLiteConnection) {
        let url = directory.appendingPathComponent("\(name).sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("PRAGMA journal_mode = WAL;\n" + schema)
        return (url, connection)
    }

    /// Inserts `count` rows through one prepared statement, in one transaction.
    private static func fill(_ connection: SQLiteConnection, _ sql: String, count: Int, _ row: (Int) throws -> [SQLValue]) throws {
        try connection.execute("BEGIN")
        let insert = try connection.prepare(sql)
        for id in 1...max(1, count) {
            try insert.bind(try row(id))
            _ = try insert.run()
        }
        try connection.execute("COMMIT")
    }

    private static func finish(_ connection: SQLiteConnection, analyze: Bool = false) throws {
        if analyze { try connection.execute("ANALYZE") }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private static func uniform(_ generator: inout SeededGenerator) -> Double {
        Double(generator.next() % 1_000_000) / 1_000_000
    }

    private static func literal(_ value: SQLValue?) -> String { (value ?? .null).sqlLiteral }

    private static func words(_ generator: inout SeededGenerator, _ count: Int) -> String {
        let vocabulary = ["amber", "birch", "cobalt", "delta", "ember", "fjord", "granite", "harbor", "indigo", "juniper",
                          "kelp", "lumen", "meadow", "nickel", "onyx", "pebble", "quartz", "raven", "sable", "tundra"]
        return (0..<count).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
    }

    // MARK: - Pairs

    /// A 32-column product table whose brands and categories follow Zipf distributions: the hot brand holds
    /// a large share of rows, the tail a few each. Lookups by SKU, brand pages by price with LIMIT, counts.
    static func wideCatalog(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let filler = (1...22).map { "attr\($0)" }
        let (url, connection) = try open("wide-catalog", in: directory, schema: """
            CREATE TABLE product (id INTEGER PRIMARY KEY, sku TEXT NOT NULL, brand_id INTEGER NOT NULL, category_id INTEGER NOT NULL,
                                  price REAL NOT NULL, stock INTEGER NOT NULL, rating REAL, weight REAL, color TEXT, size TEXT,
                                  \(filler.enumerated().map { "\($0.element) \($0.offset % 2 == 0 ? "TEXT" : "INTEGER")" }.joined(separator: ", ")));
            """)
        var generator = SeededGenerator(seed: seed &+ 101)
        let brands = ZipfDraw(count: 500, exponent: 1.1), categories = ZipfDraw(count: 80, exponent: 0.8)
        try fill(connection, "INSERT INTO product VALUES (\(Array(repeating: "?", count: 32).joined(separator: ", ")))", count: rows) { id in
            var values: [SQLValue] = [.integer(Int64(id)), .text(String(format: "SKU-%07llX", generator.next() % 0xFFF_FFFF)),
                                      .integer(Int64(brands.next(&generator))), .integer(Int64(categories.next(&generator))),
                                      .real(Double(100 + generator.next() % 50_000) / 100), .integer(Int64(generator.next() % 40)),
                                      .real(Double(generator.next() % 50) / 10), .real(Double(generator.next() % 5_000) / 100),
                                      .text(["red", "green", "blue", "black", "white"][Int(generator.next() % 5)]),
                                      .text(["S", "M", "L", "XL"][Int(generator.next() % 4)])]
            for column in 0..<22 {
                values.append(column % 2 == 0 ? .text(words(&generator, 2)) : .integer(Int64(generator.next() % 1000)))
            }
            return values
        }
        try finish(connection)
        let skus = try [rows / 9, rows / 2, rows - 2].map { try literal(connection.scalar("SELECT sku FROM product WHERE id = ?", [.integer(Int64($0))])) }
        var entries: [WorkloadEntry] = []
        for sku in skus { entries.append(WorkloadEntry(sql: "SELECT * FROM product WHERE sku = \(sku)", count: 120)) }
        // The hot brand (rank 1) and tail brands, in their most common category.
        for (brand, count) in [(1, 150), (37, 80), (410, 40)] {
            entries.append(WorkloadEntry(sql: "SELECT id, sku, price, rating FROM product WHERE brand_id = \(brand) AND category_id = 1 ORDER BY price LIMIT 24", count: count))
        }
        entries.append(WorkloadEntry(sql: "SELECT count(*) FROM product WHERE category_id = 3 AND stock > 0", count: 40))
        entries.append(WorkloadEntry(sql: "UPDATE product SET stock = stock - 1 WHERE id = \(rows / 3)", count: 300))
        return AdviceStore(name: "wide-catalog", summary: "\(Figures.count(rows)) products × 32 columns, Zipf brands (500) and categories (80); SKU lookups, brand pages by price (LIMIT 24), a category count; stock updates",
                           url: url, entries: entries, mustNotScan: ["SELECT * FROM product WHERE sku", "SELECT id, sku"],
                           expectation: "an index on sku and one for brand pages (brand_id, category_id, price)")
    }

    /// A document table whose `needs_upload` flag is NULL on 70 % of rows, 0 on almost all others and 1 on
    /// 0.3 %: the sync loop asks for the rare value. Owner pages, edits that set the flag, uploads that clear it.
    static func syncFlag(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("sync-flag", in: directory, schema: """
            CREATE TABLE document (id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, title TEXT NOT NULL, body TEXT,
                                   modified REAL NOT NULL, needs_upload INTEGER, deleted INTEGER NOT NULL DEFAULT 0);
            """)
        var generator = SeededGenerator(seed: seed &+ 102)
        try fill(connection, "INSERT INTO document VALUES (?, ?, ?, ?, ?, ?, ?)", count: rows) { id in
            let roll = generator.next() % 1000
            let flag: SQLValue = roll < 700 ? .null : roll < 997 ? .integer(0) : .integer(1)
            return [.integer(Int64(id)), .integer(Int64(1 + generator.next() % 200)), .text(words(&generator, 3)), .text(words(&generator, 16)),
                    .real(700_000_000 + Double(id) * 37), flag, .integer(generator.next() % 200 == 0 ? 1 : 0)]
        }
        try finish(connection)
        var entries = [
            WorkloadEntry(sql: "SELECT id, modified FROM document WHERE needs_upload = 1 ORDER BY modified LIMIT 100", count: 300),
            WorkloadEntry(sql: "SELECT count(*) FROM document WHERE needs_upload = 1", count: 100),
        ]
        for (owner, count) in [(42, 80), (7, 40)] {
            entries.append(WorkloadEntry(sql: "SELECT id, title, modified FROM document WHERE owner_id = \(owner) AND deleted = 0 ORDER BY modified DESC LIMIT 50", count: count))
        }
        entries.append(WorkloadEntry(sql: "UPDATE document SET needs_upload = 0 WHERE id = \(rows / 2)", count: 200))
        entries.append(WorkloadEntry(sql: "UPDATE document SET body = 'edited text', modified = \(700_000_000 + rows * 40), needs_upload = 1 WHERE id = \(rows / 4)", count: 200))
        entries.append(WorkloadEntry(sql: "INSERT INTO document(owner_id, title, body, modified, needs_upload) VALUES (42, 'new page', 'draft', \(700_000_000 + rows * 40), 1)", count: 50))
        return AdviceStore(name: "sync-flag", summary: "\(Figures.count(rows)) documents; needs_upload NULL on 70 %, 0 on 29.7 %, 1 on 0.3 %, filtered on 1 by the sync loop; owner pages; edits set the flag, uploads clear it",
                           url: url, entries: entries, mustNotScan: ["SELECT id, modified FROM document WHERE needs_upload", "SELECT id, title"],
                           expectation: "an index serving needs_upload = 1 (a partial index on the rare value is the small one) and (owner_id, …, modified)")
    }

    /// Artists, albums and tracks (one-to-many twice, album sizes skewed): an album's tracks in order, an
    /// artist's albums, a parent–child aggregate join; play-count updates.
    static func albumTracks(in directory: URL, tracks: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("album-tracks", in: directory, schema: """
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE album (id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL REFERENCES artist(id), title TEXT NOT NULL, year INTEGER NOT NULL);
            CREATE TABLE track (id INTEGER PRIMARY KEY, album_id INTEGER NOT NULL REFERENCES album(id), position INTEGER NOT NULL,
                                title TEXT NOT NULL, duration REAL NOT NULL, play_count INTEGER NOT NULL DEFAULT 0);
            """)
        var generator = SeededGenerator(seed: seed &+ 103)
        let albums = max(1_000, tracks / 10), artists = max(200, albums / 5)
        try fill(connection, "INSERT INTO artist VALUES (?, ?)", count: artists) { [.integer(Int64($0)), .text("Artist \($0)")] }
        let artistDraw = ZipfDraw(count: artists, exponent: 0.9)
        try fill(connection, "INSERT INTO album VALUES (?, ?, ?, ?)", count: albums) { id in
            [.integer(Int64(id)), .integer(Int64(artistDraw.next(&generator))), .text("Album \(id)"), .integer(Int64(1960 + generator.next() % 64))]
        }
        // Album sizes: most 5–15 tracks, a few box sets of hundreds (Zipf over albums).
        let albumDraw = ZipfDraw(count: albums, exponent: 0.6)
        var positions: [Int: Int] = [:]
        try fill(connection, "INSERT INTO track VALUES (?, ?, ?, ?, ?, ?)", count: tracks) { id in
            let album = albumDraw.next(&generator)
            positions[album, default: 0] += 1
            return [.integer(Int64(id)), .integer(Int64(album)), .integer(Int64(positions[album]!)), .text("Track \(id)"),
                    .real(Double(90 + generator.next() % 400)), .integer(Int64(generator.next() % 1000))]
        }
        try finish(connection)
        let small = try literal(connection.scalar("SELECT album_id FROM track GROUP BY album_id ORDER BY count(*), album_id LIMIT 1"))
        var entries: [WorkloadEntry] = []
        for (album, count) in [("1", 100), ("\(albums / 2)", 150), (small, 80)] {
            entries.append(WorkloadEntry(sql: "SELECT id, title, duration FROM track WHERE album_id = \(album) ORDER BY position", count: count))
        }
        for (artist, count) in [(1, 60), (artists / 3, 60)] {
            entries.append(WorkloadEntry(sql: "SELECT id, title, year FROM album WHERE artist_id = \(artist) ORDER BY year DESC", count: count))
            entries.append(WorkloadEntry(sql: "SELECT a.id, a.title, count(t.id), sum(t.duration) FROM album a JOIN track t ON t.album_id = a.id WHERE a.artist_id = \(artist) GROUP BY a.id", count: count / 2))
        }
        entries.append(WorkloadEntry(sql: "UPDATE track SET play_count = play_count + 1 WHERE id = \(tracks / 3)", count: 500))
        entries.append(WorkloadEntry(sql: "INSERT INTO track(album_id, position, title, duration) VALUES (\(albums / 2), 99, 'Bonus', 200.0)", count: 20))
        return AdviceStore(name: "album-tracks", summary: "\(Figures.count(tracks)) tracks in \(Figures.count(albums)) albums (Zipf sizes) by \(Figures.count(artists)) artists; an album's tracks by position, an artist's albums by year, album–track aggregate join; play counts",
                           url: url, entries: entries, mustNotScan: ["SELECT id, title, duration FROM track", "SELECT id, title, year FROM album", "SELECT a.id"],
                           expectation: "track(album_id, position) and album(artist_id, year)")
    }

    /// Users, teams and memberships: two three-table joins from either end (a team's members by name, a
    /// user's teams by e-mail) and an aggregate over an organisation; membership inserts.
    static func teamsJoin(in directory: URL, memberships: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("teams-join", in: directory, schema: """
            CREATE TABLE "user" (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE team (id INTEGER PRIMARY KEY, org_id INTEGER NOT NULL, slug TEXT NOT NULL, name TEXT NOT NULL);
            CREATE TABLE membership (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES "user"(id),
                                     team_id INTEGER NOT NULL REFERENCES team(id), role TEXT NOT NULL, joined REAL NOT NULL);
            """)
        var generator = SeededGenerator(seed: seed &+ 104)
        let users = max(1_000, memberships / 3), teams = max(200, memberships / 30)
        try fill(connection, "INSERT INTO \"user\" VALUES (?, ?, ?, ?)", count: users) { id in
            [.integer(Int64(id)), .text("user\(id)@example.org"), .text(words(&generator, 2)), .real(600_000_000 + Double(id))]
        }
        try fill(connection, "INSERT INTO team VALUES (?, ?, ?, ?)", count: teams) { id in
            [.integer(Int64(id)), .integer(Int64(1 + generator.next() % 40)), .text("team-\(id)"), .text("Team \(id)")]
        }
        let teamDraw = ZipfDraw(count: teams, exponent: 0.7)
        try fill(connection, "INSERT INTO membership VALUES (?, ?, ?, ?, ?)", count: memberships) { id in
            let roll = generator.next() % 100
            return [.integer(Int64(id)), .integer(Int64(1 + generator.next() % UInt64(users))), .integer(Int64(teamDraw.next(&generator))),
                    .text(roll < 5 ? "admin" : roll < 20 ? "editor" : "member"), .real(650_000_000 + Double(id))]
        }
        try finish(connection)
        var entries: [WorkloadEntry] = []
        for (team, count) in [(1, 60), (teams / 2, 90)] {
            entries.append(WorkloadEntry(sql: "SELECT u.name, u.email, m.role FROM team t JOIN membership m ON m.team_id = t.id JOIN \"user\" u ON u.id = m.user_id WHERE t.slug = 'team-\(team)' ORDER BY u.name", count: count))
        }
        for (user, count) in [(users / 5, 100), (users - 1, 100)] {
            entries.append(WorkloadEntry(sql: "SELECT t.name, m.role FROM \"user\" u JOIN membership m ON m.user_id = u.id JOIN team t ON t.id = m.team_id WHERE u.email = 'user\(user)@example.org'", count: count))
        }
        entries.append(WorkloadEntry(sql: "SELECT count(*) FROM membership m JOIN team t ON t.id = m.team_id WHERE t.org_id = 5 AND m.role = 'admin'", count: 30))
        entries.append(WorkloadEntry(sql: "INSERT INTO membership(user_id, team_id, role, joined) VALUES (\(users / 2), 3, 'member', 700000000.0)", count: 100))
        return AdviceStore(name: "teams-join", summary: "\(Figures.count(memberships)) memberships of \(Figures.count(users)) users in \(Figures.count(teams)) teams (Zipf sizes); three-table joins from a team's slug and from a user's e-mail, an admin count per organisation; membership inserts",
                           url: url, entries: entries, mustNotScan: ["SELECT u.name", "SELECT t.name"],
                           expectation: "team(slug), user(email), membership(team_id) and membership(user_id)")
    }

    /// A telemetry table with 30,000 inserts for every few dozen reads: indexes must pay for the inserts.
    static func telemetryInserts(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("telemetry-inserts", in: directory, schema: """
            CREATE TABLE sample (id INTEGER PRIMARY KEY, device_id INTEGER NOT NULL, metric TEXT NOT NULL, ts REAL NOT NULL, value REAL NOT NULL);
            """)
        var generator = SeededGenerator(seed: seed &+ 105)
        try fill(connection, "INSERT INTO sample VALUES (?, ?, ?, ?, ?)", count: rows) { id in
            [.integer(Int64(id)), .integer(Int64(1 + generator.next() % 100)), .text(["temp", "humidity", "pressure", "battery"][Int(generator.next() % 4)]),
             .real(1_700_000_000 + Double(id) * 5), .real(Double(generator.next() % 10_000) / 100)]
        }
        try finish(connection)
        let recent = 1_700_000_000 + rows * 5 - 3_600
        let entries = [
            WorkloadEntry(sql: "SELECT avg(value) FROM sample WHERE device_id = 7 AND metric = 'temp' AND ts > \(recent)", count: 10),
            WorkloadEntry(sql: "SELECT max(ts) FROM sample WHERE device_id = 3", count: 20),
            WorkloadEntry(sql: "INSERT INTO sample(device_id, metric, ts, value) VALUES (7, 'temp', \(recent + 7_200).0, 21.5)", count: 30_000),
        ]
        return AdviceStore(name: "telemetry-inserts", summary: "\(Figures.count(rows)) samples; 30,000 inserts against 30 reads (a recent average per device and metric, a device's last sample)",
                           url: url, entries: entries, mustNotScan: [],
                           expectation: "at most one narrow index, only if the reads it saves outweigh 30,000 inserts")
    }

    /// A task table updated far more often than read: status changes and edits touch the columns a read
    /// filters on, so an index on them is paid for on every update.
    static func taskUpdates(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("task-updates", in: directory, schema: """
            CREATE TABLE task (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, assignee_id INTEGER NOT NULL, status TEXT NOT NULL,
                               priority INTEGER NOT NULL, due REAL, updated REAL NOT NULL, title TEXT NOT NULL);
            """)
        var generator = SeededGenerator(seed: seed &+ 106)
        let assignees = ZipfDraw(count: 1_000, exponent: 0.7)
        try fill(connection, "INSERT INTO task VALUES (?, ?, ?, ?, ?, ?, ?, ?)", count: rows) { id in
            let roll = generator.next() % 100
            return [.integer(Int64(id)), .integer(Int64(1 + generator.next() % 300)), .integer(Int64(assignees.next(&generator))),
                    .text(roll < 60 ? "done" : roll < 80 ? "open" : roll < 95 ? "doing" : "blocked"), .integer(Int64(generator.next() % 4)),
                    roll % 3 == 0 ? .null : .real(780_000_000 + Double(generator.next() % 10_000_000)), .real(770_000_000 + Double(id)), .text(words(&generator, 4))]
        }
        try finish(connection)
        let entries = [
            WorkloadEntry(sql: "SELECT id, title, due FROM task WHERE assignee_id = 12 AND status = 'open' ORDER BY due LIMIT 30", count: 100),
            WorkloadEntry(sql: "SELECT id, title, due FROM task WHERE assignee_id = 480 AND status = 'open' ORDER BY due LIMIT 30", count: 60),
            WorkloadEntry(sql: "SELECT count(*) FROM task WHERE project_id = 4 AND status = 'done'", count: 30),
            WorkloadEntry(sql: "UPDATE task SET status = 'done', updated = 790000000.0 WHERE id = \(rows / 2)", count: 2_000),
            WorkloadEntry(sql: "UPDATE task SET priority = 2, updated = 790000001.0, due = 791000000.0 WHERE id = \(rows / 3)", count: 3_000),
            WorkloadEntry(sql: "UPDATE task SET assignee_id = 13 WHERE id = \(rows / 5)", count: 200),
        ]
        return AdviceStore(name: "task-updates", summary: "\(Figures.count(rows)) tasks, Zipf assignees; 5,200 updates (status, priority, due, assignee) against 190 reads (an assignee's open tasks by due date, a project count)",
                           url: url, entries: entries, mustNotScan: ["SELECT id, title, due FROM task"],
                           expectation: "an index for an assignee's tasks that the updates can afford; nothing on the columns the updates rewrite unless it pays")
    }

    /// Sensor readings over time: the same shapes with narrow and wide ranges and small and large LIMITs,
    /// as literals (SQLite plans `LIMIT 1` differently from `LIMIT 500`).
    static func readingRanges(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("reading-ranges", in: directory, schema: """
            CREATE TABLE reading (id INTEGER PRIMARY KEY, sensor_id INTEGER NOT NULL, ts INTEGER NOT NULL, value REAL NOT NULL, quality INTEGER NOT NULL);
            """)
        var generator = SeededGenerator(seed: seed &+ 107)
        var clock = 1_600_000_000
        try fill(connection, "INSERT INTO reading VALUES (?, ?, ?, ?, ?)", count: rows) { id in
            clock += 10 + Int(generator.next() % 50)
            let value = generator.next() % 500 == 0 ? 100 + Double(generator.next() % 100) / 10 : Double(generator.next() % 9_000) / 100
            return [.integer(Int64(id)), .integer(Int64(1 + generator.next() % 50)), .integer(Int64(clock)), .real(value), .integer(Int64(generator.next() % 3))]
        }
        try finish(connection)
        let first = 1_600_000_000, last = clock
        let middle = first + (last - first) / 2
        let entries = [
            WorkloadEntry(sql: "SELECT ts, value FROM reading WHERE sensor_id = 5 AND ts BETWEEN \(middle) AND \(middle + 3_600) ORDER BY ts", count: 200),
            WorkloadEntry(sql: "SELECT ts, value FROM reading WHERE sensor_id = 5 AND ts BETWEEN \(first) AND \(last - 3_600) ORDER BY ts", count: 5),
            WorkloadEntry(sql: "SELECT * FROM reading WHERE sensor_id = 9 ORDER BY ts DESC LIMIT 1", count: 300),
            WorkloadEntry(sql: "SELECT * FROM reading WHERE sensor_id = 9 ORDER BY ts DESC LIMIT 500", count: 20),
            WorkloadEntry(sql: "SELECT id, sensor_id, value FROM reading WHERE ts > \(last - 600) ORDER BY ts LIMIT 10", count: 60),
            WorkloadEntry(sql: "SELECT count(*) FROM reading WHERE value > 99.5", count: 5),
            WorkloadEntry(sql: "INSERT INTO reading(sensor_id, ts, value, quality) VALUES (5, \(last + 60), 42.0, 1)", count: 500),
        ]
        return AdviceStore(name: "reading-ranges", summary: "\(Figures.count(rows)) readings of 50 sensors over time; narrow (1 h) and wide (all) ranges, LIMIT 1 and LIMIT 500 on the same shape, the most recent readings, a rare-value range; inserts",
                           url: url, entries: entries,
                           mustNotScan: ["SELECT ts, value FROM reading WHERE sensor_id = 5 AND ts BETWEEN \(middle)", "SELECT * FROM reading WHERE sensor_id = 9 ORDER BY ts DESC LIMIT 1"],
                           expectation: "reading(sensor_id, ts); ts alone for the recent readings if it pays for the inserts")
    }

    /// A help-desk ticket table with two single-column indexes already there, on a skewed queue and a
    /// state that is 'closed' on 90 % of rows; built twice, without and with `sqlite_stat1` (ANALYZE), which
    /// changes which existing index the planner picks.
    static func tickets(in directory: URL, rows: Int, seed: UInt64, analyzed: Bool) throws -> AdviceStore {
        let name = analyzed ? "tickets-stat1" : "tickets"
        let (url, connection) = try open(name, in: directory, schema: """
            CREATE TABLE ticket (id INTEGER PRIMARY KEY, queue_id INTEGER NOT NULL, state TEXT NOT NULL, agent_id INTEGER,
                                 priority INTEGER NOT NULL, created REAL NOT NULL, subject TEXT NOT NULL);
            CREATE INDEX ticket_state ON ticket(state);
            CREATE INDEX ticket_queue ON ticket(queue_id);
            """)
        var generator = SeededGenerator(seed: seed &+ 108)
        let queues = ZipfDraw(count: 20, exponent: 1.6)
        try fill(connection, "INSERT INTO ticket VALUES (?, ?, ?, ?, ?, ?, ?)", count: rows) { id in
            let roll = generator.next() % 100
            return [.integer(Int64(id)), .integer(Int64(queues.next(&generator))), .text(roll < 90 ? "closed" : roll < 96 ? "open" : roll < 99 ? "pending" : "escalated"),
                    generator.next() % 10 == 0 ? .null : .integer(Int64(1 + generator.next() % 300)), .integer(Int64(generator.next() % 4)),
                    .real(690_000_000 + Double(id) * 60), .text(words(&generator, 5))]
        }
        try finish(connection, analyze: analyzed)
        let entries = [
            WorkloadEntry(sql: "SELECT id, subject, created FROM ticket WHERE queue_id = 1 AND state = 'open' ORDER BY created LIMIT 25", count: 200),
            WorkloadEntry(sql: "SELECT id, subject, created FROM ticket WHERE queue_id = 14 AND state = 'open' ORDER BY created LIMIT 25", count: 60),
            WorkloadEntry(sql: "SELECT * FROM ticket WHERE agent_id = 17 AND state <> 'closed'", count: 100),
            WorkloadEntry(sql: "SELECT count(*) FROM ticket WHERE queue_id = 2 AND created > \(690_000_000 + rows * 55)", count: 50),
            WorkloadEntry(sql: "INSERT INTO ticket(queue_id, state, agent_id, priority, created, subject) VALUES (1, 'open', NULL, 2, \(690_000_000 + rows * 61).0, 'printer on fire')", count: 200),
            WorkloadEntry(sql: "UPDATE ticket SET state = 'closed', agent_id = 17 WHERE id = \(rows / 2)", count: 300),
        ]
        return AdviceStore(name: name, summary: "\(Figures.count(rows)) tickets, Zipf queues (queue 1 about half), state 'closed' on 90 %, existing indexes on state and queue_id, \(analyzed ? "with sqlite_stat1 (ANALYZE run)" : "no sqlite_stat1"); a queue's open tickets by date, an agent's open tickets, a recent count; inserts, closes",
                           url: url, entries: entries, mustNotScan: ["SELECT * FROM ticket WHERE agent_id"],
                           expectation: "(queue_id, state, created) for the queue pages and an index on agent_id; the single-column state index possibly dropped")
    }

    /// Core Data's single-table inheritance: `ZITEM` holds an abstract Item's three sub-entities (Task 3,
    /// Note 4, Event 5) with `Z_ENT`, `Z_PK`, `Z_OPT`, Core Data's own `Z_ENT` and relationship indexes, and
    /// Core Data's SQL text with literal values.
    static func coreDataHierarchy(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("coredata-hierarchy", in: directory, schema: """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE ZACCOUNT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDONE INTEGER, ZPINNED INTEGER, ZOWNER INTEGER,
                                ZCREATED TIMESTAMP, ZDUE TIMESTAMP, ZSTART TIMESTAMP, ZTITLE VARCHAR, ZBODY VARCHAR, ZUUID BLOB);
            CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT);
            CREATE INDEX ZITEM_ZOWNER_INDEX ON ZITEM (ZOWNER);
            """)
        var generator = SeededGenerator(seed: seed &+ 109)
        let accounts = 300
        try connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Account', 0, \(accounts)), (2, 'Item', 0, 0), (3, 'Task', 2, 0), (4, 'Note', 2, 0), (5, 'Event', 2, \(rows))")
        try fill(connection, "INSERT INTO ZACCOUNT VALUES (?, 1, 1, ?)", count: accounts) { [.integer(Int64($0)), .text("Account \($0)")] }
        let owners = ZipfDraw(count: accounts, exponent: 0.9)
        try fill(connection, "INSERT INTO ZITEM VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows) { id in
            let roll = generator.next() % 10
            let entity = roll < 5 ? 3 : roll < 8 ? 4 : 5
            let created = 700_000_000 + Double(id) * 300
            let uuid = (0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            return [.integer(Int64(id)), .integer(Int64(entity)), .integer(Int64(1 + generator.next() % 4)),
                    entity == 3 ? .integer(generator.next() % 4 == 0 ? 0 : 1) : .null,
                    entity == 4 ? .integer(generator.next() % 50 == 0 ? 1 : 0) : .null,
                    .integer(Int64(owners.next(&generator))), .real(created),
                    entity == 3 ? .real(created + Double(generator.next() % 5_000_000)) : .null,
                    entity == 5 ? .real(created + Double(generator.next() % 2_000_000)) : .null,
                    .text(words(&generator, 4)), entity == 4 ? .text(words(&generator, 40)) : .null, .blob(uuid)]
        }
        try finish(connection)
        let uuids = try [rows / 6, rows / 2, rows - 4].map { try literal(connection.scalar("SELECT ZUUID FROM ZITEM WHERE Z_PK = ?", [.integer(Int64($0))])) }
        let weekStart = 700_000_000 + rows * 150
        let taskColumns = "t0.Z_PK, t0.Z_OPT, t0.ZDONE, t0.ZDUE, t0.ZOWNER, t0.ZTITLE"
        var entries: [WorkloadEntry] = []
        for (owner, count) in [(1, 120), (25, 80), (250, 40)] {
            entries.append(WorkloadEntry(sql: "SELECT 0, \(taskColumns) FROM ZITEM t0 WHERE ( t0.ZOWNER = \(owner) AND  t0.ZDONE = 0) AND t0.Z_ENT = 3 ORDER BY t0.ZDUE LIMIT 20", count: count))
        }
        entries.append(WorkloadEntry(sql: "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZITEM t0 WHERE ( t0.ZOWNER = 1 AND  t0.ZDONE = 0) AND t0.Z_ENT = 3", count: 60))
        entries.append(WorkloadEntry(sql: "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZSTART, t0.ZTITLE FROM ZITEM t0 WHERE ( t0.ZSTART >= \(weekStart).0 AND  t0.ZSTART < \(weekStart + 604_800).0) AND t0.Z_ENT = 5 ORDER BY t0.ZSTART", count: 100))
        entries.append(WorkloadEntry(sql: "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZTITLE FROM ZITEM t0 WHERE  t0.ZPINNED = 1 AND t0.Z_ENT = 4 ORDER BY t0.ZCREATED DESC LIMIT 50", count: 80))
        for uuid in uuids {
            entries.append(WorkloadEntry(sql: "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZOWNER, t0.ZTITLE FROM ZITEM t0 WHERE  t0.ZUUID = \(uuid)  LIMIT 1", count: 50))
        }
        entries.append(WorkloadEntry(sql: "UPDATE ZITEM SET ZDONE = 1, Z_OPT = 3 WHERE Z_PK = \(rows / 2 / 10 * 10) AND Z_OPT = 2", count: 150))
        entries.append(WorkloadEntry(sql: "INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZDONE, ZOWNER, ZCREATED, ZDUE, ZTITLE, ZUUID) VALUES(\(rows + 1), 3, 1, 0, 1, \(weekStart).0, \(weekStart + 86_400).0, 'call the plumber', x'00112233445566778899aabbccddeeff')", count: 60))
        return AdviceStore(name: "coredata-hierarchy", summary: "\(Figures.count(rows)) ZITEM rows of three sub-entities (Task 50 %, Note 30 %, Event 20 %; Z_ENT index and relationship index as Core Data makes them), Zipf owners; Core Data SQL: an owner's open tasks by due date, a count, a week of events, pinned notes, UUID lookups; edits with Z_OPT, inserts",
                           url: url, entries: entries, mustNotScan: ["SELECT t0.Z_ENT, t0.Z_PK"],
                           expectation: "ZITEM(ZUUID); (ZOWNER, ZDONE, ZDUE) for the task list; ZSTART for the events; no Z_OPT in any index")
    }

    /// A mail table that already carries nine indexes (some unused, one unique): the hot inbox query still
    /// does an index SEARCH that examines half the table (its index leads with the mailbox only), and every
    /// insert maintains all nine.
    static func matureMail(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("mature-mail", in: directory, schema: """
            CREATE TABLE message (id INTEGER PRIMARY KEY, remote_id TEXT NOT NULL, mailbox_id INTEGER NOT NULL, thread_id INTEGER NOT NULL,
                                  sender TEXT NOT NULL, subject TEXT NOT NULL, date_received REAL NOT NULL, is_read INTEGER NOT NULL,
                                  is_flagged INTEGER NOT NULL, size INTEGER NOT NULL, snippet TEXT);
            CREATE UNIQUE INDEX message_remote_id ON message(remote_id);
            CREATE INDEX message_mailbox ON message(mailbox_id);
            CREATE INDEX message_thread ON message(thread_id);
            CREATE INDEX message_sender ON message(sender);
            CREATE INDEX message_date ON message(date_received);
            CREATE INDEX message_flagged ON message(is_flagged);
            CREATE INDEX message_size ON message(size);
            CREATE INDEX message_thread_date ON message(thread_id, date_received);
            CREATE INDEX message_mailbox_sender ON message(mailbox_id, sender);
            """)
        var generator = SeededGenerator(seed: seed &+ 110)
        let senders = ZipfDraw(count: 2_000, exponent: 1.0)
        try fill(connection, "INSERT INTO message VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows) { id in
            let roll = generator.next() % 100
            let mailbox = roll < 50 ? 1 : roll < 70 ? 2 : roll < 85 ? 3 : 4 + Int(generator.next() % 20)
            return [.integer(Int64(id)), .text(String(format: "<%016llx@mail>", generator.next())), .integer(Int64(mailbox)),
                    .integer(Int64(1 + id / 3 + Int(generator.next() % 5))), .text("sender\(senders.next(&generator))@example.com"),
                    .text(words(&generator, 5)), .real(600_000_000 + Double(id) * 120), .integer(generator.next() % 20 == 0 ? 0 : 1),
                    .integer(generator.next() % 50 == 0 ? 1 : 0), .integer(Int64(1_000 + generator.next() % 200_000)), .text(words(&generator, 12))]
        }
        try finish(connection)
        let remote = try literal(connection.scalar("SELECT remote_id FROM message WHERE id = ?", [.integer(Int64(rows / 3))]))
        let entries = [
            WorkloadEntry(sql: "SELECT id, subject, sender, date_received FROM message WHERE mailbox_id = 1 AND is_read = 0 ORDER BY date_received DESC LIMIT 50", count: 300),
            WorkloadEntry(sql: "SELECT count(*) FROM message WHERE mailbox_id = 1 AND is_read = 0", count: 100),
            WorkloadEntry(sql: "SELECT id, subject, date_received FROM message WHERE thread_id = \(rows / 6) ORDER BY date_received", count: 150),
            WorkloadEntry(sql: "SELECT * FROM message WHERE remote_id = \(remote)", count: 100),
            WorkloadEntry(sql: "SELECT id, subject FROM message WHERE mailbox_id = 2 AND sender = 'sender3@example.com'", count: 40),
            WorkloadEntry(sql: "INSERT INTO message(remote_id, mailbox_id, thread_id, sender, subject, date_received, is_read, is_flagged, size, snippet) VALUES ('<new0001@mail>', 1, \(rows / 3 + 10), 'sender1@example.com', 'hello', \(600_000_000 + rows * 121).0, 0, 0, 4200, 'hi there')", count: 400),
            WorkloadEntry(sql: "UPDATE message SET is_read = 1 WHERE id = \(rows / 2)", count: 300),
        ]
        return AdviceStore(name: "mature-mail", summary: "\(Figures.count(rows)) messages with nine indexes already (unique remote ID; mailbox, thread, sender, date, flagged, size, thread+date, mailbox+sender); the hot unread-inbox query searches the mailbox index over half the table; inserts maintain all nine",
                           url: url, entries: entries, mustNotScan: ["SELECT"],
                           expectation: "(mailbox_id, is_read, date_received) for the unread inbox; unused single-column indexes (flagged, size, date, mailbox, thread) dropped to pay for it")
    }

    /// A chat app's message table on GRDB with fourteen indexes already (issue 21's shape): the unread
    /// badge COUNT searches (thread_id, id) and then checks `kind` and `is_read` row by row over a
    /// thread that holds a quarter of the table; a page of a thread searches thread_id and filters
    /// deleted rows; lookups by server id and by author are served. Added with issue 21, after the suite's
    /// first pairs (not tuned on).
    static func matureChat(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("mature-chat", in: directory, schema: """
            CREATE TABLE msg (id INTEGER PRIMARY KEY, server_id TEXT NOT NULL, thread_id INTEGER NOT NULL, author_id INTEGER NOT NULL,
                              kind INTEGER NOT NULL, is_read INTEGER NOT NULL, is_deleted INTEGER NOT NULL, sent_at REAL NOT NULL,
                              edited_at REAL, reply_to INTEGER, body TEXT);
            CREATE UNIQUE INDEX msg_server_id ON msg(server_id);
            CREATE INDEX msg_thread ON msg(thread_id);
            CREATE INDEX msg_thread_id ON msg(thread_id, id);
            CREATE INDEX msg_author ON msg(author_id);
            CREATE INDEX msg_kind ON msg(kind);
            CREATE INDEX msg_is_read ON msg(is_read);
            CREATE INDEX msg_deleted ON msg(is_deleted);
            CREATE INDEX msg_sent ON msg(sent_at);
            CREATE INDEX msg_edited ON msg(edited_at);
            CREATE INDEX msg_reply ON msg(reply_to);
            CREATE INDEX msg_thread_sent ON msg(thread_id, sent_at);
            CREATE INDEX msg_author_sent ON msg(author_id, sent_at);
            CREATE INDEX msg_thread_author ON msg(thread_id, author_id);
            CREATE INDEX msg_kind_sent ON msg(kind, sent_at);
            """)
        var generator = SeededGenerator(seed: seed &+ 120)
        let authors = ZipfDraw(count: 500, exponent: 1.1)
        try fill(connection, "INSERT INTO msg VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows) { id in
            let thread = generator.next() % 4 == 0 ? 1 : 2 + Int(generator.next() % 999)
            let kindRoll = generator.next() % 100
            return [.integer(Int64(id)), .text(String(format: "srv-%012llx", generator.next())), .integer(Int64(thread)),
                    .integer(Int64(authors.next(&generator))), .integer(kindRoll < 80 ? 0 : kindRoll < 95 ? 1 : 2),
                    .integer(Int64(id) > Int64(rows) - Int64(rows / 50) ? 0 : 1), .integer(generator.next() % 40 == 0 ? 1 : 0),
                    .real(700_000_000 + Double(id) * 30), generator.next() % 10 == 0 ? .real(700_000_000 + Double(id) * 30 + 60) : .null,
                    generator.next() % 5 == 0 ? .integer(Int64(max(1, id - 3))) : .null, .text(words(&generator, 8))]
        }
        try finish(connection)
        let server = try literal(connection.scalar("SELECT server_id FROM msg WHERE id = ?", [.integer(Int64(rows / 3))]))
        let entries = [
            WorkloadEntry(sql: "SELECT COUNT(*) FROM msg WHERE thread_id = 1 AND kind = 0 AND is_read = 0 AND id <= \(rows)", count: 400),
            WorkloadEntry(sql: "SELECT id, author_id, body, sent_at FROM msg WHERE thread_id = 1 AND is_deleted = 0 AND id < \(rows - 100) ORDER BY id DESC LIMIT 50", count: 200),
            WorkloadEntry(sql: "SELECT * FROM msg WHERE server_id = \(server)", count: 150),
            WorkloadEntry(sql: "SELECT id, sent_at FROM msg WHERE author_id = 3 ORDER BY sent_at DESC LIMIT 20", count: 50),
            WorkloadEntry(sql: "INSERT INTO msg(server_id, thread_id, author_id, kind, is_read, is_deleted, sent_at, body) VALUES ('srv-new000000001', 1, 3, 0, 0, 0, \(700_000_000 + rows * 31).0, 'hello')", count: 300),
            WorkloadEntry(sql: "UPDATE msg SET is_read = 1 WHERE id = \(rows - 10)", count: 300),
        ]
        return AdviceStore(name: "mature-chat", summary: "\(Figures.count(rows)) chat messages with fourteen indexes already; the unread badge COUNT searches (thread_id, id) and checks kind and is_read row by row in a thread holding a quarter of the table",
                           url: url, entries: entries, mustNotScan: ["SELECT"],
                           expectation: "an index leading with thread_id then the unread badge's equality columns (kind, is_read) and id; unused single-column indexes reported")
    }


    /// Courses and enrolments (added with the rule that a partial index is created after the full ones on its
    /// key): a rare failing grade counted per department through a join, a rarer incomplete grade listed per
    /// term, a course's roster by term, a student's record; grade updates and inserts. A partial index on the
    /// rare grade and a full one on the same course key compete for one lookup, and a department index pays
    /// only through the partial one.
    static func courseGrades(in directory: URL, enrolments: Int, seed: UInt64) throws -> AdviceStore {
        let (url, connection) = try open("course-grades", in: directory, schema: """
            CREATE TABLE course (id INTEGER PRIMARY KEY, dept_id INTEGER NOT NULL, code TEXT NOT NULL, title TEXT NOT NULL, credits INTEGER NOT NULL);
            CREATE TABLE enrolment (id INTEGER PRIMARY KEY, student_id INTEGER NOT NULL, course_id INTEGER NOT NULL REFERENCES course(id),
                                    grade TEXT NOT NULL, term INTEGER NOT NULL, updated REAL NOT NULL);
            """)
        var generator = SeededGenerator(seed: seed &+ 113)
        let courses = max(300, enrolments / 30), students = max(1_000, enrolments / 8)
        let departments = ZipfDraw(count: 30, exponent: 0.9)
        try fill(connection, "INSERT INTO course VALUES (?, ?, ?, ?, ?)", count: courses) { id in
            [.integer(Int64(id)), .integer(Int64(departments.next(&generator))), .text("C\(1000 + id)"), .text(words(&generator, 3)),
             .integer(Int64(2 + generator.next() % 5))]
        }
        let courseDraw = ZipfDraw(count: courses, exponent: 0.5)
        try fill(connection, "INSERT INTO enrolment VALUES (?, ?, ?, ?, ?, ?)", count: enrolments) { id in
            let roll = generator.next() % 1000
            let grade = roll < 40 ? "F" : roll < 50 ? "I" : ["A", "B", "C", "D"][Int(generator.next() % 4)]
            return [.integer(Int64(id)), .integer(Int64(1 + generator.next() % UInt64(students))), .integer(Int64(courseDraw.next(&generator))),
                    .text(grade), .integer(Int64(2019 + generator.next() % 7)), .real(640_000_000 + Double(id) * 60)]
        }
        try finish(connection)
        var entries: [WorkloadEntry] = []
        for (department, count) in [(1, 120), (9, 80)] {
            entries.append(WorkloadEntry(sql: "SELECT count(*) FROM enrolment e JOIN course c ON c.id = e.course_id WHERE c.dept_id = \(department) AND e.grade = 'F'", count: count))
        }
        entries.append(WorkloadEntry(sql: "SELECT e.id, e.student_id, e.course_id FROM enrolment e WHERE e.grade = 'I' AND e.term = 2024", count: 40))
        for (course, count) in [(2, 50), (courses / 2, 30)] {
            entries.append(WorkloadEntry(sql: "SELECT e.student_id, e.grade FROM course c JOIN enrolment e ON e.course_id = c.id WHERE c.code = 'C\(1000 + course)' ORDER BY e.term DESC", count: count))
        }
        entries.append(WorkloadEntry(sql: "SELECT c.code, e.grade, e.term FROM enrolment e JOIN course c ON c.id = e.course_id WHERE e.student_id = \(students / 3) ORDER BY e.term", count: 80))
        entries.append(WorkloadEntry(sql: "UPDATE enrolment SET grade = 'B', updated = 700000000.0 WHERE id = \(enrolments / 4)", count: 150))
        entries.append(WorkloadEntry(sql: "INSERT INTO enrolment(student_id, course_id, grade, term, updated) VALUES (\(students / 2), 7, 'A', 2026, 700000000.0)", count: 60))
        return AdviceStore(name: "course-grades", summary: "\(Figures.count(enrolments)) enrolments in \(Figures.count(courses)) courses of 30 departments (Zipf), grade 'F' on 4 %, 'I' on 1 %; a department's failing count through a join, a term's incomplete grades, a course's roster by term, a student's record; grade updates, inserts",
                           url: url, entries: entries, mustNotScan: ["SELECT c.code"],
                           expectation: "course(code), enrolment(course_id), enrolment(student_id); enrolment(course_id) WHERE grade = 'F' with course(dept_id) for the count")
    }
}
