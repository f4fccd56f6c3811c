import IndexAdvisor
import Locking

/// Sees every result the CLI analysed itself (`analyze`, `check`, `demo`) just before it is rendered: the
/// test suites install ``ReportChecker`` here, so that every report a CLI test produces is checked too.
/// `render` of a saved report is not observed (tests hand it false reports on purpose).
package enum RenderObserver {
    private static let observer = LockedValue<(@Sendable (AnalysisResult) -> Void)?>(nil)

    /// Installs `observer` for the rest of the process (one at a time).
    package static func install(_ observer: @escaping @Sendable (AnalysisResult) -> Void) {
        self.observer.withLock { $0 = observer }
    }

    static func notify(_ result: AnalysisResult) {
        let observer = self.observer.withLock { $0 }
        observer?(result)
    }
}
