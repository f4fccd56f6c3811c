import Foundation

/// libFuzzer entry point: feeds arbitrary bytes to every workload reader and to the fingerprinter.
/// Built by scripts/fuzz with `swiftc -sanitize=fuzzer,address` together with the library's sources.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkloadReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    // Encodings, byte-order marks and line ends (Fuzz/corpus/ seeds them), on the raw bytes.
    _ = TextEncoding.unsupported(bytes)
    _ = TextEncoding.lineEnds(bytes)
    _ = WorkloadFormat.detect(bytes)
    var splitter = LineSplitter(maxLineBytes: 512)
    splitter.feed(bytes) { _, _ in }
    splitter.finish { _, _ in }
    _ = WorkloadLoader.parse(text, file: "fuzz")
    _ = WorkloadLoader.parse(text, file: "fuzz", format: .coreDataLog)
    _ = WorkloadLoader.parse(text, file: "fuzz", format: .sql)
    _ = WorkloadLoader.parse(text, file: "fuzz", format: .jsonl)
    _ = Fingerprinter.normalize(text)
    let tokens = SQLTokenList(text)
    _ = tokens.tableAliases()
    _ = tokens.topLevelOrderByTerms()
    _ = tokens.removingOrderByCollations()
    _ = tokens.parameterColumns()
    return 0
}
