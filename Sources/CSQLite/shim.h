#ifndef INDEXADVISOR_CSQLITE_SHIM_H
#define INDEXADVISOR_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT as a value Swift can pass: SQLite copies the bytes before the call returns.
static inline sqlite3_destructor_type ia_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// A virtual table object with room for the Swift side's context (https://sqlite.org/vtab.html:
/// implementations subclass sqlite3_vtab by putting it first in a larger struct).
typedef struct IAVirtualTable {
    sqlite3_vtab base;
    void *context;
    int tableIndex;
} IAVirtualTable;

/// A cursor over an IAVirtualTable; `row` counts the rows already returned.
typedef struct IAVirtualCursor {
    sqlite3_vtab_cursor base;
    int row;
} IAVirtualCursor;

#endif
