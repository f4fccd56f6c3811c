// indexadvisor 0.1.0: model declarations for notes.sqlite, 2026-12-03T20:28:23Z.
// Key paths from the app's model: Note.swift (--model).
//
// Adding #Index or #Unique changes the schema: put the model in a new VersionedSchema and add a
// migration stage to your SchemaMigrationPlan (a lightweight stage is enough for an index). SwiftData
// builds indexes only when it creates a store, so existing stores also need the CREATE INDEX IF NOT
// EXISTS statements (--format sql), run before the ModelContainer opens the store.
// #Index and #Unique need iOS 18, macOS 15, tvOS 18 or watchOS 11 as the deployment target. Before
// them, @Attribute(.unique) (iOS 17) declares a single attribute unique, and the SQL migration adds indexes.
// Building them took 243.8 ms on this store (51.6 MiB): what that migration costs here.

// Inside @Model final class Note { … }:
#Index<Note>([\.folderID, \.isArchived, \.updatedAt], [\.slug])
#Unique<Note>([\.remoteID], [\.folderID, \.slug])

// No #Index for Z_Note_SwiftDataIndexOnBinaryremoteID (ZREMOTEID): the #Unique rule on ZREMOTEID above gives the store a unique index that serves the same lookups. Declaring both would build two indexes for one job; with the #Unique rule declared, its CREATE INDEX is not needed.

// Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):
// S7, substring search no B-tree serves: ZNOTE is searched by substring (NSCoreDataStringSearch), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can.
//   S7 61.4 ms per execution as it is.
