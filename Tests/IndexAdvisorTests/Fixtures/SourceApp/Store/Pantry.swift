import CoreData

final class Pantry {
    let context: NSManagedObjectContext

    init(context: NSManagedObjectContext) {
        self.context = context
    }

    func aisle(_ aisle: String) throws -> [Ingredient] {
        let request = NSFetchRequest<Ingredient>(entityName: "Ingredient")
        request.predicate = NSPredicate(format: "aisle == %@ AND stock > 0", aisle)
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: #selector(NSString.localizedStandardCompare(_:)))]
        return try context.fetch(request)
    }

    func lookup(_ text: String) throws -> Int {
        let request: NSFetchRequest<Ingredient> = Ingredient.fetchRequest()
        request.predicate = NSPredicate(format: "name CONTAINS[cd] %@", text)
        return try context.count(for: request)
    }

    func lowStock() throws -> [Ingredient] {
        let request = NSFetchRequest<Ingredient>(entityName: "Ingredient")
        request.predicate = NSPredicate(format: "stock < 3 OR aisle == nil")
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Ingredient.stock, ascending: false)]
        request.fetchLimit = 5
        return try context.fetch(request)
    }
}
