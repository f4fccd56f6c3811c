/// How to capture a workload, printed after a review made without one.
public enum CaptureHint {
    /// The steps, as Markdown lines, ending with the exact command to run next for `storePath`.
    public static func lines(storePath: String, isCoreData: Bool) -> [String] {
        var lines = ["No workload was given, so nothing here is a claim about how fast the app's statements are. To advise on indexes for what the app really runs, capture a workload:"]
        if isCoreData {
            lines.append("- In Xcode: Product › Scheme › Edit Scheme… › Run › Arguments, add `-com.apple.CoreData.SQLDebug 1` (`2` also logs bound values), use the screens that feel slow, and save the console output to a file.")
            lines.append("- On a device or in the simulator (the scheme still carries the argument): `log stream --level debug --predicate 'subsystem == \"com.apple.coredata\"' > app-sql.log` while you use the app.")
        }
        lines.append("- From a GRDB or SQLite.swift connection: link `IndexAdvisorRecorder` and attach it to the connection's `sqlite3*` handle (see the README); it writes `\(storePath).workload.jsonl`, which `indexadvisor analyze` finds by itself.")
        lines.append("- Or write the statements into a `.sql` file (say `workload.sql`), each preceded by `-- freq: N` (how often the app runs it).")
        // The file named is the one the steps above write: a log on a Core Data store, else the .sql file (a new
        // user was told to write a .sql file and then to pass app-sql.log).
        lines.append("Then: `indexadvisor analyze \(storePath) --workload \(isCoreData ? "app-sql.log" : "workload.sql")`\(isCoreData ? " (or your .sql file)" : " (or, with the recorder, no --workload)")")
        return lines
    }
}
