import CoreData
import SwiftUI

struct ShelfList: View {
    @FetchRequest(sortDescriptors: [NSSortDescriptor(key: "position", ascending: true)], predicate: NSPredicate(format: "roomName == %@", "Annex"))
    private var shelves: FetchedResults<Shelf>
    @FetchRequest private var books: FetchedResults<Book>

    init(shelf: Shelf) {
        _books = FetchRequest(sortDescriptors: Book.newestFirst, predicate: Book.Filter.availableOn(shelf))
    }

    var body: some View { EmptyView() }
}

final class ShelfStore: NSObject, NSFetchedResultsControllerDelegate {
    func lookUp(isbn: String, in context: NSManagedObjectContext) -> Book? {
        try? context.fetch(Book.fetchRequest(isbn: isbn)).first
    }

    func shelf(labelled code: String, in context: NSManagedObjectContext) -> Shelf? {
        let request = NSFetchRequest<Shelf>(entityName: "Shelf")
        request.predicate = NSPredicate(format: "labelCode == %@", code)
        request.fetchLimit = 1
        return try? context.fetch(request).first
    }

    func longReads(in context: NSManagedObjectContext) -> NSFetchedResultsController<Book> {
        let request = Book.fetchRequest(predicate: NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "pageCount > %d", 600), NSPredicate(format: "title CONTAINS[cd] %@", "saga"),
        ]), sortDescriptors: Book.newestFirst)
        request.fetchBatchSize = 30
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
    }
}

final class Shelf: NSManagedObject {
    @NSManaged var labelCode: String
    @NSManaged var roomName: String
    @NSManaged var position: Int16
    @NSManaged var items: Set<Item>
}

class Item: NSManagedObject {
    @NSManaged var title: String
    @NSManaged var addedAt: Date
    @NSManaged var shelf: Shelf?
}
