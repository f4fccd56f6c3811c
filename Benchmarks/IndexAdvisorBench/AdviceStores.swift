import Foundation
import IndexAdvisor

/// One statement of a benchmark workload with its literal values, and how often the app runs it.
struct WorkloadEntry {
    var sql: String
    var count: Int
    var isWrite: Bool { ["INSERT", "UPDATE", "DELETE"].contains(sql.prefix(6).uppercased()) }
}

/// A benchmark store and its workload, built deterministically from a seed.
struct AdviceStore {
    var name: String
    var summary: String
    var url: URL
    var entries: [WorkloadEntry]
    /// Read statements (by the start of their SQL) that must not be left with a full table scan once our
    /// advice is applied: a deterministic check for CI.
    var mustNotScan: [String]
    /// What a reader should expect, said in the report.
    var expectation: String

    /// The workload as a `.sql` file (`-- freq: N` before each statement).
    var workloadSQL: String {
        entries.map { "-- freq: \($0.count)\n\($0.sql);" }.joined(separator: "\n") + "\n"
    }

    /// Copies the store as built and its workload file into `directory`, for a reader to reproduce a row by hand.
    func keep(workload: URL, in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in [url, workload] {
            let target = directory.appendingPathComponent(file.lastPathComponent)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: file, to: target)
        }
    }

    /// One statement per distinct shape (the first variant), for `.expert`, which takes statements, not counts.
    var distinctReads: [String] {
        var seen = Set<String>()
        var reads: [String] = []
        for entry in entries where !entry.isWrite {
            let shape = Fingerprinter.normalize(entry.sql).parameterizedSQL
            if seen.insert(shape).inserted { reads.append(entry.sql) }
        }
        return reads
    }
}

/// Builds the four benchmark stores: the notes app, a recordings catalogue, a shop, and a write-heavy event log.
enum AdviceStores {
    /// - Parameter scale: 1 for the full benchmark (≥ 200,000 notes), 0.1 for `--quick`.
    static func all(in directory: URL, scale: Double, seed: UInt64) throws -> [AdviceStore] {
        [
            try notes(in: directory, rows: Int(200_000 * scale), seed: seed),
            try recordings(in: directory, rows: Int(150_000 * scale), seed: seed),
            try shop(in: directory, orders: Int(200_000 * scale), seed: seed),
            try events(in: directory, rows: Int(200_000 * scale), seed: seed),
        ]
    }

    static func hex(_ value: SQLValue?) -> String {
        guard case .blob(let bytes)? = value else { return "NULL" }
        return "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
    }

