/// What is known of the figures a result's reports derive from its timings when some are lower bounds
/// (``FigureBound``: statements stopped at `--statement-timeout`): the shares of the workload's time and the
/// charges, for every format to print with their bounds (hostile round 5, F10).
extension AnalysisResult {
    /// ``shareOfWorkloadTime(_:)`` with what is known of it: a share of a total that holds lower bounds
    /// (statements stopped at `--statement-timeout`) is a lower bound when only the statement's own time is one,
    /// an upper bound when only another's is, and not known when both are (``BoundedFigure/share(_:besides:)``).
    public func boundedShare(_ statement: StatementReport) -> BoundedFigure {
        let others = statements.contains { $0.error == nil && $0.id != statement.id && $0.timingBefore?.isLowerBound == true }
        return BoundedFigure(shareOfWorkloadTime(statement), FigureBound.of(rising: FigureBound(statement.timingBefore), falling: others ? .atLeast : .exact))
    }

    /// "12 % of `whole`", "share of `whole` not known", or "not timed".
    public func shareText(_ statement: StatementReport, of whole: String) -> String {
        statement.timingBefore == nil ? "not timed" : Figures.share(boundedShare(statement), of: whole)
    }

    /// What is known of one statement's part of a charge (``FigureBound``): its final change's bound (the time
    /// saved for a read, the time added for a write, from its timings before and after, either of which may be a
    /// lower bound), the same for a part of that change's sign; not known for a part of the other sign when the
    /// change has a bound (what the ledger counts against it, a write's counted work, bounds nothing then).
    public func bound(of part: ChargedStatement, isWrite: Bool) -> FigureBound {
        guard let statement = statement(withID: part.statementID) else { return .exact }
        let saving = FigureBound.of(rising: FigureBound(statement.timingBefore), falling: FigureBound(statement.timingAfter))
        guard !saving.isExact else { return .exact }
        let change = isWrite ? saving.negated : saving
        let measured = isWrite ? statement.weightedSecondsAfter - statement.weightedSecondsBefore : statement.weightedSecondsBefore - statement.weightedSecondsAfter
        return part.chargedSeconds * measured < 0 ? .notKnown : change
    }

    /// A charge's read time saved, with its bound (``bound(of:isWrite:)`` over its reads).
    public func boundedReadSaving(_ charge: FinalCharge) -> BoundedFigure {
        BoundedFigure(charge.readSecondsSaved, FigureBound.sum(charge.reads.map { bound(of: $0, isWrite: false) }))
    }

    /// A charge's write time added, with its bound (``bound(of:isWrite:)`` over its writes).
    public func boundedWriteCost(_ charge: FinalCharge) -> BoundedFigure {
        BoundedFigure(charge.writeSecondsAdded, FigureBound.sum(charge.writes.map { bound(of: $0, isWrite: true) }))
    }

    /// `saves at least 1.2 s of reads`: a charge's read figure in words.
    func readChargeWords(_ charge: FinalCharge) -> String {
        Figures.readWriteEffect(reads: boundedReadSaving(charge), writes: BoundedFigure(0)).components(separatedBy: ", ")[0]
    }
}
