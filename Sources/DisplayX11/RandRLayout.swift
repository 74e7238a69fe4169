import DisplayModel
import DisplayPorts

/// The daemon's layout on X through the output-management port: reads are the connection's
/// real topology (RandR's CRTCs), kept as the last read (`TopologyLayoutServer`), whose heads
/// the daemon plans from; a configuration is planned into CRTCs by the manager; and a plan is
/// sent as one `OutputConfiguration` (the `OutputConfiguration(plan:in:)` bridge) through
/// `RandROutputManager`: tested, then applied. The port's answer and report come back as the
/// daemon's `ApplyOutcome` through the translation every port layout uses
/// (`OutputManagerLayout.outcome`), with nothing lost: stale, the refusal's words, the CRTCs
/// whose transform or rotation was refused (the daemon plans them unscaled or unturned), the
/// changes that failed and why, those already in force, the other problems, what a rollback
/// did not restore, the modes the server took after fallbacks (a mode it made by the id the
/// server gave it), and the warnings.
///
/// No read of its own: the manager plans from the read the daemon's plan was made from,
/// and the apply finds a server changed since under its grab (`.stale`), so a plug costs the
/// reads the daemon makes and no more.
public final class RandRLayout: TopologyLayoutServer {
  public let connection: XConnection
  /// The port it sends through; it learns which CRTCs refuse transforms.
  public let manager: RandROutputManager
  /// The last read, and the outputs last read connected.
  public var topologyReads = TopologyReads()

  public init(_ connection: XConnection) {
    self.connection = connection
    manager = RandROutputManager(connection)
  }

  public var name: String { connection.name }

  public func takeReconnectsSeen() -> Set<OutputID> { connection.takeReconnectsSeen() }

  public func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology {
    try connection.readTopology(options)
  }

  public func heads(of topology: Topology) -> HeadSnapshot { manager.snapshot(topology) }

  /// Planned from `topology` as the manager reads the server (no read of its own).
  public func apply(_ configuration: OutputConfiguration, in topology: Topology) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try manager.applyReporting(configuration, from: topology)
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
    let (result, report) = try manager.applyReporting(configuration, from: topology)
    return OutputManagerLayout.outcome(result, report, plan, topology, refusedBy: nil)
  }
}
