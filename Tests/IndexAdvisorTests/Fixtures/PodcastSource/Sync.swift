import CoreData

struct FeedSync {
    let context: NSManagedObjectContext

    func existing(_ guid: String, in show: Show) throws -> Episode? {
        let request = Episode.sortedFetchRequest
        request.predicate = Episode.predicate(show: show, guid: guid)
        return try context.fetch(request).first
    }

    func unplayedCount() throws -> Int {
        let request = Episode.sortedFetchRequest
        request.predicate = Episode.unplayed
        return try context.count(for: request)
    }

    func showsController() -> NSFetchedResultsController<Show> {
        NSFetchedResultsController(fetchRequest: Show.sortedFetchRequest, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
    }

    func shows(in category: String) throws -> [Show] {
        let request = Show.sortedFetchRequest
        request.predicate = Show.predicate(category: category)
        return try context.fetch(request)
    }

    func search(_ text: String) throws -> [Show] {
        try context.fetch(Show.sortedFetchRequest(with: Show.predicate(nameContains: text)))
    }

    func longEpisodes() throws -> [Episode] {
        let request = Episode.sortedFetchRequest
        request.predicate = Episode.predicate(longerThan: 45)
        return try context.fetch(request)
    }

    func episodes(_ guids: [String]) throws -> [Episode] {
        let request = Episode.sortedFetchRequest
        request.predicate = Episode.predicate(guids: guids)
        return try context.fetch(request)
    }

    func episodes(startingWith prefix: String) throws -> [Episode] {
        let request = Episode.sortedFetchRequest
        request.predicate = Episode.predicate(titlePrefix: prefix)
        return try context.fetch(request)
    }
}
