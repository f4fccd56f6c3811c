import Foundation
import SwiftData

/// A recipe in a cookbook; the fixture app's main entity.
@Model
final class Recipe {
    var title: String
    var summary: String?
    var rating: Int
    var isFavorite: Bool = false
    var createdAt: Date
    var cookedAt: Date?
    var cookbook: Cookbook?

    /// Computed: not stored, so no fetch can filter on it in SQL.
    var isQuick: Bool { rating > 3 }

    init(title: String, rating: Int, createdAt: Date = .now) {
        self.title = title
        self.rating = rating
        self.createdAt = createdAt
    }
}

@Model
final class Cookbook {
    var name: String
    var isShared: Bool = false
    @Relationship(deleteRule: .cascade, inverse: \Recipe.cookbook) var recipes: [Recipe] = []

    init(name: String) {
        self.name = name
    }
}
