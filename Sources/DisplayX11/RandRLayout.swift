import DisplayModel
import DisplayPorts

/// The daemon's layout on X through the output-management port: snapshots are the
/// connection's real topology (RandR's CRTCs, as the daemon plans from them), and a plan is
/// sent as one `OutputConfiguration` (the `OutputConfiguration(plan:in:)` bridge) through
/// `RandROutputManager`: tested, then applied. The port's answer comes back as the daemon's
/// `ApplyOutcome`, with nothing lost: stale, the refusal's words, the CRTCs whose transform or
/// rotation was refused (the daemon plans them unscaled or unturned), what a rollback did not
/// restore, the modes the server took after fallbacks, and the warnings.
///
/// No read of its own: the manager plans from the snapshot the daemon's plan was made from,
/// and the apply finds a server changed since under its grab (`.stale`), so a plug costs the
/// reads the daemon makes and no more.
public final class RandRLayout: LayoutServer {
  public let connection: XConnection
  /// The port it sends through; it learns which CRTCs refuse transforms.
  public let manager: RandROutputManager

  public init(_ connection: XConnection) {
    self.connection = connection
    manager = RandROutputManager(connection)
  }

  public var name: String { connection.name }

  public func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology {
    try connection.readTopology(options)
  }

  public func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] {
    try connection.releaseModes(releases)
  }

  /// The plan as one configuration, tested, then applied; an empty plan sends nothing.
  public func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    try Self.apply(plan, in: topology, through: manager)
  }

  /// `apply` through any RandR output manager (a test's runs over a double of the server).
  static func apply(_ plan: Plan, in topology: Topology, through manager: RandROutputManager) throws(DisplayError)
    -> ApplyOutcome
  {
    guard !plan.isEmpty else { return ApplyOutcome() }
    // Turning off a CRTC that is off and drives nothing is in force (the connection sends
    // nothing for it) and names no head.
    var sent = plan
    sent.changes.removeAll { change in
      change.mode == nil && change.outputs.isEmpty && topology.crtc(change.crtc).map { !$0.isActive } == true
    }
    guard let configuration = OutputConfiguration(plan: sent, in: topology) else {
      var outcome = ApplyOutcome()
      outcome.refused = "the plan names an output the X server does not list"
      return outcome
    }
    switch manager.check(configuration, in: topology) {
    case .failure(let failure):
      return Self.outcome(failure.result, nil, plan, topology)
    case .success(let planned):
      let sent = try manager.send(planned, in: topology)
      return Self.outcome(sent.result, sent.outcome, plan, topology)
    }
  }

  /// The port's answer in the daemon's terms. A configuration refused before anything was
  /// sent is the daemon's refused plan (its words, the CRTCs that cannot scale or turn as
  /// asked); one the server ran is the server's account, each change the daemon's own (the
  /// manager plans the same CRTCs), in the daemon's order.
  static func outcome(_ result: ApplyResult, _ ran: ApplyOutcome?, _ plan: Plan, _ topology: Topology)
    -> ApplyOutcome
  {
    if let ran { return translated(ran, plan) }
    var outcome = ApplyOutcome()
    switch result {
    case .applied: break
    case .stale: outcome.stale = true
    case .refused(let refusal):
      let problems = ordered(refusal.problems, plan, topology)
      outcome.refused = problems.map(\.description).joined(separator: "; ")
      outcome.notRestored = refusal.notRestored
      outcome.rotationRefused = OutputManagerLayout.crtcs(of: refusal.rotationRefused, plan, topology)
      outcome.transformRefused = OutputManagerLayout.crtcs(of: refusal.transformRefused, plan, topology)
    }
    return outcome
  }

  /// The problems in the order the daemon's plan names their heads (the manager plans heads
  /// in RandR's allocation order), those about no head first.
  static func ordered(_ problems: [ApplyRefusal.Problem], _ plan: Plan, _ topology: Topology)
    -> [ApplyRefusal.Problem]
  {
    let index = { (problem: ApplyRefusal.Problem) -> Int in
      guard let head = problem.head else { return -1 }
      return plan.changes.firstIndex { change in
        change.outputs.contains { topology.output($0)?.name == head } || change.outputName == head
      } ?? plan.changes.count
    }
    return problems.enumerated().sorted { (index($0.element), $0.offset) < (index($1.element), $1.offset) }
      .map(\.element)
  }

  /// The server's account of the manager's plan with the daemon's changes in it (matched by
  /// CRTC), applied in the order the daemon's plan would have been run: CRTCs turned off
  /// first, then those lit, each in the plan's order.
  static func translated(_ ran: ApplyOutcome, _ plan: Plan) -> ApplyOutcome {
    var index: [CrtcID: Int] = [:]
    for (i, change) in plan.changes.enumerated() where index[change.crtc] == nil { index[change.crtc] = i }
    let ours = { (change: CrtcChange) in index[change.crtc].map { plan.changes[$0] } ?? change }
    var outcome = ran
    let key = { (applied: (change: CrtcChange, mode: ModeID?)) in
      (applied.mode == nil ? 0 : 1, index[applied.change.crtc] ?? plan.changes.count)
    }
    outcome.applied = ran.applied.enumerated()
      .sorted { a, b in (key(a.element).0, key(a.element).1, a.offset) < (key(b.element).0, key(b.element).1, b.offset)
      }
      .map { (ours($0.element.change), $0.element.mode) }
    outcome.failed = ran.failed.map { (ours($0.change), $0.reason) }
    outcome.unchanged = ran.unchanged.map(ours)
    return outcome
  }
}
