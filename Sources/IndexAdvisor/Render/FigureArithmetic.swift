/// Arithmetic on a report's figures that cannot trap. A saved report is a file anyone can edit: the decoder
/// refuses a figure beyond ``JSONReport/largestFigure``, and what the renderers derive from the figures it lets
/// through (a sum over every statement, a rounded average, a logarithm of a time) goes through these, which hold
/// a result at the type's limit instead of stopping the process (a breaking helper's summed `Int64.max` index
/// sizes and a `1e300` s run time converted to milliseconds ended `render` with a Swift runtime trap).
extension Figures {
    /// `value` rounded by `rule` to a whole number, held within ±`Int.max` (never `Int.min`, whose magnitude
    /// `Int` cannot hold); NaN is 0.
    public static func whole(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded(rule)
        // `Double(Int.max)` is 2^63, one more than `Int.max`: anything at or past it is held at the limit.
        if rounded >= Double(Int.max) { return Int.max }
        if rounded <= -Double(Int.max) { return -Int.max }
        return Int(rounded)
    }
}

extension Sequence {
    /// The sum of `figure` over the elements, held at the type's limit instead of overflowing.
    public func saturatingSum<Figure: FixedWidthInteger>(_ figure: (Element) throws -> Figure) rethrows -> Figure {
        var sum: Figure = 0
        for element in self {
            let value = try figure(element)
            let (added, overflow) = sum.addingReportingOverflow(value)
            sum = overflow ? (value > 0 ? .max : .min) : added
        }
        return sum
    }
}

extension FixedWidthInteger {
    /// `self × other`, held at the type's limit instead of overflowing.
    public func saturatingProduct(_ other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}
