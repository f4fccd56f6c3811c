import Testing
import Foundation
@testable import IndexAdvisor

/// `--source`: a key path through a to-one relationship that a row with no related object may still satisfy
/// (under `||` or `NOT`) or be sorted by joins the destination with `LEFT OUTER JOIN`, so the statement keeps
/// those rows as the fetch does; one that every match needs (an AND-ed comparison) stays a `JOIN`. A parcels
/// app of my own: a parcel may have no carrier yet.
@Suite("Fetch sites whose to-one key path may be nil")
struct SourceOuterJoinTests {
    static let model = """
        import CoreData

        @objc(Carrier)
        public class Carrier: NSManagedObject {
            @NSManaged public var name: String?
            @NSManaged public var isSuspended: Bool
        }

        @objc(Parcel)
        public class Parcel: NSManagedObject {
            @NSManaged public var trackingCode: String?
            @NSManaged public var shippedAt: Date?
            @NSManaged public var carrier: Carrier?
        }
        """
    static let fetches = """
        import CoreData

        enum ParcelFetches {
            static func unassignedOrActive(in context: NSManagedObjectContext) throws -> [Parcel] {
                let request = NSFetchRequest<Parcel>(entityName: "Parcel")
                request.predicate = NSPredicate(format: "carrier == nil OR carrier.isSuspended == NO")
                request.sortDescriptors = [NSSortDescriptor(key: "shippedAt", ascending: false)]
                return try context.fetch(request)
            }
            static func byCarrierName(in context: NSManagedObjectContext) throws -> [Parcel] {
                let request = NSFetchRequest<Parcel>(entityName: "Parcel")
                request.sortDescriptors = [NSSortDescriptor(key: "carrier.name", ascending: true)]
                return try context.fetch(request)
            }
            static func ofCarrier(named name: String, in context: NSManagedObjectContext) throws -> [Parcel] {
                let request = NSFetchRequest<Parcel>(entityName: "Parcel")
                request.predicate = NSPredicate(format: "carrier.name == %@", name)
                return try context.fetch(request)
            }
        }
        """

    @Test("an OR arm or a sort through an optional to-one joins LEFT OUTER; an AND-ed comparison joins inner")
    func joins() throws {
        let scan = SourceScanner.scan([(path: "Model.swift", text: Self.model), (path: "ParcelFetches.swift", text: Self.fetches)])
        let sql = scan.sites.map { $0.sql ?? "not translated: " + ($0.untranslatedReason ?? "") }
        #expect(sql.count == 3, "\(sql)")
        guard sql.count == 3 else { return }
        #expect(sql[0].contains(" FROM ZPARCEL t0 LEFT OUTER JOIN ZCARRIER t1 ON t0.ZCARRIER = t1.Z_PK WHERE ( t0.ZCARRIER IS NULL OR  t1.ZISSUSPENDED = ?) ORDER BY t0.ZSHIPPEDAT DESC"), "\(sql[0])")
        #expect(sql[1].contains(" FROM ZPARCEL t0 LEFT OUTER JOIN ZCARRIER t1 ON t0.ZCARRIER = t1.Z_PK ORDER BY t1.ZNAME"), "\(sql[1])")
        #expect(sql[2].contains(" FROM ZPARCEL t0 JOIN ZCARRIER t1 ON t0.ZCARRIER = t1.Z_PK WHERE  t1.ZNAME = ?"), "\(sql[2])")
        // Run on a store of that shape, the OR keeps the parcel that has no carrier, as the fetch does.
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE ZCARRIER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISSUSPENDED INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZPARCEL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHIPPEDAT TIMESTAMP, ZTRACKINGCODE VARCHAR, ZCARRIER INTEGER);
            INSERT INTO ZCARRIER VALUES (1, 1, 1, 0, 'Swift Post'), (2, 1, 1, 1, 'Slow Freight');
            INSERT INTO ZPARCEL VALUES (1, 2, 1, 10, 'A', 1), (2, 2, 1, 20, 'B', 2), (3, 2, 1, 30, 'C', NULL);
            """)
        let rows = try connection.query(sql[0].replacingOccurrences(of: "?", with: "0"))
        #expect(rows.count == 2)
    }
}
