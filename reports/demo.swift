// indexadvisor 0.1.0: SwiftData declarations for notes.sqlite, 2026-11-29T20:08:02Z.
// Key paths from the app's model: Note.swift (--model).
//
// Adding #Index or #Unique changes the schema: put the model in a new VersionedSchema and add a
// migration stage to your SchemaMigrationPlan (a lightweight stage is enough for an index). SwiftData
// builds indexes only when it creates a store, so existing stores also need the CREATE INDEX IF NOT
// EXISTS statements (--format sql), run before the ModelContainer opens the store.
// Building them took 172.8 ms on this store (45.1 MiB): what that migration costs here.

// Inside @Model final class Note { … }:
#Index<Note>([\.folderID, \.isArchived, \.updatedAt], [\.remoteID])
#Unique<Note>([\.remoteID], [\.folderID, \.slug])

// Core Data model made in Xcode (.xcdatamodeld): add a new model version and, in it, these Fetch Indexes
// (each element ascending, binary):
//   entity Note: Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt = folderID, isArchived, updatedAt
//   entity Note: Z_Note_SwiftDataIndexOnBinaryremoteID = remoteID
