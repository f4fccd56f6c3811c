import CoreData

/// A Core Data entity of the same app, fetched the old way.
@objc(Ingredient)
final class Ingredient: NSManagedObject {
    @NSManaged var name: String
    @NSManaged var aisle: String?
    @NSManaged var stock: Int64
}
