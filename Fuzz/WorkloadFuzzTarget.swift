import Foundation

/// libFuzzer entry point: feeds arbitrary bytes to every workload reader and to the fingerprinter.
/// Built by scripts/fuzz with `swiftc -sanitize=fuzzer,address` together with the library's sources.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkloadReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = WorkloadLoader.parse(text, file: "fuzz", format: .coreDataLog)
    _ = WorkloadLoader.parse(text, file: "fuzz", format: .sql)
    _ = Fingerprinter.normalize(text)
    let tokens = SQLTokenList(text)
    _ = tokens.tableAliases()
    _ = tokens.topLevelOrderByTerms()
    _ = tokens.removingOrderByCollations()
    _ = tokens.parameterColumns()
    return 0
}
