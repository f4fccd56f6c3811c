/// What is known of a figure computed from timings some of which may be lower bounds (``Timing/isLowerBound``:
/// a statement stopped at `--statement-timeout`, whose time is at least the timeout): the figure itself, a
/// bound on the true value, or nothing.
///
/// A figure carries its bound through the arithmetic that derives it (``BoundedFigure``): a saving
/// `before − after` is a lower bound when `before` is one, an upper bound when `after` is, and not known when
/// both are; a share of a total is a lower bound when only its own part is one. Hostile round 5, F10: a saving
/// against a stopped write printed "spread 997.9 ms–998.1 ms" whose top was the bound itself, a rejected
/// candidate "49.84 s" with no "at least", a loss between two stopped times "-4.21 s", shares of lower bounds
/// "29 %" and "71 %", and two stopped times "within the noise".
public enum FigureBound: String, Sendable, Codable, Equatable {
    /// Measured: the figure is what the timings give.
    case exact
    /// The true value is the figure or more.
    case atLeast = "at-least"
    /// The true value is the figure or less.
    case atMost = "at-most"
    /// The timings bound the figure on no side (a difference of two lower bounds).
    case notKnown = "not-known"

    /// A timing's median: at least itself when the statement was stopped at the timeout, else exact; exact for
    /// no timing (a figure without one is 0, and adding it changes nothing).
    public init(_ timing: Timing?) {
        self = timing?.isLowerBound == true ? .atLeast : .exact
    }

    /// The bound of a sum of a figure bounded so and one bounded `other`.
    public func adding(_ other: FigureBound) -> FigureBound {
        switch (self, other) {
        case (.exact, _): return other
        case (_, .exact): return self
        case (.atLeast, .atLeast): return .atLeast
        case (.atMost, .atMost): return .atMost
        default: return .notKnown
        }
    }

    /// The bound of the figure negated, or scaled by a negative factor: a lower bound becomes an upper one.
    public var negated: FigureBound {
        switch self {
        case .atLeast: return .atMost
        case .atMost: return .atLeast
        case .exact, .notKnown: return self
        }
    }

    /// The bound of a figure that grows with a figure bounded `rising` and falls with one bounded `falling`:
    /// a difference `rising − falling`, a ratio `rising / falling` of positive figures, a share `part / (part + rest)`.
    public static func of(rising: FigureBound, falling: FigureBound) -> FigureBound {
        rising.adding(falling.negated)
    }

    /// The bound of a sum of figures bounded `bounds` (exact for none).
    public static func sum<Bounds: Sequence>(_ bounds: Bounds) -> FigureBound where Bounds.Element == FigureBound {
        bounds.reduce(.exact) { $0.adding($1) }
    }

    /// True for a measured figure.
    public var isExact: Bool { self == .exact }

    /// The bound as a result's JSON keeps it: nil (the field left out) for an exact figure.
    public var stored: FigureBound? { isExact ? nil : self }
}

/// A figure (seconds, or a share 0…1) with what is known of it (``FigureBound``).
public struct BoundedFigure: Sendable, Equatable {
    public var value: Double
    public var bound: FigureBound

    public init(_ value: Double, _ bound: FigureBound = .exact) {
        self.value = value
        self.bound = bound
    }

    public static func + (left: BoundedFigure, right: BoundedFigure) -> BoundedFigure {
        BoundedFigure(left.value + right.value, left.bound.adding(right.bound))
    }

    public static prefix func - (figure: BoundedFigure) -> BoundedFigure {
        BoundedFigure(-figure.value, figure.bound.negated)
    }

    public static func - (left: BoundedFigure, right: BoundedFigure) -> BoundedFigure {
        left + -right
    }

    /// The figure scaled by `factor` (a frequency, a share of a split): a negative factor turns its bound.
    public static func * (figure: BoundedFigure, factor: Double) -> BoundedFigure {
        BoundedFigure(figure.value * factor, factor < 0 ? figure.bound.negated : figure.bound)
    }

    /// `part / (part + rest)`, the share of a whole made of `part` and `rest` (both ≥ 0), 0 for an empty whole:
    /// it grows with the part and falls with the rest, so a lower bound in the part alone makes it a lower
    /// bound, one in the rest alone an upper bound, and one in each leaves it not known.
    public static func share(_ part: BoundedFigure, besides rest: BoundedFigure) -> BoundedFigure {
        let whole = part.value + rest.value
        return BoundedFigure(whole > 0 ? part.value / whole : 0, FigureBound.of(rising: part.bound, falling: rest.bound))
    }

    /// A timing's median, bounded as the timing is (``FigureBound/init(_:)``).
    public init(median timing: Timing) {
        self.init(timing.medianSeconds, FigureBound(timing))
    }
}

extension StatementEffect {
    /// The frequency-weighted time the change saved this statement, `count × (before − after)`, with its bound.
    public var weightedSaving: BoundedFigure {
        (BoundedFigure(median: before) - BoundedFigure(median: after)) * Double(count)
    }
}

extension StatementReport {
    /// The frequency-weighted time as the store is (``weightedSecondsBefore``), with its bound.
    public var boundedSecondsBefore: BoundedFigure {
        BoundedFigure(weightedSecondsBefore, FigureBound(timingBefore))
    }

    /// The frequency-weighted time with the advice (``weightedSecondsAfter``), with its bound.
    public var boundedSecondsAfter: BoundedFigure {
        BoundedFigure(weightedSecondsAfter, FigureBound(timingAfter))
    }
}

extension Recommendation {
    /// ``readSecondsSaved`` with what is known of it: ``readSecondsSavedBound``, or in a report made before it
    /// was kept, what the effects of the statements whose plan uses it give.
    public var boundedReadSaving: BoundedFigure {
        BoundedFigure(readSecondsSaved, readSecondsSavedBound ?? FigureBound.sum(userEffects.map(\.weightedSaving.bound)))
    }

    /// ``writeSecondsAdded`` with what is known of it: ``writeSecondsAddedBound``, or in a report made before it
    /// was kept, what the effects of the other writes it made slower give.
    public var boundedWriteCost: BoundedFigure {
        let users = Set(userEffects.map(\.statementID))
        let slowed = effects.filter { !users.contains($0.statementID) && $0.before.isWrite == true && $0.after.medianSeconds > $0.before.medianSeconds }
        return BoundedFigure(writeSecondsAdded, writeSecondsAddedBound ?? FigureBound.sum(slowed.map(\.weightedSaving.bound.negated)))
    }
}

extension AlternativeIndex {
    /// ``readSecondsSaved`` with what is known of it (``readSecondsSavedBound``).
    public var boundedReadSaving: BoundedFigure { BoundedFigure(readSecondsSaved, readSecondsSavedBound ?? .exact) }
    /// ``writeSecondsAdded`` with what is known of it (``writeSecondsAddedBound``).
    public var boundedWriteCost: BoundedFigure { BoundedFigure(writeSecondsAdded, writeSecondsAddedBound ?? .exact) }
}

extension RejectedCandidate {
    /// ``readSecondsSaved`` with what is known of it (``readSecondsSavedBound``).
    public var boundedReadSaving: BoundedFigure { BoundedFigure(readSecondsSaved, readSecondsSavedBound ?? .exact) }
    /// ``writeSecondsAdded`` with what is known of it (``writeSecondsAddedBound``).
    public var boundedWriteCost: BoundedFigure { BoundedFigure(writeSecondsAdded, writeSecondsAddedBound ?? .exact) }
}
