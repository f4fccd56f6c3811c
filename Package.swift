// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "indexadvisor",
    products: [
        .library(name: "IndexAdvisor", targets: ["IndexAdvisor"]),
        // The in-process workload recorder, for apps: it does not link the IndexAdvisor library.
        .library(name: "IndexAdvisorRecorder", targets: ["IndexAdvisorRecorder"]),
        // Query-plan assertions for an app's test target (Swift Testing and XCTest): it does not link the
        // IndexAdvisor library either.
        .library(name: "IndexAdvisorTesting", targets: ["IndexAdvisorTesting"]),
        .executable(name: "indexadvisor", targets: ["indexadvisor"]),
        // `swift package index-advisor analyze …` in a package that depends on this one.
        .plugin(name: "IndexAdvisorPlugin", targets: ["IndexAdvisorPlugin"]),
    ],
    targets: [
        // The system libsqlite3 (Debian: `apt-get install libsqlite3-dev`).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The SQL tokenizer and the statement fingerprint, shared by the library and the recorder.
        .target(name: "SQLFingerprint"),
        // `LockedValue`: state shared between threads together with the lock that guards it.
        .target(name: "Locking"),
        // Reading `EXPLAIN QUERY PLAN` rows, shared by the library and the testing product.
        .target(name: "QueryPlanText"),
        .target(name: "IndexAdvisor", dependencies: ["CSQLite", "SQLFingerprint", "Locking", "QueryPlanText"]),
        .target(name: "IndexAdvisorRecorder", dependencies: ["CSQLite", "SQLFingerprint", "Locking"]),
        .target(name: "IndexAdvisorTesting", dependencies: ["CSQLite", "SQLFingerprint", "Locking", "QueryPlanText"]),
        // Argument parsing and command dispatch; the executable only calls into it.
        .target(name: "IndexAdvisorCLI", dependencies: ["IndexAdvisor", "Locking"]),
        .executableTarget(name: "indexadvisor", dependencies: ["IndexAdvisorCLI"]),
        .plugin(name: "IndexAdvisorPlugin",
                capability: .command(intent: .custom(verb: "index-advisor",
                                                     description: "Runs indexadvisor (analyze, check, render, workload, demo) on this package's store")),
                dependencies: ["indexadvisor"]),
        // The benchmark's own pairs, candidate space, optimum search and scorer (no code of the advisor's
        // selection), a library so that its tests can hold it to known answers.
        .target(name: "IndexAdvisorBenchKit", dependencies: ["IndexAdvisor", "CSQLite"], path: "Benchmarks/IndexAdvisorBenchKit"),
        // Benchmarks (swift run -c release indexadvisor-bench); CSQLite for the recorder benchmark's raw handle.
        .executableTarget(name: "indexadvisor-bench", dependencies: ["IndexAdvisor", "IndexAdvisorBenchKit", "IndexAdvisorRecorder", "CSQLite"],
                          path: "Benchmarks/IndexAdvisorBench"),
        .testTarget(name: "IndexAdvisorBenchKitTests", dependencies: ["IndexAdvisorBenchKit", "IndexAdvisor"]),
        .testTarget(name: "IndexAdvisorTests", dependencies: ["IndexAdvisor", "CSQLite", "Locking"],
                    exclude: ["FuzzRegressions", "Fixtures"]),
        .testTarget(name: "IndexAdvisorCLITests", dependencies: ["IndexAdvisorCLI", "indexadvisor"]),
        // The README's recorder example on a raw `sqlite3 *`; the recorder tests build and run it.
        .executableTarget(name: "indexadvisor-recorder-example", dependencies: ["IndexAdvisorRecorder", "CSQLite"],
                          path: "Examples/RecorderExample"),
        .testTarget(name: "IndexAdvisorTestingTests", dependencies: ["IndexAdvisorTesting", "CSQLite"]),
        // The README's IndexAdvisorTesting example (NoteQueryPlanTests.swift, kept equal to the README by a test)
        // and its XCTest twin, built and run by the suite against the system SQLite as an app's package links it.
        .systemLibrary(name: "AppSQLite", path: "Examples/AppSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .testTarget(name: "IndexAdvisorTestingExamples", dependencies: ["IndexAdvisorTesting", "AppSQLite"],
                    path: "Examples/IndexAdvisorTestingExamples"),
        .testTarget(name: "IndexAdvisorRecorderTests",
                    dependencies: ["IndexAdvisorRecorder", "IndexAdvisor", "CSQLite", "indexadvisor-recorder-example"]),
    ],
    swiftLanguageModes: [.v6]
)
