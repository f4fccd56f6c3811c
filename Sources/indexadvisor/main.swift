import Foundation
import IndexAdvisor
import IndexAdvisorCLI

TemporaryDirectory.installSignalCleanup()
exit(IndexAdvisorCommand.run(Array(CommandLine.arguments.dropFirst())))
