// indexadvisor 0.1.0: SwiftData declarations for notes.sqlite, 2026-12-02T00:43:21Z.
// Key paths from the app's model: Note.swift (--model).
//
// Adding #Index or #Unique changes the schema: put the model in a new VersionedSchema and add a
// migration stage to your SchemaMigrationPlan (a lightweight stage is enough for an index). SwiftData
// builds indexes only when it creates a store, so existing stores also need the CREATE INDEX IF NOT
// EXISTS statements (--format sql), run before the ModelContainer opens the store.
// #Index and #Unique need iOS 18, macOS 15, tvOS 18 or watchOS 11 as the deployment target. Before
// them, @Attribute(.unique) (iOS 17) declares a single attribute unique, and the SQL migration adds indexes.
// Building them took 630.7 ms on this store (51.6 MiB): what that migration costs here.

// Inside @Model final class Note { … }:
#Index<Note>([\.folderID, \.isArchived, \.updatedAt], [\.slug, \.folderID])
#Unique<Note>([\.remoteID], [\.folderID, \.slug])

// No #Index for Z_Note_SwiftDataIndexOnBinaryremoteID (ZREMOTEID): the #Unique rule on ZREMOTEID above gives the store a unique index that serves the same lookups. Declaring both would build two indexes for one job; with the #Unique declared, its CREATE INDEX is not needed.

// Core Data model made in Xcode (.xcdatamodeld): add a new model version and, in it, these Fetch Indexes
// (each element ascending, binary):
//   entity Note: SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt = folderID, isArchived, updatedAt
//   entity Note: SwiftDataIndexOnBinaryslugfolderID = slug, folderID
// Core Data names each one Z_<Entity>_<name> in the store: the names the SQL migration uses.

// Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):
// S7, substring search no B-tree serves: ZNOTE is searched by substring (NSCoreDataStringSearch), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can.
//   S7 182.6 ms per execution as it is.
