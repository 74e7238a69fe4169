import DisplayModel

/// What applying a plan did.
public struct ApplyOutcome: Sendable {
  /// Changes the server accepted, with the mode it took (nil: turned off).
  public var applied: [(change: CrtcChange, mode: ModeID?)] = []
  /// Changes that failed with every candidate mode, with the reason. When there are any,
  /// everything applied before was rolled back to the snapshot's layout.
  public var failed: [(change: CrtcChange, reason: String)] = []
  /// The screen size set, if it was changed.
  public var screen: (width: Int, height: Int)?
  /// The server's configuration changed since the snapshot the plan was made from: nothing
  /// was applied; read again and plan again.
  public var stale = false
  /// Why nothing was sent at all: the plan would leave no connected output lit (never a dark
  /// desk), or asks CRTCs for rotations they cannot do (`rotationRefused`).
  public var refused: String?
  /// CRTCs the plan asks for a rotation or reflection outside their `Crtc.rotations`: nothing
  /// was applied. The caller plans again without rotation for them and warns, naming the
  /// output and the reason (the rotation changes the monitor's extent, so its neighbours'
  /// places depend on it: the applier cannot drop it alone).
  public var rotationRefused: Set<CrtcID> = []
  /// CRTCs whose transform the server refused (RRSetCrtcTransform BadValue: the CRTC cannot
  /// scale; none of Xvnc, Xephyr and the dummy driver can): nothing was applied. The caller
  /// plans again without `scale` for them and warns, naming the output.
  public var transformRefused: Set<CrtcID> = []
  /// Changes already in force: nothing was sent for them.
  public var unchanged: [CrtcChange] = []
  /// Failures that are no single change's: the screen size, the primary, a read-back that
  /// differs from the plan, a refused transform. Everything was rolled back, as for `failed`.
  public var problems: [String] = []
  /// What a rollback did not restore, as read back from the server; empty when it did.
  public var notRestored: [String] = []
  /// What went wrong without failing the apply: a custom mode the server refused (the output
  /// fell back along its chain).
  public var warnings: [String] = []
  public init() {}
}

extension ApplyOutcome {
  /// Everything that kept the plan from being put in force, in the order the log gives it:
  /// failed changes, other failures, the refusal, what the rollback left. Empty when it was.
  public var errors: [ApplyProblem] {
    failed.map { .couldNotConfigure(output: $0.change.outputName, reason: $0.reason) }
      + problems.map(ApplyProblem.failure)
      + [refused].compactMap { $0.map(ApplyProblem.planRefused) } + notRestored.map(ApplyProblem.notRestored)
  }
}
