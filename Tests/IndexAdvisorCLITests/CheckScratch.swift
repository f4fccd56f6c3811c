import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// What the `check` verdict suites share: stores and files in a private directory of their own, and the command
/// run with deterministic options and 3 repeats, its output captured.
protocol CheckScratch {
    var directory: TemporaryDirectory { get }
}

extension CheckScratch {
    /// A store built by `sql` in the directory.
    func store(_ name: String, _ sql: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute(sql)
        return url
    }

    /// A file holding `text` (UTF-8) in the directory.
    func file(_ name: String, _ text: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The exit status and the captured output of `indexadvisor` with `arguments`.
    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        return (IndexAdvisorCommand.run(deterministic(arguments + ["--repeats", "3"]), console: captured.console), captured)
    }
}
