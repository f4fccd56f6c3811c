import CoreData

final class Library {
    let context: NSManagedObjectContext

    init(context: NSManagedObjectContext) {
        self.context = context
    }

    func episodesController(of show: Show) -> NSFetchedResultsController<Episode> {
        let request = Episode.sortedFetchRequest
        request.predicate = Episode.predicate(show: show)
        request.fetchBatchSize = 25
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
    }

    func episode(guid: String) -> Episode? {
        Episode.findOrFetch(in: context, matching: Episode.predicate(guid: guid))
    }

    func subscribedShows() throws -> [Show] {
        let request = Show.sortedFetchRequest
        request.predicate = Show.subscribed
        request.relationshipKeyPathsForPrefetching = ["episodes"]
        return try context.fetch(request)
    }

    func show(feedURL: String) throws -> Show? {
        let request = Show.sortedFetchRequest(with: Show.predicate(feedURL: feedURL))
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    func upNext(in show: Show) throws -> [Episode] {
        let request = Episode.sortedFetchRequest
        request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [Episode.predicate(show: show), Episode.unplayed])
        request.fetchLimit = 50
        return try context.fetch(request)
    }
}
