import Foundation
import PackagePlugin

/// `swift package index-advisor …`: runs this package's `indexadvisor` executable with the arguments given,
/// so that a package that depends on indexadvisor can analyse and check its store without installing the
/// binary. SwiftPM builds the executable for the host first, in the configuration of the `swift package` run
/// (`swift package -c release index-advisor …` for a release build, which analyses several times faster).
///
/// The tool runs in the package's root directory, so relative paths are the package's. SwiftPM prints what a
/// plugin writes on standard error on its own standard output, so the tool's progress and warnings are mixed
/// into a redirected output: write reports with `--output FILE`. When the tool fails, `swift package` says
/// `error: Plugin ended with exit code N` (N is the tool's status: 1 for a crossed `check` threshold, 2 for bad
/// input) and exits 1. On macOS, SwiftPM runs plugins in a sandbox that lets them write only to temporary
/// folders: `--output` into the package needs `swift package --allow-writing-to-package-directory
/// index-advisor …` (or `--allow-writing-to-directory DIR`).
@main
struct IndexAdvisorPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "indexadvisor")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // The tool's own status (1 for a failed check, 2 for bad input), which SwiftPM names in its error line.
        if process.terminationReason == .uncaughtSignal {
            exit(128 + process.terminationStatus)
        }
        if process.terminationStatus != 0 {
            exit(process.terminationStatus)
        }
    }
}
