// The system SQLite for the examples on Linux, as an app's own package declares it (README, "A raw
// connection on Linux"); Apple platforms use the SDK's `SQLite3` module instead.
#include <sqlite3.h>
