import DisplayModel
import DisplayPorts
import DisplayX11

/// The reference planners over CRTCs on any output manager: a read through the
/// `Topology(heads:vendors:)` bridge, and their plans sent as one configuration
/// (`OutputConfiguration(plan:in:)`), the port's answer in their `ApplyOutcome`.
extension OutputManagerLayout {
  /// A read through the `Topology(heads:vendors:)` bridge, for the planners over CRTCs that
  /// check the port's (and `apply(_:in:)`, which takes their plans).
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology {
    let heads = try read(options)
    var topology = Topology(bounded: heads, vendors: vendors(heads.heads.map(\.make)))
    topology.screen = heads.screen ?? topology.screen
    return topology
  }

  /// The plan as one configuration: tested, then applied. A plan that changes no head (and
  /// no primary where the server has one) sends nothing.
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    guard !plan.changes.isEmpty || (desk.hasPrimary && plan.primary != nil) else { return outcome }
    guard let configuration = OutputConfiguration(plan: plan, in: topology) else {
      outcome.refused = "the plan names an output \(desk.server ?? "the X server") does not list"
      return outcome
    }
    var (result, report) = (try manager.test(configuration), ApplyReport())
    if result == .applied { (result, report) = try manager.applyReporting(configuration) }
    return Self.outcome(result, report, plan, topology, refusedBy: desk.server)
  }

}
