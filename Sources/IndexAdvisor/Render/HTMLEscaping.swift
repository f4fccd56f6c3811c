/// Escaping for text that goes into the HTML report.
///
/// Every value taken from the store or the workload (table, column and index names, SQL, plan rows,
/// notes that quote them) passes through ``escape(_:)`` before it is placed in element content or in a
/// double-quoted attribute value. Such text is never placed inside `<script>` or `<style>`, where
/// entities are not decoded. Rules: https://html.spec.whatwg.org/multipage/syntax.html#escapingString
/// (plus `<`, `>` and `'`, so the result is also safe in single-quoted attributes).
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, and NUL (which HTML
    /// parsers drop or replace) by U+FFFD. `<script>` becomes `&lt;script&gt;` and renders as written.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\u{0}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A fragment identifier made only of ASCII letters, digits, `-` and `_` from `text` (other characters
    /// become `-`), for `id` and `href="#…"` values built from generated labels.
    public static func anchor(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            let ascii = scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
            return ascii ? Character(scalar) : "-"
        })
    }
}
