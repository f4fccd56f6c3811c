import CoreData

extension Show: Managed {
    static let defaultSortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: #selector(NSString.localizedStandardCompare(_:)))]

    static var subscribed: NSPredicate {
        NSPredicate(format: "%K == YES", #keyPath(Show.isSubscribed))
    }

    static func predicate(feedURL: String) -> NSPredicate {
        NSPredicate(format: "%K == %@", #keyPath(Show.feedURL), feedURL)
    }

    static func predicate(category: String) -> NSPredicate {
        NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "%K == %@", #keyPath(Show.category), category),
            NSPredicate(format: "%K == nil", #keyPath(Show.category)),
        ])
    }

    static func predicate(nameContains text: String) -> NSPredicate {
        NSPredicate(format: "%K CONTAINS[cd] %@", #keyPath(Show.name), text)
    }
}
