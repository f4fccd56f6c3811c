import CoreData

extension Book {
    static var newestFirst: [NSSortDescriptor] { [NSSortDescriptor(key: "addedAt", ascending: false)] }

    enum Filter {
        static func onShelf(_ shelf: Shelf) -> NSPredicate { NSPredicate(format: "shelf == %@", shelf) }
        static func available() -> NSPredicate { NSPredicate(format: "isLent == NO") }
        static func availableOn(_ shelf: Shelf) -> NSPredicate {
            NSCompoundPredicate(andPredicateWithSubpredicates: [onShelf(shelf), available()])
        }
    }

    static func fetchRequest(isbn: String) -> NSFetchRequest<Book> {
        let request = super.fetchRequest() as! NSFetchRequest<Book>
        request.predicate = NSPredicate(format: "isbnCode == %@", isbn)
        request.fetchLimit = 1
        return request
    }
}
