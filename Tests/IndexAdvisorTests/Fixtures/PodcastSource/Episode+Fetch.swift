import CoreData

extension Episode: Managed {
    static var defaultSortDescriptors: [NSSortDescriptor] {
        return [NSSortDescriptor(keyPath: \Episode.publishedAt, ascending: false)]
    }

    static func predicate(guid: String) -> NSPredicate {
        return NSPredicate(format: "%K == %@", #keyPath(Episode.guid), guid)
    }

    static func predicate(show: Show) -> NSPredicate {
        NSPredicate(format: "%K == %@", #keyPath(Episode.show), show)
    }

    static func predicate(show: Show, guid: String) -> NSPredicate {
        return NSCompoundPredicate(andPredicateWithSubpredicates: [
            predicate(show: show),
            Episode.predicate(guid: guid),
        ])
    }

    static var unplayed: NSPredicate {
        NSPredicate(format: "%K == NO", #keyPath(Episode.isPlayed))
    }

    static func predicate(longerThan minutes: Int) -> NSPredicate {
        NSPredicate(format: "%K > %d", #keyPath(Episode.duration), minutes * 60)
    }

    static func predicate(guids: [String]) -> NSPredicate {
        NSPredicate(format: "%K IN %@", #keyPath(Episode.guid), guids)
    }

    static func predicate(titlePrefix: String) -> NSPredicate {
        NSPredicate(format: "%K BEGINSWITH %@", #keyPath(Episode.title), titlePrefix)
    }
}
