import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Fetch sites in Swift source")
struct SourceFetchTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/SourceApp")

    @Test("dump")
    func dump() throws {
        let scan = try SourceScanner.scan(paths: [Self.fixture.path])
        for site in scan.sites {
            print("SITE \(site.location) \(site.form.rawValue) \(site.entity ?? "-") ×\(site.frequency) \(site.sql ?? "UNTRANSLATED: " + (site.untranslatedReason ?? "")) \(site.bindings.map { "\($0)" } ?? "") \(site.notes)")
        }
    }
}
