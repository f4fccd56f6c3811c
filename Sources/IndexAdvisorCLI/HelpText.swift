import IndexAdvisor

/// Help text, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout of Swift's command-line tools.
enum HelpText {
    static func text(for topic: String?) -> String? {
        switch topic {
        case nil: return general
        case "analyze": return analyze
        case "workload": return workload
        case "demo": return demo
        case "check": return check
        case "render": return render
        default: return nil
        }
    }

    static func usage(for command: String?) -> String {
        switch command {
        case "analyze": return "Usage: indexadvisor analyze STORE [--workload FILE|FOLDER] [--format md|json|sql|html|swift] [--model PATH] [--output FILE]"
        case "render": return "Usage: indexadvisor render REPORT.json [--format md|json|sql|html|swift] [--model PATH] [--output FILE] [--check]"
        case "demo": return "Usage: indexadvisor demo [--notes N] [--seed N] [--output-dir DIR] [--keep DIR] [--quiet]"
        case "check": return "Usage: indexadvisor check STORE [--workload FILE|FOLDER] [--baseline REPORT.json] [--min-share 0.05] [--min-count N] [--slowdown 1.5] [--output FILE]"
        case "workload": return "Usage: indexadvisor workload FILE|FOLDER… [--format text|json] [--top N] [--output FILE]"
        default: return "Usage: indexadvisor <analyze|check|render|workload|demo> [options]; see indexadvisor --help"
        }
    }

    static let general = """
        OVERVIEW: indexadvisor \(IndexAdvisor.version) — measures the statements an app runs against its SQLite
        store (Core Data, SwiftData, GRDB, any SQLite file) and advises which indexes to add or drop.

        The store is only read: all work happens on a private snapshot that is deleted afterwards.

        USAGE: indexadvisor <command> [options]

        COMMANDS:
          analyze STORE --workload FILE   Plan, time and advise for a workload on a store.
          analyze STORE                   Without --workload: analyse STORE.workload.jsonl (what
                                          IndexAdvisorRecorder writes) if it is beside the store;
                                          else review the schema and the data, and say how to
                                          capture a workload.
          check STORE --workload FILE     For CI: exit 1 when a hot statement does a full table scan
                                          or a temp B-tree sort, or got slower than --baseline.
          render REPORT.json              Write a saved JSON report in another format (no analysis).
          workload FILE…                  Show what a workload holds: statements by fingerprint, counts,
                                          share of the observed time, lines skipped and why.
          demo                            Build a 100,000-note SwiftData-style store and workload,
                                          analyse it, and write reports/demo.{md,json,sql,html,swift}.

        OPTIONS:
          -h, --help                      Show help (also: indexadvisor help <command>).
          --version                       Show the version.

        EXIT CODES:
          0  done
          1  a check threshold was crossed
          2  bad usage or unusable input (the message names the file and the cause)
        """

    static let analyze = """
        OVERVIEW: Plans and times every statement of a workload on a private snapshot of STORE, tries candidate
        indexes (hypothetically first, then built for real on the snapshot), and recommends the set that saves
        the most frequency-weighted time net of write cost.

        USAGE: indexadvisor analyze STORE [--workload FILE|FOLDER] [options]

        ARGUMENTS:
          STORE                           The SQLite store file. Never written to.

        OPTIONS:
          -w, --workload FILE|FOLDER      A .sql file (statements separated by ';', an optional
                                          '-- freq: N' comment before each), Core Data / SwiftData
                                          SQL debug output (-com.apple.CoreData.SQLDebug 1…4), or the
                                          JSON Lines file IndexAdvisorRecorder writes
                                          (STORE.workload.jsonl). Repeat to merge several files. A
                                          folder stands for its .log, .txt, .sql, .jsonl, .ndjson
                                          and .trace files. Default: STORE.workload.jsonl if present.
          --workload-format sql|coredata-log|jsonl
                                          Force the workload format (default: detected from content).
          -f, --format md|json|sql|html|swift
                                          Report format (default: md): md for a pull request,
                                          json (versioned, docs/report-json.md), sql (a migration:
                                          CREATE/DROP INDEX, one per line), html (one self-contained
                                          page with charts), swift (#Index/#Unique per model).
          -m, --model PATH                The app's @Model classes (a Swift file or a folder; repeat
                                          for several): key paths and index names from the model
                                          instead of guessed from column names.
          --source PATH                   The app's Swift source (a file or a folder; repeat for
                                          several): each fetch site (#Predicate, FetchDescriptor,
                                          @Query, SortDescriptor, NSFetchRequest with NSPredicate
                                          format strings) becomes the SQL Core Data prints for it,
                                          ×1 per site, ×10 per @Query, ×N after a comment
                                          "// indexadvisor: freq N" on the line before. With a log,
                                          its statements keep their counts and gain the site's
                                          location (File.swift:42); sites the log lacks are analysed
                                          and marked; sites that cannot be translated are listed with
                                          the reason. Also the model, as --model reads it.
          -o, --output FILE               Write the report to FILE (atomically) instead of stdout.
          -q, --quiet                     No progress on stderr (redrawn on a terminal; elsewhere a
                                          plain line every 5 s once a run passes 10 s).
          --verbose                       At the end, where the time went: seconds per stage, and
                                          candidate builds, read and write timings (also in the
                                          JSON report's method.stageSeconds).
          --repeats N                     Timed runs per statement; the median is reported (default: 7).
          --cost time|counters            What a statement costs: wall-clock time (default), or
                                          SQLite's work counters (VM steps, page lookups) priced
                                          in seconds: the same figures on every run, for CI gates
                                          on shared machines.
          --samples N                     Sets of bound values drawn from the data per statement
                                          when the workload has none (default: 12).
          --statement-timeout SECONDS     Interrupt one execution after this long (default: 10).
          --busy-timeout SECONDS          Retry a store another process is changing (default: 5).
          --max-indexes N                 Recommend at most N new indexes (default: 12).
          --max-indexes-per-table N       At most N new indexes per table (default: 4).
          --max-index-bytes N             New indexes take at most N bytes together (default: no limit).
          --max-candidates N              Build and measure at most N candidates (default: 24).
          --time-budget SECONDS           After this long, build and pick no more candidates (default:
                                          600): the statements that could save most are measured
                                          first, and the report lists what was left out.
          --seed N                        Seed for drawing bound values (default: 1).
          --sample-rows N                 Measure tables of more than 2×N rows on a deterministic
                                          1-in-k sample of about N rows (default: 250,000; 0: never).
                                          Index sizes and build times are scaled to the store; times
                                          are the sample's, and the report says so.
          --temp-dir DIR                  Where to put the private snapshot (default: system temp).
          --unique 'TABLE(col, …)'        A uniqueness rule to check against the data (e.g. one your
                                          model declares with #Unique). Repeat for several.

        THRESHOLDS:
          A difference counts only when the runs' interquartile ranges are apart and the medians differ by
          at least 5 %; otherwise the report says "within the noise" ("too spread to tell" when the medians
          are 2× or more apart). An index is recommended only when its frequency-weighted saving, net of
          the write time it adds, is at least 0.5 % of the workload's measured time and at least 1 ms: a
          smaller saving is not "worth a schema change".
        """

