import Foundation
import PackagePlugin

/// `swift package index-advisor …`: runs this package's `indexadvisor` executable with the arguments given,
/// so that a package that depends on indexadvisor can analyse and check its store without installing the
/// binary. SwiftPM builds the executable for the host first (`swift package -c release index-advisor …` for
/// a release build, which analyses several times faster than a debug one).
///
/// The tool runs in the package's root directory, so relative paths are the package's; its standard
/// output, standard error and exit status are the tool's (`check` exits 1 when a threshold is crossed, 2 on
/// bad input: README, "Exit codes"). On macOS, SwiftPM runs plugins in a sandbox that lets them write only to
/// temporary folders: `--output` into the package needs `swift package --allow-writing-to-package-directory
/// index-advisor …` (or `--allow-writing-to-directory DIR`); a report on standard output needs nothing.
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
        // The tool's own status (1 for a failed check, 2 for bad input), not a plugin error of SwiftPM's.
        if process.terminationReason == .uncaughtSignal {
            exit(128 + process.terminationStatus)
        }
        if process.terminationStatus != 0 {
            exit(process.terminationStatus)
        }
    }
}
