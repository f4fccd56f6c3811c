import Foundation

/// One place in the app's Swift source that fetches from the store (`--source`): a `@Query`, a
/// `FetchDescriptor`, a `#Predicate` of its own, an `NSFetchRequest` or a `@FetchRequest`, with the SQL
/// Core Data prints for it, or why it could not be translated.
public struct FetchSite: Sendable, Codable, Equatable {
    /// The kind of declaration the site is.
    public enum Form: String, Sendable, Codable {
        /// `@Query(filter:sort:order:)` on a view's property, or `Query(…)` assigned in an initializer.
        case query
        /// `FetchDescriptor<T>(predicate:sortBy:)`, with `fetchLimit`/`fetchOffset` set on it.
        case fetchDescriptor = "fetch-descriptor"
        /// A `#Predicate<T> { … }` that no descriptor or query in the file uses: a fetch of its entity.
        case predicate
        /// Core Data's `NSFetchRequest` with `NSPredicate(format:)` and `NSSortDescriptor`.
        case fetchRequest = "fetch-request"
        /// SwiftUI's `@FetchRequest(sortDescriptors:predicate:)` for Core Data.
        case fetchRequestProperty = "fetch-request-property"

        /// How the form reads in reports: `@Query`, `FetchDescriptor`, `#Predicate`, `NSFetchRequest`, `@FetchRequest`.
        public var displayName: String {
            switch self {
            case .query: return "@Query"
            case .fetchDescriptor: return "FetchDescriptor"
            case .predicate: return "#Predicate"
            case .fetchRequest: return "NSFetchRequest"
            case .fetchRequestProperty: return "@FetchRequest"
            }
        }
    }

    /// The file name (no directory), as locations print it.
    public var file: String
    /// The file's path as found under the `--source` argument (the argument's own text joined with the path below it).
    public var path: String
    /// The 1-based line where the site starts (its `@Query`, `FetchDescriptor`, `#Predicate` or request).
    public var line: Int
    public var form: Form
    /// The entity fetched (`Note`), when the scanner could tell.
    public var entity: String?
    /// How many times the app runs it per workload: 1, 10 for a `@Query` (it runs again each time its view
    /// appears and whenever the store changes), or what a `// indexadvisor: freq N` comment on the line
    /// before the site says.
    public var frequency: Int
    /// True when a `// indexadvisor: freq N` comment set ``frequency``.
    public var frequencyFromComment: Bool
    /// True for a count (`fetchCount`, `count(for:)`): Core Data's `SELECT COUNT( DISTINCT t0.Z_PK) …`.
    public var isCount: Bool
    /// The SQL Core Data prints for the fetch (shared/formats/coredata-sqldebug.md conventions: `t0` aliases,
    /// `?` for every value, unquoted names), nil when it could not be translated.
    public var sql: String?
    /// Values of the statement's `?` parameters, in order, when every one is a literal of the source
    /// (`$0.isArchived == false` binds 0); nil when any is a value captured at run time.
    public var bindings: [SQLValue]?
    /// Why the site could not be translated, one line (a computed property, a `#Expression`, a predicate
    /// built at run time…); nil when it was.
    public var untranslatedReason: String?
    /// Notes on the translation that a reader should know (a `fetchLimit` that is not a literal…).
    public var notes: [String]
    /// The fingerprint id of the workload statement the site became (a log's statement when the log showed
    /// it), set when the source is merged into a workload; nil when untranslated.
    public var statementID: String? = nil
    /// True when a log given with the source showed the statement (its counts, times and values are the log's).
    public var seenInLog: Bool? = nil

    /// `NotesList.swift:42`.
    public var location: String { "\(file):\(line)" }

    public init(file: String, path: String, line: Int, form: Form, entity: String?, frequency: Int, frequencyFromComment: Bool,
                isCount: Bool, sql: String?, bindings: [SQLValue]?, untranslatedReason: String?, notes: [String] = []) {
        self.file = file
        self.path = path
        self.line = line
        self.form = form
        self.entity = entity
        self.frequency = frequency
        self.frequencyFromComment = frequencyFromComment
        self.isCount = isCount
        self.sql = sql
        self.bindings = bindings
        self.untranslatedReason = untranslatedReason
        self.notes = notes
    }
}

/// What `--source` read: the Swift files, the model classes in them, and every fetch site found.
public struct SourceScan: Sendable {
    /// The Swift files read, as paths.
    public var files: [String]
    /// The `@Model` / `NSManagedObject` classes declared in them (the same scan as `--model`).
    public var model: ModelSource
    /// Every fetch site, in file and line order, translated or not.
    public var sites: [FetchSite]
    /// Lines of Swift read, in all.
    public var linesRead: Int
    /// Files of a `--source` folder left out, each with the reason (not a regular file, unreadable, not UTF-8).
    public var warnings: [String] = []

    public init(files: [String], model: ModelSource, sites: [FetchSite], linesRead: Int = 0) {
        self.files = files
        self.model = model
        self.sites = sites
        self.linesRead = linesRead
    }
}
