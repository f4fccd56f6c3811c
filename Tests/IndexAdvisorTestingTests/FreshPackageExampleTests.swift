import Foundation
import Testing

/// The README's example in a package of its own, as an app's developer meets it: `scripts/check-testing-example`
/// builds a new package that depends on a clone of this repository by path and runs `swift test` there. It
/// takes about 40 s on two cores (a fresh build of the product's targets and the test), so it runs only when
/// `INDEXADVISOR_CHECK_TESTING_EXAMPLE=1` is set; `ReadmeExampleTests` and the examples' own test target check
/// the same text on every run.
@Suite("The README's IndexAdvisorTesting example in a fresh package")
struct FreshPackageExampleTests {
    @Test("it builds and passes in a package that depends on a clone of this repository by path",
          .enabled(if: ProcessInfo.processInfo.environment["INDEXADVISOR_CHECK_TESTING_EXAMPLE"] == "1"),
          .timeLimit(.minutes(20)))
    func freshPackage() throws {
        let process = Process()
        process.executableURL = ReadmeExampleTests.root.appendingPathComponent("scripts/check-testing-example")
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("✔ Test recentNotesUseTheFolderIndex() passed"), "\(text)")
        // The product links the small targets only, never the advisor library.
        #expect(!text.contains("Compiling IndexAdvisor "), "\(text)")
        #expect(text.contains("Compiling IndexAdvisorTesting "), "\(text)")
    }
}
