/// A piece of HTML markup, built so that text cannot become markup by accident.
///
/// A literal written in the source is trusted markup; a value interpolated into it is escaped by its type,
/// as GRDB's `SQLInterpolation` turns an interpolated value into a bound argument:
///
/// ```swift
/// let row: HTML = "<td><code>\(table.name)</code></td>"   // a String: escaped (<script> becomes &lt;script&gt;)
/// let cell: HTML = "<td>\(row)</td>"                      // an HTML value: already markup, kept as it is
/// let svg: HTML = "<figure>\(raw: chart)</figure>"        // trusted markup held in a String: only through raw
/// ```
///
/// Integers are written as they are (they hold no markup). There is no other way in: a `String` becomes
/// markup only through ``raw(_:)`` or `\(raw:)`, so every such place can be found and reviewed.
struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup.
    private(set) var markup: String

    /// Markup written in the source: trusted as it is.
    init(stringLiteral value: String) {
        markup = value
    }

    init(stringInterpolation: Interpolation) {
        markup = stringInterpolation.markup
    }

    private init(markup: String) {
        self.markup = markup
    }

    /// `markup` as it is, without escaping: only for markup the report makes itself (its style sheet,
    /// script and charts, which escape their own labels).
    static func raw(_ markup: String) -> HTML {
        HTML(markup: markup)
    }

    /// `text` escaped (``HTMLText/escape(_:)``): it renders as written.
    static func text(_ text: String) -> HTML {
        HTML(markup: HTMLText.escape(text))
    }

    /// Empty markup.
    static let empty: HTML = ""

    var isEmpty: Bool { markup.isEmpty }

    var description: String { markup }

    static func + (lhs: HTML, rhs: HTML) -> HTML {
        HTML(markup: lhs.markup + rhs.markup)
    }

    static func += (lhs: inout HTML, rhs: HTML) {
        lhs.markup += rhs.markup
    }

    /// Collects a literal's parts: literal markup as written, interpolated values by type.
    struct Interpolation: StringInterpolationProtocol {
        fileprivate var markup = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity * 2)
        }

        mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text: escaped.
        mutating func appendInterpolation(_ text: String) {
            markup += HTMLText.escape(text)
        }

        /// A number: written as it is.
        mutating func appendInterpolation(_ number: Int) {
            markup += String(number)
        }

        /// Markup already built: kept as it is.
        mutating func appendInterpolation(_ html: HTML) {
            markup += html.markup
        }

        /// Trusted markup held in a `String`: kept as it is. The only way a `String` enters unescaped.
        mutating func appendInterpolation(raw markup: String) {
            self.markup += markup
        }
    }
}

extension Sequence where Element == HTML {
    /// The pieces one after another, with `separator` between them.
    func joined(separator: HTML = .empty) -> HTML {
        var result = HTML.empty
        var first = true
        for piece in self {
            if !first { result += separator }
            result += piece
            first = false
        }
        return result
    }
}
