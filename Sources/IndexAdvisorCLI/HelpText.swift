import IndexAdvisor

/// Help text, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout of Swift's command-line tools. Each
/// command's OPTIONS list is printed from ``CommandOption/table``: every option the parser accepts, with
/// its defaults, and nothing else.
enum HelpText {
    /// The help for `topic` (a command's name), or the general help for nil; nil for an unknown topic.
    static func text(for topic: String?) -> String? {
        guard let topic else { return general }
        guard let command = CommandName(rawValue: topic) else { return nil }
        let (before, after) = prose(command)
        return before + "\n\nOPTIONS:\n" + optionList(command) + (after.map { "\n\n" + $0 } ?? "")
    }

    /// Where the option names end and their help starts.
    static let helpColumn = 34
    /// The width option lists are wrapped to.
    static let width = 100

    /// Every option `command` accepts, one entry each, names and value first; `check` lists its own options
    /// before the analysis options it shares with `analyze`. Then help and version.
    static func optionList(_ command: CommandName) -> String {
        var options = CommandOption.options(of: command)
        if command == .check {
            let own = options.filter { !$0.accepts(.analyze) }
            options = own + options.filter { $0.accepts(.analyze) }
        }
        let entries = options.map { option in
            (([option.shortName, option.name].compactMap { $0 }.joined(separator: ", ")
                + (option.valueName.map { " " + $0 } ?? "")), option.help(for: command))
        } + [
            ((CommandLineParser.helpNames.joined(separator: ", ")), "Show this help."),
            (CommandLineParser.versionName, "Show the version."),
        ]
        return entries.map { entry(names: $0.0, help: $0.1) }.joined(separator: "\n")
    }

