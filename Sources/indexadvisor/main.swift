import Foundation
import IndexAdvisor
import IndexAdvisorCLI

Console.holdClosedStandardDescriptors()
TemporaryDirectory.installSignalCleanup()
exit(IndexAdvisorCommand.run(Array(CommandLine.arguments.dropFirst())))
