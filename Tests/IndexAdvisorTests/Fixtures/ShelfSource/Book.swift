import CoreData

@objc(Book)
final class Book: Item {
    @NSManaged var isbnCode: String
    @NSManaged var pageCount: Int32
    @NSManaged var isLent: Bool

    @nonobjc class func fetchRequest(predicate: NSPredicate? = nil, sortDescriptors: [NSSortDescriptor] = []) -> NSFetchRequest<Book> {
        let request = super.fetchRequest() as! NSFetchRequest<Book>
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        return request
    }
}
