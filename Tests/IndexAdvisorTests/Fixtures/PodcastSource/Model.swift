import CoreData

@objc(Show)
final class Show: NSManagedObject {
    @NSManaged var feedURL: String
    @NSManaged var name: String
    @NSManaged var isSubscribed: Bool
    @NSManaged var category: String?
    @NSManaged var refreshedAt: Date?
}

@objc(Episode)
final class Episode: NSManagedObject {
    @NSManaged var guid: String
    @NSManaged var title: String
    @NSManaged var publishedAt: Date
    @NSManaged var duration: Int64
    @NSManaged var isPlayed: Bool
    @NSManaged var show: Show?
}
