import Foundation

/// The HTML report's two charts, drawn as inline SVG (no script, no external resource). Colours come
/// from CSS classes that the page's style sheet defines for light and dark mode and for print. Built as
/// ``HTML``, so every label is escaped (``HTMLText/escape(_:)``) by its type. Values are in seconds and drawn
/// on log scales.
public enum SVGCharts {
    /// One statement's bars: the median time of one execution before and after, with its interquartile range.
    public struct TimeRow: Sendable {
        /// `S2`.
        public var label: String
        /// The fragment the label links to (`S2`), letters, digits, `-` and `_` only.
        public var anchor: String
        public var before: Timing?
        public var after: Timing?
        /// True when the plan before had a full scan, temp B-tree or automatic index (drawn in the warning colour).
        public var isFlagged: Bool
        /// True when such a plan is still the plan after the advice (no index could fix it).
        public var isUnfixed: Bool
        /// Text right of the bars, e.g. `×400 · 36 % of the time`.
        public var caption: String
        /// The tooltip of the row.
        public var detail: String

        public init(label: String, anchor: String, before: Timing?, after: Timing?, isFlagged: Bool, isUnfixed: Bool = false,
                    caption: String, detail: String) {
            self.label = label
            self.anchor = anchor
            self.before = before
            self.after = after
            self.isFlagged = isFlagged
            self.isUnfixed = isUnfixed
            self.caption = caption
            self.detail = detail
        }
    }

    /// One candidate index: read time it saves against write time it adds, per workload.
    public struct TradeOffPoint: Sendable {
        /// `#1` for a recommendation, `C3` for a candidate not recommended.
        public var label: String
        /// Frequency-weighted write time added, in seconds (0 or less is drawn in the "none" strip).
        public var writeSecondsAdded: Double
        /// Frequency-weighted read time saved, in seconds (0 or less is drawn in the "none or slower" strip).
        public var readSecondsSaved: Double
        public var isRecommended: Bool
        /// The tooltip: the index and its figures.
        public var detail: String

        public init(label: String, writeSecondsAdded: Double, readSecondsSaved: Double, isRecommended: Bool, detail: String) {
            self.label = label
            self.writeSecondsAdded = writeSecondsAdded
            self.readSecondsSaved = readSecondsSaved
            self.isRecommended = isRecommended
            self.detail = detail
        }
    }

    /// A base-10 logarithmic axis from a power of ten below the smallest value to one above the largest.
    public struct LogScale: Sendable, Equatable {
        /// The lowest and highest values on the axis, powers of ten.
        public var low: Double
        public var high: Double

        /// The scale for `values`; values of 0 or less are ignored. One decade around 1 ms when none is positive.
        public init(values: [Double]) {
            let positive = values.filter { $0 > 0 && $0.isFinite }
            guard let smallest = positive.min(), let largest = positive.max() else {
                low = 1e-4
                high = 1e-2
                return
            }
            // Decades within 10^±300: a time of 5e-324 s (an edited report's) has no power of ten below it that
            // a Double holds, and a low of 0 made every position NaN.
            low = pow(10, min(299, max(-300, log10(smallest).rounded(.down))))
            high = pow(10, min(300, max(-299, log10(largest).rounded(.up))))
            if high <= low { high = low * 10 }
        }

        /// Where `value` falls, 0 (at `low`) … 1 (at `high`), clamped.
        public func fraction(_ value: Double) -> Double {
            guard value > 0 else { return 0 }
            return min(1, max(0, (log10(value) - log10(low)) / (log10(high) - log10(low))))
        }

        /// The powers of ten from `low` to `high`.
        public var ticks: [Double] {
            let first = Figures.whole(log10(low)), last = Figures.whole(log10(high))
            return (first...max(first, last)).map { pow(10, Double($0)) }
        }
    }

    /// Horizontal bars per statement, before and after, with whiskers for the interquartile range.
    /// - Parameter title: the accessible name of the chart.
    public static func statementTimes(_ rows: [TimeRow], title: String) -> String {
        statementTimesHTML(rows, title: title).markup
    }

