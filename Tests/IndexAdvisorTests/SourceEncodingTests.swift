import Testing
import Foundation
@testable import IndexAdvisor

/// `--source` files in encodings other than UTF-8: read with the detector `--workload` uses, or refused
/// with the reason; never read as garbage that loses the sites in silence.
@Suite("Swift source in UTF-16, UTF-32 and not text")
struct SourceEncodingTests {
    static let code = """
        import SwiftData

        @Model final class Trail {
            var name: String
            var lengthKm: Double
            init(name: String, lengthKm: Double) { self.name = name; self.lengthKm = lengthKm }
        }

        func longTrails(_ context: ModelContext) throws -> [Trail] {
            try context.fetch(FetchDescriptor<Trail>(predicate: #Predicate { $0.lengthKm > 12.5 }, sortBy: [SortDescriptor(\\.name)]))
        }

        """

    static let sql = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLENGTHKM, t0.ZNAME FROM ZTRAIL t0 WHERE  t0.ZLENGTHKM > ? ORDER BY t0.ZNAME COLLATE NSCollateLocaleSensitive"

    /// `text` in UTF-16 or UTF-32 of either byte order, after `mark` (a byte-order mark, or none).
    static func encoded(_ text: String, unitSize: Int, bigEndian: Bool, mark: [UInt8]) -> Data {
        var bytes = mark
        let units: [UInt32] = unitSize == 2 ? text.utf16.map(UInt32.init) : text.unicodeScalars.map(\.value)
        for unit in units {
            let little = (0..<unitSize).map { UInt8(truncatingIfNeeded: unit >> (8 * $0)) }
            bytes += bigEndian ? little.reversed() : little
        }
        return Data(bytes)
    }

    // Regression (issue 39, item 9): UTF-16LE without a byte-order mark was valid UTF-8 with a NUL beside
    // every character and UTF-32LE with one was decoded as UTF-16: both lost every site, exit 0.
    @Test("UTF-16 with or without a byte-order mark and UTF-32 with one, either byte order, are read like UTF-8")
    func wideEncodingsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A non-ASCII name past the detector's first 64 bytes, a surrogate pair in UTF-16.
        let text = Self.code + "// Wanderweg \u{F6}stlich \u{1F97E}\n"
        let variants: [(name: String, data: Data)] = [
            ("utf16le-nobom", Self.encoded(text, unitSize: 2, bigEndian: false, mark: [])),
            ("utf16be-nobom", Self.encoded(text, unitSize: 2, bigEndian: true, mark: [])),
            ("utf16le-bom", Self.encoded(text, unitSize: 2, bigEndian: false, mark: [0xFF, 0xFE])),
            ("utf32le-bom", Self.encoded(text, unitSize: 4, bigEndian: false, mark: [0xFF, 0xFE, 0, 0])),
            ("utf32be-bom", Self.encoded(text, unitSize: 4, bigEndian: true, mark: [0, 0, 0xFE, 0xFF])),
        ]
        for variant in variants {
            let url = directory.url.appendingPathComponent(variant.name + ".swift")
            try variant.data.write(to: url)
            let scan = try SourceScanner.scan(paths: [url.path])
            #expect(scan.sites.map(\.location) == [variant.name + ".swift:10"], "\(variant.name)")
            #expect(scan.sites.first?.sql == Self.sql, "\(variant.name)")
            #expect(scan.linesRead == SwiftLexer.lines(of: text).count, "\(variant.name)")
        }
    }

    @Test("NUL bytes (5 MB of zeros, UTF-32 without a byte-order mark, UTF-16 not starting in ASCII) and invalid UTF-32 are refused with the reason, or skipped in a folder")
    func notTextRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.code.utf8).write(to: folder.appendingPathComponent("Trail.swift"))
        let nul = "NUL bytes: not text, or UTF-16 or UTF-32 without a byte-order mark; save it as UTF-8"
        let refused: [(name: String, data: Data, reason: String)] = [
            ("Zeros.swift", Data(count: 5_000_000), nul),
            ("Wide32.swift", Self.encoded(Self.code, unitSize: 4, bigEndian: false, mark: []), nul),
            ("Accent16.swift", Self.encoded("// \u{E9}t\u{E9}\n" + Self.code, unitSize: 2, bigEndian: false, mark: []), nul),
            ("Beyond32.swift", Data([0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0, 0, 0, 0x11, 0]), "not valid UTF-32 little-endian text; save it as UTF-8"),
            ("Odd16.swift", Data([0xFE, 0xFF, 0, 0x41, 0]), "not valid UTF-16 big-endian text; save it as UTF-8"),
        ]
        for file in refused {
            let url = folder.appendingPathComponent(file.name)
            try file.data.write(to: url)
            #expect(throws: SourceScanError.unreadable(path: url.path, reason: file.reason)) { try SourceScanner.scan(paths: [url.path]) }
        }
        // In a folder each is a warning, and the UTF-8 file beside them is read.
        let scan = try SourceScanner.scan(paths: [folder.path])
        #expect(scan.sites.map(\.location) == ["Trail.swift:10"])
        #expect(scan.warnings == refused.map(\.name).sorted().map { name in
            folder.path + "/" + name + ": skipped (" + refused.first { $0.name == name }!.reason + ")"
        })
    }
}
