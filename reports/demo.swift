// indexadvisor 0.1.0: SwiftData declarations for notes.sqlite, 2026-11-30T21:59:46Z.
// Key paths from the app's model: Note.swift (--model).
//
// Adding #Index or #Unique changes the schema: put the model in a new VersionedSchema and add a
// migration stage to your SchemaMigrationPlan (a lightweight stage is enough for an index). SwiftData
// builds indexes only when it creates a store, so existing stores also need the CREATE INDEX IF NOT
// EXISTS statements (--format sql), run before the ModelContainer opens the store.
// Building them took 545.1 ms on this store (51.6 MiB): what that migration costs here.

// Inside @Model final class Note { … }:
#Index<Note>([\.folderID, \.isArchived, \.updatedAt])
#Unique<Note>([\.remoteID], [\.folderID, \.slug])

// No #Index for Z_Note_SwiftDataIndexOnBinaryremoteID (ZREMOTEID): the #Unique rule on ZREMOTEID above gives the store a unique index that serves the same lookups. Declaring both would build two indexes for one job; with the #Unique declared, its CREATE INDEX is not needed.

// Core Data model made in Xcode (.xcdatamodeld): add a new model version and, in it, these Fetch Indexes
// (each element ascending, binary):
//   entity Note: Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt = folderID, isArchived, updatedAt

// Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):
// S7, sort under a collation no index carries: ORDER BY ZTITLE COLLATE NSCollateFinderlike cannot use an index: the collation exists only on the app's connection. Sort with a binary comparator (SwiftData: `SortDescriptor(\.property, comparator: .lexical)`; Core Data: `compare:`) and an index on ZTITLE can return rows in order.
//   S7 525.8 ms → 497.6 ms per execution with the change (within the noise).
//   Caveat: rows then come in byte order (upper case before lower case, no locale rules); sort for display in the app if that matters
//     SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZUPDATEDAT FROM ZNOTE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZTITLE
// S7, substring search no B-tree serves: ZNOTE is searched by substring (NSCoreDataStringSearch), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can.
//   S7 525.8 ms per execution as it is.
