import Foundation
import IndexAdvisor
import IndexAdvisorCLI

Console.holdClosedStandardDescriptors()
do {
    try TemporaryDirectory.installSignalCleanup()
} catch {
    // Before any file exists: one line, and nothing to remove.
    Console.standard.error("indexadvisor: error: \(error)\n")
    exit(ExitCode.failure)
}
let code = IndexAdvisorCommand.run(Array(CommandLine.arguments.dropFirst()))
// A handled signal interrupts SQLite first, so the command may return (with an error) while the handler
// is still removing the private files: that handler exits, with 128 + the signal, not this code.
while TemporaryDirectory.isTerminating { sleep(1) }
exit(code)