    static func text(_ value: SQLValue?) -> String {
        guard case .text(let string)? = value else { return "NULL" }
        return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The notes app of the SwiftData articles (``NotesDemo``): Core Data layout, skewed folders, with a
    /// redundant fetch index (`title` beside `title, updatedAt`) already in the store.
    static func notes(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let url = directory.appendingPathComponent("notes.sqlite")
        try NotesDemo.makeStore(at: url, notes: rows, seed: seed)
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        // A large, a middling and a small folder, and notes spread over the table.
        let folders = try [1, 12, 150].map { try hex(connection.scalar("SELECT ZFOLDERID FROM ZFOLDER WHERE Z_PK = ?", [.integer(Int64($0))])) }
        let picks = [rows / 7, rows / 2, rows - 3].map { Int64(max(1, $0)) }
        let remoteIDs = try picks.map { try text(connection.scalar("SELECT ZREMOTEID FROM ZNOTE WHERE Z_PK = ?", [.integer($0)])) }
        let slugs = try picks.map { pk -> (String, String) in
            let row = try connection.query("SELECT ZFOLDERID, ZSLUG FROM ZNOTE WHERE Z_PK = ?", [.integer(pk)])[0]
            return (hex(row[0]), text(row[1]))
        }
        let columns = "t0.Z_PK, t0.Z_OPT, t0.ZBODY, t0.ZFOLDERID, t0.ZISARCHIVED, t0.ZISPINNED, t0.ZREMOTEID, t0.ZSLUG, t0.ZTITLE, t0.ZUPDATEDAT"
        var entries: [WorkloadEntry] = []
        for (folder, count) in zip(folders, [200, 120, 80]) {
            entries.append(WorkloadEntry(sql: "SELECT 0, \(columns) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = \(folder) AND  t0.ZISARCHIVED = 0) ORDER BY t0.ZUPDATEDAT DESC LIMIT 50", count: count))
        }
        for (folder, count) in zip(folders, [80, 40, 30]) {
            entries.append(WorkloadEntry(sql: "SELECT 0, \(columns) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = \(folder) AND  t0.ZISARCHIVED = 0 AND  t0.ZISPINNED = 1) ORDER BY t0.ZUPDATEDAT DESC", count: count))
        }
        for remoteID in remoteIDs {
            entries.append(WorkloadEntry(sql: "SELECT 0, \(columns) FROM ZNOTE t0 WHERE  t0.ZREMOTEID = \(remoteID)  LIMIT 1", count: 100))
        }
        for (folder, slug) in slugs {
            entries.append(WorkloadEntry(sql: "SELECT 0, \(columns) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = \(folder) AND  t0.ZSLUG = \(slug))  LIMIT 1", count: 33))
        }
        for (folder, count) in zip(folders, [100, 60, 40]) {
            entries.append(WorkloadEntry(sql: "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = \(folder) AND  t0.ZISARCHIVED = 0)", count: count))
        }
        let next = rows + 1
        entries.append(WorkloadEntry(sql: "INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZISARCHIVED, ZISPINNED, ZFOLDER, ZUPDATEDAT, ZBODY, ZFOLDERID, ZREMOTEID, ZSLUG, ZTITLE) VALUES(\(next), 1, 1, 0, 0, 1, 790000000.0, 'garden plan for the weekend', \(folders[0]), 'C0FFEE00-0000-4000-8000-000000000001', 'garden-plan-\(next)', 'Garden plan')", count: 60))
        entries.append(WorkloadEntry(sql: "UPDATE ZNOTE SET ZBODY = 'edited body text', ZUPDATEDAT = 790000100.0, Z_OPT = 2 WHERE Z_PK = \(picks[1])", count: 150))
        entries.append(WorkloadEntry(sql: "UPDATE ZNOTE SET ZISARCHIVED = 1, Z_OPT = 3 WHERE Z_PK = \(picks[0])", count: 20))
        return AdviceStore(name: "notes", summary: "\(Figures.count(rows)) notes in 200 skewed folders (Core Data layout, SwiftData's notes app); lists, pinned, sync lookups, deep links, counts; inserts and edits",
                           url: url, entries: entries,
                           mustNotScan: ["SELECT 0, t0.Z_PK", "SELECT COUNT("],
                           expectation: "indexes for the folder list (folder, archived, updated), the remote-ID lookup and the deep link; the redundant `Z_Note_title` dropped")
    }

    /// A recordings catalogue: `Recording` with a unique recordingID (not declared to the store), venue,
    /// recordedAt, isStarred (3 %).
    static func recordings(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let url = directory.appendingPathComponent("recordings.sqlite")
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE recording (id INTEGER PRIMARY KEY, recordingID TEXT NOT NULL, venue TEXT NOT NULL,
                                    recordedAt REAL NOT NULL, isStarred INTEGER NOT NULL DEFAULT 0, title TEXT, durationSeconds REAL);
            """)
        var generator = SeededGenerator(seed: seed &+ 1)
        try connection.execute("BEGIN")
        let insert = try connection.prepare("INSERT INTO recording VALUES (?, ?, ?, ?, ?, ?, ?)")
        for id in 1...max(1, rows) {
            // Venues are skewed: the cube of a uniform draw puts most recordings in the first venues.
            let uniform = Double(generator.next() % 1_000_000) / 1_000_000
            let venue = Int(uniform * uniform * uniform * 300)
            try insert.bind([.integer(Int64(id)), .text(String(format: "REC-%08llX", generator.next() % 0xFFFF_FFFF)),
                             .text("Venue \(venue)"), .real(1_500_000_000 + Double(generator.next() % 300_000_000)),
                             .integer(generator.next() % 33 == 0 ? 1 : 0), .text("Take \(id)"), .real(Double(60 + generator.next() % 3000))])
            try insert.run()
        }
        try connection.execute("COMMIT; PRAGMA wal_checkpoint(TRUNCATE);")
        let picks = [rows / 5, rows / 2, rows - 1].map { Int64(max(1, $0)) }
        let ids = try picks.map { try text(connection.scalar("SELECT recordingID FROM recording WHERE id = ?", [.integer($0)])) }
        var entries: [WorkloadEntry] = []
        for id in ids { entries.append(WorkloadEntry(sql: "SELECT * FROM recording WHERE recordingID = \(id)", count: 170)) }
        for (venue, count) in [("Venue 3", 80), ("Venue 40", 70), ("Venue 250", 50)] {
            entries.append(WorkloadEntry(sql: "SELECT id, title, recordedAt FROM recording WHERE venue = '\(venue)' ORDER BY recordedAt DESC LIMIT 30", count: count))
        }
        entries.append(WorkloadEntry(sql: "SELECT id, title, recordedAt FROM recording WHERE isStarred = 1 ORDER BY recordedAt DESC LIMIT 50", count: 100))
        entries.append(WorkloadEntry(sql: "SELECT id, title FROM recording WHERE recordedAt BETWEEN 1700000000 AND 1700600000 ORDER BY recordedAt", count: 50))
        entries.append(WorkloadEntry(sql: "INSERT INTO recording(recordingID, venue, recordedAt, isStarred, title, durationSeconds) VALUES ('REC-NEW00001', 'Venue 3', 1800000000.0, 0, 'New take', 300.0)", count: 100))
        entries.append(WorkloadEntry(sql: "UPDATE recording SET isStarred = 1 WHERE id = \(picks[1])", count: 50))
        return AdviceStore(name: "recordings", summary: "\(Figures.count(rows)) recordings (recordingID unique in the app, 300 skewed venues, 3 % starred); lookups, venue pages, starred list, date range; inserts, starring",
                           url: url, entries: entries, mustNotScan: ["SELECT"],
                           expectation: "an index on recordingID (a #Unique candidate), one for venue pages sorted by date, one serving the starred list and the date range")
    }

    /// A shop: customers, products, orders with a low-cardinality status, and order items; joins, IN lists,
    /// pagination, and frequent order inserts.
    static func shop(in directory: URL, orders: Int, seed: UInt64) throws -> AdviceStore {
        let url = directory.appendingPathComponent("shop.sqlite")
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE customer (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, country TEXT NOT NULL, createdAt REAL NOT NULL);
            CREATE TABLE product (id INTEGER PRIMARY KEY, sku TEXT NOT NULL, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customerID INTEGER NOT NULL REFERENCES customer(id), status TEXT NOT NULL,
                                 createdAt REAL NOT NULL, total REAL NOT NULL);
            CREATE TABLE order_item (id INTEGER PRIMARY KEY, orderID INTEGER NOT NULL REFERENCES orders(id),
                                     productID INTEGER NOT NULL REFERENCES product(id), quantity INTEGER NOT NULL, price REAL NOT NULL);
            """)
        let customers = max(100, orders / 10)
        let products = max(100, orders / 40)
        var generator = SeededGenerator(seed: seed &+ 2)
        try connection.execute("BEGIN")
        let customer = try connection.prepare("INSERT INTO customer VALUES (?, ?, ?, ?, ?)")
        for id in 1...customers {
            try customer.bind([.integer(Int64(id)), .text("customer\(id)@example.com"), .text("Customer \(id)"),
                               .text(["FR", "DE", "US", "GB", "JP", "BR"][Int(generator.next() % 6)]), .real(1_600_000_000 + Double(id) * 100)])
            try customer.run()
        }
        let product = try connection.prepare("INSERT INTO product VALUES (?, ?, ?, ?, ?)")
        for id in 1...products {
            try product.bind([.integer(Int64(id)), .text(String(format: "SKU-%06d", id)), .text("Product \(id)"),
                              .text("category \(generator.next() % 40)"), .real(Double(100 + generator.next() % 20_000) / 100)])
            try product.run()
        }
        let order = try connection.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, ?)")
        let item = try connection.prepare("INSERT INTO order_item(orderID, productID, quantity, price) VALUES (?, ?, ?, ?)")
        for id in 1...orders {
            let roll = generator.next() % 100
            let status = roll < 85 ? "delivered" : roll < 93 ? "shipped" : roll < 97 ? "paid" : roll < 99 ? "pending" : "cancelled"
            // Recent orders are the ones not delivered yet.
            let createdAt = 1_700_000_000 + Double(id) * 60
            try order.bind([.integer(Int64(id)), .integer(Int64(1 + generator.next() % UInt64(customers))), .text(status),
                            .real(createdAt), .real(Double(generator.next() % 50_000) / 100)])
            try order.run()
            for _ in 0..<(1 + Int(generator.next() % 5)) {
                try item.bind([.integer(Int64(id)), .integer(Int64(1 + generator.next() % UInt64(products))),
                               .integer(Int64(1 + generator.next() % 3)), .real(Double(100 + generator.next() % 20_000) / 100)])
                try item.run()
            }
        }
        try connection.execute("COMMIT; PRAGMA wal_checkpoint(TRUNCATE);")
        let recent = 1_700_000_000 + Double(orders) * 60 - 86_400 * 2
        var entries: [WorkloadEntry] = []
        for (customerID, offset) in [(17, 0), (17, 20), (customers / 2, 0)] {
            entries.append(WorkloadEntry(sql: "SELECT * FROM orders WHERE customerID = \(customerID) ORDER BY createdAt DESC LIMIT 20 OFFSET \(offset)", count: 100))
        }
        for orderID in [orders / 3, orders / 2, orders - 5] {
            entries.append(WorkloadEntry(sql: "SELECT oi.id, oi.quantity, oi.price, p.name, p.sku FROM order_item oi JOIN product p ON p.id = oi.productID WHERE oi.orderID = \(orderID)", count: 70))
        }
        entries.append(WorkloadEntry(sql: "SELECT * FROM orders WHERE status IN ('pending', 'paid') AND createdAt > \(recent) ORDER BY createdAt", count: 60))
        entries.append(WorkloadEntry(sql: "SELECT * FROM product WHERE id IN (3, 17, 42, 99)", count: 100))
        entries.append(WorkloadEntry(sql: "SELECT * FROM customer WHERE email = 'customer\(customers / 3)@example.com'", count: 80))
        entries.append(WorkloadEntry(sql: "SELECT id, name, price FROM product WHERE category = 'category 7' ORDER BY price LIMIT 50", count: 50))
        entries.append(WorkloadEntry(sql: "SELECT count(*) FROM orders WHERE status = 'pending'", count: 30))
        entries.append(WorkloadEntry(sql: "INSERT INTO orders(customerID, status, createdAt, total) VALUES (17, 'pending', \(recent + 172_000), 42.5)", count: 400))
        entries.append(WorkloadEntry(sql: "INSERT INTO order_item(orderID, productID, quantity, price) VALUES (\(orders), 42, 1, 19.99)", count: 1000))
        entries.append(WorkloadEntry(sql: "UPDATE orders SET status = 'shipped' WHERE id = \(orders - 50)", count: 100))
        return AdviceStore(name: "shop", summary: "\(Figures.count(orders)) orders, \(Figures.count(customers)) customers, \(Figures.count(products)) products, about 3 items per order; pages of a customer's orders, order details (join), open orders by status (IN), email lookup, category pages; frequent order and item inserts",
                           url: url, entries: entries,
                           mustNotScan: ["SELECT * FROM orders WHERE customerID", "SELECT oi.", "SELECT * FROM customer"],
                           expectation: "indexes for a customer's orders by date, order items by order, customer email; the low-cardinality status only where it pays for the inserts")
    }

    /// A write-heavy event log: 50,000 inserts for each rare read. The right answer is few or no indexes.
    static func events(in directory: URL, rows: Int, seed: UInt64) throws -> AdviceStore {
        let url = directory.appendingPathComponent("events.sqlite")
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE event (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, device TEXT NOT NULL, ts REAL NOT NULL, payload BLOB);
            """)
        var generator = SeededGenerator(seed: seed &+ 3)
        try connection.execute("BEGIN")
        let insert = try connection.prepare("INSERT INTO event VALUES (?, ?, ?, ?, ?)")
        for id in 1...max(1, rows) {
            try insert.bind([.integer(Int64(id)), .text("kind\(generator.next() % 40)"), .text("device\(generator.next() % 500)"),
                             .real(1_700_000_000 + Double(id)), .blob((0..<32).map { _ in UInt8(truncatingIfNeeded: generator.next()) })])
            try insert.run()
        }
        try connection.execute("COMMIT; PRAGMA wal_checkpoint(TRUNCATE);")
        let entries = [
            WorkloadEntry(sql: "SELECT count(*) FROM event WHERE device = 'device42' AND ts > \(1_700_000_000 + rows / 2)", count: 1),
            WorkloadEntry(sql: "INSERT INTO event(kind, device, ts, payload) VALUES ('kind3', 'device42', 1800000000.0, x'00112233445566778899aabbccddeeff')", count: 50_000),
        ]
        return AdviceStore(name: "events", summary: "\(Figures.count(rows)) events; 50,000 inserts for each read (a count by device and time)",
                           url: url, entries: entries, mustNotScan: [],
                           expectation: "no new index: the inserts pay for an index far more often than the one read saves")
    }
}