    /// ``statementTimes(_:title:)`` as ``HTML``: every label interpolated as text, so it is escaped.
    static func statementTimesHTML(_ rows: [TimeRow], title: String) -> HTML {
        let rows = rows.filter { $0.before != nil || $0.after != nil }
        guard !rows.isEmpty else { return .empty }
        let scale = LogScale(values: rows.flatMap { row in [row.before, row.after].compactMap { $0 }.flatMap { [$0.p25Seconds, $0.medianSeconds, $0.p75Seconds] } })
        let width = 960.0, left = 56.0, right = 200.0, top = 56.0, rowHeight = 34.0, bottom = 46.0
        let plot = width - left - right
        let height = top + Double(rows.count) * rowHeight + bottom
        func x(_ seconds: Double) -> Double { left + plot * scale.fraction(seconds) }
        var svg: [HTML] = []
        svg.append(#"<svg class="chart" viewBox="0 0 \#(int(width)) \#(int(height))" role="img" aria-labelledby="chart-times-title" xmlns="http://www.w3.org/2000/svg">"#)
        svg.append(#"<title id="chart-times-title">\#(title)</title>"#)
        // Legend, two rows: before, then after.
        let legend: [(kind: String, text: String, x: Double, y: Double)] = [
            ("bar-before", "before (as the store is)", left, 8),
            ("bar-before flagged", "before, the plan has a full scan or temp B-tree", left + 200, 8),
            ("bar-after", "after (with the advice)", left, 28),
            ("bar-after slower", "after, measurably slower", left + 200, 28),
            ("bar-after unfixed", "after, the same slow plan (no index fixes it)", left + 400, 28),
        ]
        for item in legend {
            svg.append(#"<rect class="\#(item.kind)" x="\#(int(item.x))" y="\#(int(item.y))" width="14" height="10" rx="2"/><text class="legend" x="\#(int(item.x + 20))" y="\#(int(item.y + 9))">\#(item.text)</text>"#)
        }
        // Grid and axis.
        let axisY = top + Double(rows.count) * rowHeight + 6
        for tick in scale.ticks {
            let tx = x(tick)
            svg.append(#"<line class="grid" x1="\#(fmt(tx))" y1="\#(int(top - 4))" x2="\#(fmt(tx))" y2="\#(fmt(axisY))"/>"#)
            svg.append(#"<text class="tick" x="\#(fmt(tx))" y="\#(fmt(axisY + 16))" text-anchor="middle">\#(tickLabel(tick))</text>"#)
        }
        svg.append(#"<text class="axis-title" x="\#(fmt(left + plot / 2))" y="\#(fmt(axisY + 36))" text-anchor="middle">time of one execution (median; whiskers: interquartile range), log scale</text>"#)
        for (offset, row) in rows.enumerated() {
            let y = top + Double(offset) * rowHeight
            svg.append(#"<g class="row"><title>\#(row.detail)</title>"#)
            svg.append(##"<a href="#\##(HTMLText.anchor(row.anchor))"><text class="row-label" x="\##(int(left - 8))" y="\##(fmt(y + 17))" text-anchor="end">\##(row.label)</text></a>"##)
            for (index, timing) in [row.before, row.after].enumerated() {
                guard let timing else { continue }
                let barY = y + 4 + Double(index) * 13
                let end = x(timing.medianSeconds)
                // An after bar measurably slower than before (a write paying for a new index) is drawn as a cost.
                let slower = index == 1 && row.before.map { timing.isSlower(than: $0) } == true
                let kind = index == 0 ? (row.isFlagged ? "bar-before flagged" : "bar-before")
                    : (slower ? "bar-after slower" : (row.isUnfixed ? "bar-after unfixed" : "bar-after"))
                svg.append(#"<rect class="\#(kind)" x="\#(int(left))" y="\#(fmt(barY))" width="\#(fmt(max(1, end - left)))" height="11" rx="2"/>"#)
                let low = x(timing.p25Seconds), high = x(timing.p75Seconds), mid = barY + 5.5
                svg.append(#"<path class="whisker" d="M\#(fmt(low)) \#(fmt(mid))H\#(fmt(high))M\#(fmt(low)) \#(fmt(mid - 4))V\#(fmt(mid + 4))M\#(fmt(high)) \#(fmt(mid - 4))V\#(fmt(mid + 4))"/>"#)
                svg.append(#"<text class="value" x="\#(fmt(max(end, high) + 5))" y="\#(fmt(barY + 9.5))">\#(Figures.duration(timing.medianSeconds))</text>"#)
            }
            svg.append(#"<text class="caption" x="\#(int(width - right + 56))" y="\#(fmt(y + 17))">\#(row.caption)</text>"#)
            svg.append("</g>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    /// A scatter of read time saved (up) against write time added (right), both per workload on log
    /// scales, with the break-even line: points above it save more than they cost. Points with no write
    /// cost are drawn in a strip left of the plot, points with no read saving (or a loss) in a strip below it.
    /// - Parameter title: the accessible name of the chart.
    public static func tradeOff(_ points: [TradeOffPoint], title: String) -> String {
        tradeOffHTML(points, title: title).markup
    }

    /// ``tradeOff(_:title:)`` as ``HTML``: every label interpolated as text, so it is escaped.
    static func tradeOffHTML(_ points: [TradeOffPoint], title: String) -> HTML {
        guard !points.isEmpty else { return .empty }
        let scale = LogScale(values: points.flatMap { [$0.writeSecondsAdded, $0.readSecondsSaved] })
        let left = 152.0, top = 16.0, size = 360.0, strip = 30.0, gap = 40.0, legendX = left + size + 36
        let width = legendX + 340, height = top + size + gap + strip + 62
        let bottomAxis = top + size + gap + strip
        func x(_ seconds: Double) -> Double { seconds > 0 ? left + size * scale.fraction(seconds) : left - gap - strip / 2 }
        func y(_ seconds: Double) -> Double { seconds > 0 ? top + size * (1 - scale.fraction(seconds)) : top + size + gap + strip / 2 }
        var svg: [HTML] = []
        svg.append(#"<svg class="chart" viewBox="0 0 \#(int(width)) \#(int(height))" role="img" aria-labelledby="chart-tradeoff-title" xmlns="http://www.w3.org/2000/svg">"#)
        svg.append(#"<title id="chart-tradeoff-title">\#(title)</title>"#)
        svg.append(#"<rect class="strip" x="\#(fmt(left - gap - strip))" y="\#(fmt(top))" width="\#(fmt(strip))" height="\#(fmt(size))"/>"#)
        svg.append(#"<rect class="strip" x="\#(fmt(left))" y="\#(fmt(top + size + gap))" width="\#(fmt(size))" height="\#(fmt(strip))"/>"#)
        for tick in scale.ticks {
            let label = tickLabel(tick)
            svg.append(#"<line class="grid" x1="\#(fmt(x(tick)))" y1="\#(fmt(top))" x2="\#(fmt(x(tick)))" y2="\#(fmt(top + size))"/>"#)
            svg.append(#"<line class="grid" x1="\#(fmt(left))" y1="\#(fmt(y(tick)))" x2="\#(fmt(left + size))" y2="\#(fmt(y(tick)))"/>"#)
            svg.append(#"<text class="tick" x="\#(fmt(x(tick)))" y="\#(fmt(bottomAxis + 16))" text-anchor="middle">\#(label)</text>"#)
            svg.append(#"<text class="tick" x="\#(fmt(left - gap - strip - 6))" y="\#(fmt(y(tick) + 4))" text-anchor="end">\#(label)</text>"#)
        }
        svg.append(#"<text class="tick" x="\#(fmt(left - gap - strip / 2))" y="\#(fmt(bottomAxis + 16))" text-anchor="middle">none</text>"#)
        svg.append(#"<text class="tick" x="\#(fmt(left - gap - strip - 6))" y="\#(fmt(top + size + gap + strip / 2 + 4))" text-anchor="end">none or &lt; 0</text>"#)
        svg.append(#"<line class="diagonal" x1="\#(fmt(left))" y1="\#(fmt(top + size))" x2="\#(fmt(left + size))" y2="\#(fmt(top))"/>"#)
        svg.append(#"<text class="diagonal-label" x="\#(fmt(left + size - 6))" y="\#(fmt(top + 28))" text-anchor="end" transform="rotate(-45 \#(fmt(left + size - 6)) \#(fmt(top + 28)))">break-even</text>"#)
        svg.append(#"<text class="axis-title" x="\#(fmt(left + size / 2))" y="\#(fmt(bottomAxis + 40))" text-anchor="middle">write time added per workload (log scale)</text>"#)
        svg.append(#"<text class="axis-title" x="16" y="\#(fmt(top + size / 2))" text-anchor="middle" transform="rotate(-90 16 \#(fmt(top + size / 2)))">read time saved per workload (log scale)</text>"#)
        // Rejected first, so recommendations are drawn on top; labels moved aside when they would overlap.
        var placed: [(x: Double, y: Double, width: Double)] = []
        for point in points.sorted(by: { !$0.isRecommended && $1.isRecommended }) {
            let px = x(point.writeSecondsAdded), py = y(point.readSecondsSaved)
            let labelWidth = Double(point.label.count) * 7 + 4
            let offsets: [(Double, Double)] = [(8, -6), (8, 12), (-8 - labelWidth, -6), (-8 - labelWidth, 12), (8, -20), (8, 26), (-8 - labelWidth, -20), (-8 - labelWidth, 26)]
            let chosen = offsets.first { dx, dy in
                !placed.contains { abs($0.y - (py + dy)) < 12 && px + dx < $0.x + $0.width && $0.x < px + dx + labelWidth }
            } ?? offsets[0]
            placed.append((px + chosen.0, py + chosen.1, labelWidth))
            svg.append(#"<g class="point"><title>\#(point.detail)</title>"#)
            svg.append(#"<circle class="\#(point.isRecommended ? "dot-recommended" : "dot-rejected")" cx="\#(fmt(px))" cy="\#(fmt(py))" r="\#(point.isRecommended ? 6 : 5)"/>"#)
            svg.append(#"<text class="\#(point.isRecommended ? "point-label strong" : "point-label")" x="\#(fmt(px + chosen.0))" y="\#(fmt(py + chosen.1))">\#(point.label)</text>"#)
            svg.append("</g>")
        }
        // Legend and reading guide.
        svg.append(#"<circle class="dot-recommended" cx="\#(fmt(legendX + 6))" cy="\#(fmt(top + 10))" r="6"/><text class="legend" x="\#(fmt(legendX + 18))" y="\#(fmt(top + 14))">recommended (#1 is chosen first)</text>"#)
        svg.append(#"<circle class="dot-rejected" cx="\#(fmt(legendX + 6))" cy="\#(fmt(top + 32))" r="5"/><text class="legend" x="\#(fmt(legendX + 18))" y="\#(fmt(top + 36))">measured, not recommended (C…, see the table)</text>"#)
        let guide = [
            "Above the dashed line an index saves more read",
            "time than it adds to writes.",
            "Left strip: no write cost was measured.",
            "Bottom strip: no read saving beyond the noise,",
            "or statements got slower with it.",
            "Per workload: count × median, each measured with",
            "the indexes chosen before it in place.",
        ]
        for (offset, line) in guide.enumerated() {
            svg.append(#"<text class="note" x="\#(fmt(legendX))" y="\#(fmt(top + 70 + Double(offset) * 17))">\#(line)</text>"#)
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    /// A power of ten of seconds as an axis label: `1 µs`, `10 µs`, `100 ms`, `1 s`, `10 s`.
    public static func tickLabel(_ seconds: Double) -> String {
        let units: [(Double, String)] = [(1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")]
        for (scale, unit) in units where seconds >= scale * 0.999 {
            return String(format: "%.0f %@", seconds / scale, unit)
        }
        return String(format: "%.0f ns", seconds * 1e9)
    }

    private static func fmt(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    private static func int(_ value: Double) -> String {
        String(Figures.whole(value))
    }
}
