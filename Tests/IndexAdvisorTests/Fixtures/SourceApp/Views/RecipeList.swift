import SwiftUI
import SwiftData

struct RecipeList: View {
    // indexadvisor: freq 200
    @Query(filter: #Predicate<Recipe> { $0.isFavorite == true }, sort: \Recipe.createdAt, order: .reverse)
    private var favorites: [Recipe]

    @Query(sort: [SortDescriptor(\Recipe.title, comparator: .localizedStandard)]) private var all: [Recipe]

    var body: some View {
        List(all) { recipe in Text(recipe.title) }
    }
}

struct CookbookRecipes: View {
    @Query private var recipes: [Recipe]

    init(cookbookID: PersistentIdentifier) {
        _recipes = Query(filter: #Predicate<Recipe> { $0.cookbook?.persistentModelID == cookbookID },
                         sort: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.title)])
    }

    var body: some View {
        List(recipes) { recipe in Text(recipe.title) }
    }
}
