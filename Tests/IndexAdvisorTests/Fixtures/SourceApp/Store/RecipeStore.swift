import Foundation
import SwiftData

struct RecipeStore {
    let context: ModelContext

    func latest(limit: Int) throws -> [Recipe] {
        var descriptor = FetchDescriptor<Recipe>(sortBy: [SortDescriptor(\.createdAt, order: .reverse)])
        descriptor.fetchLimit = 20
        return try context.fetch(descriptor)
    }

    func search(_ text: String) throws -> [Recipe] {
        // indexadvisor: freq 50
        let descriptor = FetchDescriptor<Recipe>(predicate: #Predicate { $0.title.localizedStandardContains(text) },
                                                 sortBy: [SortDescriptor(\.title)])
        return try context.fetch(descriptor)
    }

    func inCookbook(named name: String) throws -> [Recipe] {
        try context.fetch(FetchDescriptor<Recipe>(predicate: #Predicate { $0.cookbook?.name == name }))
    }

    func neverCooked() throws -> [Recipe] {
        try context.fetch(FetchDescriptor<Recipe>(predicate: #Predicate { $0.cookedAt == nil }, sortBy: [SortDescriptor(\.title, comparator: .lexical)]))
    }

    func highlights(minimum: Int) throws -> [Recipe] {
        let predicate = #Predicate<Recipe> { $0.rating >= minimum || $0.isFavorite }
        var descriptor = FetchDescriptor(predicate: predicate)
        descriptor.fetchLimit = 10
        descriptor.fetchOffset = 30
        return try context.fetch(descriptor)
    }

    func favoriteCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<Recipe>(predicate: #Predicate { $0.isFavorite && $0.summary != nil }))
    }

    func quick() throws -> [Recipe] {
        // A computed property: Core Data cannot run it in SQL.
        try context.fetch(FetchDescriptor<Recipe>(predicate: #Predicate { $0.isQuick }))
    }
}
