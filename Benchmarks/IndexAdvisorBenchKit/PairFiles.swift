import Foundation
import IndexAdvisor

/// Pairs kept as files (`Benchmarks/Pairs/<held-out|regression>/<name>/`): `pair.json`, `schema.sql` (the
/// tables and a data generator, ``PairBuilder``) and `workload.sql` (each statement after its `-- freq: N`,
/// `-- draw…:` and `-- hot` lines). `pair.json` carries the SHA-256 of the other two files as they were
/// committed; a held-out pair whose files no longer match is refused, so that it cannot be edited after the
/// advisor was run on it. See Benchmarks/Pairs/README.md.
package enum PairFiles {
    /// `pair.json`.
    package struct Manifest: Codable, Sendable {
        package var name: String
        package var summary: String
        package var seed: UInt64
        package var advisorValues: BenchPair.AdvisorValues
        package var literalSets: Int?
        /// SHA-256 (lower-case hex) of `schema.sql` and `workload.sql`.
        package var sha256: [String: String]
        /// Where the pair came from: "written before the advisor ran on it (commit …)", or why it moved.
        package var provenance: String?
    }

    /// The hex SHA-256 of `data`.
    package static func sha256(_ data: Data) -> String {
        SHA256.digest(Array(data)).map { String(format: "%02x", $0) }.joined()
    }

    /// The pair folders under `root/held-out` and `root/regression`, in name order.
    package static func folders(under root: URL) -> [(BenchPair.Kind, URL)] {
        var found: [(BenchPair.Kind, URL)] = []
        for kind in [BenchPair.Kind.heldOut, .regression] {
            let directory = root.appendingPathComponent(kind.rawValue)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            for name in names where FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).appendingPathComponent("pair.json").path) {
                found.append((kind, directory.appendingPathComponent(name)))
            }
        }
        return found
    }

    /// Reads the pair in `folder` and builds its store in `output` at `scale`.
    /// - Throws: ``BenchmarkKitError`` when a file is missing, `pair.json` is not a manifest, a hash does not
    ///   match, or the store cannot be built.
    package static func load(_ folder: URL, kind: BenchPair.Kind, into output: URL, scale: Double) throws -> BenchPair {
        let manifestData = try Data(contentsOf: folder.appendingPathComponent("pair.json"))
        let manifest: Manifest
        do { manifest = try JSONDecoder().decode(Manifest.self, from: manifestData) } catch {
            throw BenchmarkKitError("\(folder.lastPathComponent)/pair.json: \(error)")
        }
        var texts: [String: String] = [:]
        for file in ["schema.sql", "workload.sql"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let hash = sha256(data)
            guard manifest.sha256[file] == hash else {
                throw BenchmarkKitError("\(manifest.name)/\(file) does not match the SHA-256 in its pair.json (\(manifest.sha256[file] ?? "none") against \(hash)): a pair's files are never edited after it is committed; write a new pair instead")
            }
            texts[file] = String(decoding: data, as: UTF8.self)
        }
        let store = output.appendingPathComponent("pair-\(manifest.name).sqlite")
        try PairBuilder.build(schema: texts["schema.sql"]!, at: store, seed: manifest.seed, scale: scale)
        return BenchPair(name: manifest.name, kind: kind, summary: manifest.summary, store: store,
                         statements: try statements(of: texts["workload.sql"]!, file: manifest.name),
                         advisorValues: manifest.advisorValues, literalSets: manifest.literalSets ?? 4, seed: manifest.seed)
    }

    /// The statements of a pair's `workload.sql`.
    /// - Throws: ``BenchmarkKitError`` naming the line of a `-- draw` it cannot read.
    package static func statements(of text: String, file: String) throws -> [PairStatement] {
        var statements: [PairStatement] = []
        var count = 1
        var draws: [PairStatement.Draw] = []
        var hot = false
        var pending: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty, trimmed.hasPrefix("--") {
                let comment = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("freq:"), let n = Int(comment.dropFirst(5).trimmingCharacters(in: .whitespaces)), n > 0 {
                    count = n
                } else if comment == "hot" {
                    hot = true
                } else if comment.hasPrefix("draw") {
                    guard let draw = parseDraw(comment) else { throw BenchmarkKitError("\(file)/workload.sql:\(number + 1): cannot read \(comment)") }
                    draws.append(draw)
                }
                continue
            }
            if pending.isEmpty, trimmed.isEmpty { continue }
            pending.append(String(line))
            if trimmed.hasSuffix(";") {
                let sql = pending.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                statements.append(PairStatement(sql: String(sql.dropLast()).trimmingCharacters(in: .whitespacesAndNewlines),
                                                count: count, draws: draws, isHot: hot))
                pending = []
                count = 1
                draws = []
                hot = false
            }
        }
        return statements
    }

    static func parseDraw(_ comment: String) -> PairStatement.Draw? {
        guard let colon = comment.firstIndex(of: ":") else { return nil }
        let head = comment[..<colon].trimmingCharacters(in: .whitespaces)
        let body = comment[comment.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let parts = body.split(separator: " ").map(String.init)
        switch head {
        case "draw": return body.isEmpty ? nil : .row(query: body)
        case let each where each.hasPrefix("draw each "):
            guard let count = Int(each.dropFirst("draw each ".count)), count > 0, !body.isEmpty else { return nil }
            return .each(count: count, query: body)
        case "draw sequence": return Int64(body).map { .sequence(start: $0) }
        case "draw uniform":
            guard parts.count == 2, let low = Int64(parts[0]), let high = Int64(parts[1]) else { return nil }
            return .uniform(low: low, high: high)
        case "draw real":
            guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]) else { return nil }
            return .real(low: low, high: high)
        case "draw text": return .text(prefix: body)
        default: return nil
        }
    }
}