    static let check = """
        OVERVIEW: For a build's CI: plans and times the workload's statements on a private snapshot of STORE
        (no candidate indexes are built, so it is quick) and exits 1 when a hot statement — one taking at least
        --min-share of the workload's time, or run at least --min-count times — does a full table scan or
        sorts in a temp B-tree, or got slower than in --baseline by more than --slowdown with the runs'
        interquartile ranges apart, or cannot be timed (past --statement-timeout, or no longer prepares).
        Query-side advice is printed as warnings. Problems print one per line,
        as GitHub Actions annotations when GITHUB_ACTIONS is set.

        USAGE: indexadvisor check STORE [--workload FILE|FOLDER] [options]

        OPTIONS:
          -w, --workload FILE|FOLDER      As for analyze (repeat to merge; default: STORE.workload.jsonl).
          --source PATH                   As for analyze: the app's fetch sites join (or are) the workload.
          --baseline FILE                 A JSON report from an earlier analyze or check --output; it
                                          fails the check when it shares no statement with the workload.
          --min-share SHARE               Hot statements: at least this share of workload time
                                          (default: 0.05).
          --min-count N                   …or run at least N times (default: share only).
          --slowdown FACTOR               A regression is a median this many times the baseline's
                                          (default: 1.5).
          -o, --output FILE               Also write this run's JSON report (the next baseline).
          Every analyze option (--repeats, --statement-timeout, --temp-dir…) applies too.

        EXIT CODES: 0 passed, 1 a threshold was crossed, 2 bad usage or unusable input.
        """

    static let render = """
        OVERVIEW: Reads a JSON report that analyze wrote (--format json) and writes it in another format,
        without analysing again: every format shows the same measurements.

        USAGE: indexadvisor render REPORT.json [options]

        ARGUMENTS:
          REPORT.json                     A report written by indexadvisor analyze --format json.

        OPTIONS:
          -f, --format md|json|sql|html|swift
                                          Output format (default: md).
          -m, --model PATH                The app's @Model classes (a Swift file or a folder; repeat
                                          for several), for exact key paths.
          -o, --output FILE               Write to FILE (atomically) instead of stdout.
          --check                         Instead of rendering, check that every sentence the report
                                          prints agrees with its own data (plans, times, claims,
                                          declarations, thresholds): one line per finding, exit 1
                                          when there is one, 0 when there is none.
        """

    static let workload = """
        OVERVIEW: Reads workload files the way analyze does and prints what they hold, without a store:
        every statement by fingerprint (literals and bound values as ?, IN lists collapsed) with its
        count, the time the source observed (total, share, median), its kind and tables (a lexical
        scan), whether analyze would measure it, the writes per table and updated column, the
        transactions, and how many lines were read, how many statements, and what was skipped and why.

        USAGE: indexadvisor workload FILE|FOLDER… [options]

        ARGUMENTS:
          FILE…                           A .sql file, Core Data / SwiftData SQL debug output, or the
                                          JSON Lines file IndexAdvisorRecorder writes. Several merge.

        OPTIONS:
          -w, --workload FILE             Another file (same as a FILE argument).
          --source PATH                   The app's Swift source (file or folder, repeatable): its fetch
                                          sites as statements (see analyze --help), each site listed
                                          with its location and the statement it became, or why not.
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
        writes the report in every format from that one analysis: DIR/demo.md, demo.json, demo.sql, demo.html and
        demo.swift. The key paths come from the demo's model source (Note.swift), read as --model reads an app's.

        USAGE: indexadvisor demo [options]

        OPTIONS:
          --notes N                       Notes in the store (default: 100,000; at least 1,000).
          --output-dir DIR                Where to write the demo's reports (default: reports).
          --keep DIR                      Keep the store (notes.sqlite), the log (notes-workload.log)
                                          and the model (Note.swift) in DIR, to run
                                          `indexadvisor analyze` on them yourself.
          --seed N                        Seed for the generated data (default: 42).
          -q, --quiet                     No progress on stderr.
        """
}