    /// `  -w, --workload FILE   help…`, the help wrapped at ``width`` and indented to ``helpColumn``; on a line
    /// of its own when the names leave it no room.
    static func entry(names: String, help: String) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        var lines: [String] = []
        var line = "  " + names
        if line.count + 2 > helpColumn {
            lines.append(line)
            line = indent
        } else {
            line += String(repeating: " ", count: helpColumn - line.count)
        }
        var lineHasWord = false
        for word in help.split(separator: " ") {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// A figure for help: `10`, `0.05`, `1.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func usage(for command: String?) -> String {
        switch command {
        case "analyze": return "Usage: indexadvisor analyze STORE [--workload FILE|FOLDER] [--source PATH] [--format md|json|sql|html|swift] [--model PATH] [--output FILE]"
        case "render": return "Usage: indexadvisor render REPORT.json [--format md|json|sql|html|swift] [--model PATH] [--output FILE] [--check]"
        case "demo": return "Usage: indexadvisor demo [--notes N] [--seed N] [--output-dir DIR] [--keep DIR] [--quiet]"
        case "check": return "Usage: indexadvisor check STORE [--workload FILE|FOLDER] [--source PATH] [--baseline REPORT.json] [--min-share 0.05] [--min-count N] [--slowdown 1.5] [--output FILE]"
        case "workload": return "Usage: indexadvisor workload [FILE|FOLDER…] [--source PATH] [--format text|json] [--top N] [--output FILE]"
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
          check STORE --workload FILE     For CI: exit 1 when a hot statement does a full table scan,
                                          a temp B-tree sort or an automatic index, got slower than
                                          --baseline, or cannot be checked.
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
          1  a check threshold was crossed, or render --check found a sentence the report's own data
             contradict
          2  bad usage or unusable input (the message names the file and the cause)
        """

    /// A command's help around its OPTIONS list: the overview, usage and arguments before it, and the
    /// sections after it.
    static func prose(_ command: CommandName) -> (before: String, after: String?) {
        switch command {
        case .analyze:
            return ("""
                OVERVIEW: Plans and times every statement of a workload on a private snapshot of STORE, tries candidate
                indexes (hypothetically first, then built for real on the snapshot), and recommends the set that saves
                the most frequency-weighted time net of write cost.

                USAGE: indexadvisor analyze STORE [--workload FILE|FOLDER] [--source PATH] [options]

                ARGUMENTS:
                  STORE                           The SQLite store file. Never written to.
                """, """
                THRESHOLDS:
                  A difference counts only when the runs' interquartile ranges are apart and the medians differ by
                  at least 5 %; otherwise the report says "within the noise" ("too spread to tell" when the medians
                  are 2× or more apart). The selection is one search from the store as it is (add, add a set that
                  only pays together, replace, remove), each move priced on the statements whose plan it changes;
                  its rules, with the defaults (INDEXADVISOR_TRACE=1 prints every round's priced moves):
                """ + "\n" + SelectionPolicy(options: AnalysisOptions()).documented.map { rule in
                    entry(names: rule.name, help: rule.value + ": " + rule.reason)
                }.joined(separator: "\n"))
        case .check:
            return ("""
                OVERVIEW: For a build's CI: plans and times the workload's statements on a private snapshot of STORE
                (no candidate indexes are built, so it is quick) and exits 1 when a hot statement — one taking at least
                --min-share of the workload's time, or run at least --min-count times — does a full table scan,
                sorts in a temp B-tree or builds an automatic index, or got slower than in --baseline by more than
                --slowdown with the runs' interquartile ranges apart, or cannot be timed (past --statement-timeout,
                no longer prepares, or SQL this SQLite cannot parse), or cannot be compared with the baseline (a
                table measured on another sample: keep --sample-rows, --cost and the SQLite version the same). With
                the JSON report of the analyze run whose advice has since been applied as --baseline, a write slowed
                by no more than that report measured with the advice in place is a warning, not a failure.
                Query-side advice is printed as warnings. Problems print one per line,
                as GitHub Actions annotations when GITHUB_ACTIONS is set.

                USAGE: indexadvisor check STORE [--workload FILE|FOLDER] [--source PATH] [options]
                """, """
                EXIT CODES: 0 passed, 1 a threshold was crossed, 2 bad usage or unusable input.
                """)
        case .render:
            return ("""
                OVERVIEW: Reads a JSON report that analyze wrote (--format json) and writes it in another format,
                without analysing again: every format shows the same measurements.

                USAGE: indexadvisor render REPORT.json [options]

                ARGUMENTS:
                  REPORT.json                     A report written by indexadvisor analyze --format json.
                """, """
                EXIT CODES: 0 rendered (with --check: no finding), 1 --check found a sentence the report's own data
                contradict, 2 bad usage or unusable input.
                """)
        case .workload:
            return ("""
                OVERVIEW: Reads workload files the way analyze does and prints what they hold, without a store:
                every statement by fingerprint (literals and bound values as ?, IN lists collapsed) with its
                count, the time the source observed (total, share, median), its kind and tables (a lexical
                scan), whether analyze would measure it, the writes per table and updated column, the
                transactions, and how many lines were read, how many statements, and what was skipped and why.

                USAGE: indexadvisor workload [FILE|FOLDER…] [--source PATH] [options]

                ARGUMENTS:
                  FILE…                           A .sql file, Core Data / SwiftData SQL debug output, or the
                                                  JSON Lines file IndexAdvisorRecorder writes. Several merge.
                """, nil)
        case .demo:
            return ("""
                OVERVIEW: Generates the notes store of the SwiftData articles in Core Data's layout (ZNOTE with Z_PK,
                Z_ENT, Z_OPT…, skewed folder sizes) and a Core Data SQL debug log of an app session, analyses them, and
                writes the report in every format from that one analysis: DIR/demo.md, demo.json, demo.sql, demo.html and
                demo.swift. The key paths come from the demo's model source (Note.swift), read as --model reads an app's.

                USAGE: indexadvisor demo [options]
                """, nil)
        }
    }
}
