import IndexAdvisor

/// Help text, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout of Swift's command-line tools.
enum HelpText {
    static func text(for topic: String?) -> String? {
        switch topic {
        case nil: return general
        case "analyze": return analyze
        case "workload": return workload
        case "demo": return demo
        default: return nil
        }
    }

    static func usage(for command: String?) -> String {
        switch command {
        case "analyze": return "Usage: indexadvisor analyze STORE --workload FILE [--format md|json|sql] [--output FILE]"
        case "workload": return "Usage: indexadvisor workload FILE… [--format text|json] [--top N] [--output FILE]"
        case "demo": return "Usage: indexadvisor demo [--notes N] [--output-dir DIR] [--keep DIR]"
        default: return "Usage: indexadvisor <analyze|workload|demo> [options]; see indexadvisor --help"
        }
    }

    static let general = """
        OVERVIEW: indexadvisor \(IndexAdvisor.version) — measures the statements an app runs against its SQLite
        store (Core Data, SwiftData, GRDB, any SQLite file) and advises which indexes to add or drop.

        The store is only read: all work happens on a private snapshot that is deleted afterwards.

        USAGE: indexadvisor <command> [options]

        COMMANDS:
          analyze STORE --workload FILE   Plan, time and advise for a workload on a store.
          workload FILE…                  Show what a workload holds: statements by fingerprint, counts,
                                          share of the observed time, lines skipped and why.
          demo                            Build a 100,000-note SwiftData-style store and workload,
                                          analyse it, and write reports/demo.md and reports/demo.json.

        OPTIONS:
          -h, --help                      Show help (also: indexadvisor help <command>).
          --version                       Show the version.

        EXIT CODES:
          0  done
          1  a check threshold was crossed (reserved for `check`)
          2  bad usage or unusable input (the message names the file and the cause)
        """

    static let analyze = """
        OVERVIEW: Plans and times every statement of a workload on a private snapshot of STORE, tries candidate
        indexes (hypothetically first, then built for real on the snapshot), and recommends the set that saves
        the most frequency-weighted time net of write cost.

        USAGE: indexadvisor analyze STORE --workload FILE [options]

        ARGUMENTS:
          STORE                           The SQLite store file. Never written to.

        OPTIONS:
          -w, --workload FILE             A .sql file (statements separated by ';', an optional
                                          '-- freq: N' comment before each), Core Data / SwiftData
                                          SQL debug output (-com.apple.CoreData.SQLDebug 1…4), or the
                                          JSON Lines file IndexAdvisorRecorder writes
                                          (STORE.workload.jsonl). Repeat to merge several files.
          --workload-format sql|coredata-log|jsonl
                                          Force the workload format (default: detected from content).
          -f, --format md|json|sql        Report format (default: md). sql prints only the
                                          CREATE INDEX statements, one per line.
          -o, --output FILE               Write the report to FILE (atomically) instead of stdout.
          -q, --quiet                     No progress on stderr.
          --repeats N                     Timed runs per statement; the median is reported (default: 7).
          --samples N                     Sets of bound values drawn from the data per statement
                                          when the workload has none (default: 12).
          --statement-timeout SECONDS     Interrupt one execution after this long (default: 10).
          --busy-timeout SECONDS          Retry a store another process is changing (default: 5).
          --max-indexes N                 Recommend at most N new indexes (default: 12).
          --max-indexes-per-table N       At most N new indexes per table (default: 4).
          --max-index-bytes N             New indexes take at most N bytes together (default: no limit).
          --max-candidates N              Build and measure at most N candidates (default: 24).
          --seed N                        Seed for drawing bound values (default: 1).
          --sample-rows N                 Measure tables of more than 2×N rows on a deterministic
                                          1-in-k sample of about N rows (default: 250,000; 0: never).
          --temp-dir DIR                  Where to put the private snapshot (default: system temp).
          --unique 'TABLE(col, …)'        A uniqueness rule to check against the data (e.g. one your
                                          model declares with #Unique). Repeat for several.
        """

    static let workload = """
        OVERVIEW: Reads workload files the way analyze does and prints what they hold, without a store:
        every statement by fingerprint (literals and bound values as ?, IN lists collapsed) with its
        count, the time the source observed (total, share, median), its kind and tables (a lexical
        scan), whether analyze would measure it, the writes per table and updated column, the
        transactions, and how many lines were read, how many statements, and what was skipped and why.

        USAGE: indexadvisor workload FILE… [options]

        ARGUMENTS:
          FILE…                           A .sql file, Core Data / SwiftData SQL debug output, or the
                                          JSON Lines file IndexAdvisorRecorder writes. Several merge.

        OPTIONS:
          -w, --workload FILE             Another file (same as a FILE argument).
          --workload-format sql|coredata-log|jsonl
                                          Force the format (default: detected from each file's content).
          -f, --format text|json          Output format (default: text). json lists every statement,
                                          with the device's plans (SQLDebug 4) and where each was seen.
          --top N                         Statements in the text table, most observed time first
                                          (default: 50; 0: all).
          -o, --output FILE               Write to FILE (atomically) instead of stdout.
        """

    static let demo = """
        OVERVIEW: Generates the notes store of the SwiftData articles in Core Data's layout (ZNOTE with Z_PK,
        Z_ENT, Z_OPT…, skewed folder sizes) and a Core Data SQL debug log of an app session, analyses them, and
        writes DIR/demo.md and DIR/demo.json.

        USAGE: indexadvisor demo [options]

        OPTIONS:
          --notes N                       Notes in the store (default: 100,000).
          --output-dir DIR                Where to write demo.md and demo.json (default: reports).
          --keep DIR                      Keep the store (notes.sqlite) and the log (notes-workload.log)
                                          in DIR, to run `indexadvisor analyze` on them yourself.
          --seed N                        Seed for the generated data (default: 42).
          -q, --quiet                     No progress on stderr.
        """
}
