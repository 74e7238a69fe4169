import DisplayModel
import DisplayPorts
import DisplayX11

@testable import DisplayKit

/// A layout server whose last read the tests can see as RandR's topology: the simulation's
/// invariants and the daemon tests that look at CRTCs read it.
protocol TopologyView: AnyObject {
  /// The last read with `held` held, as `heads(holding:)` gives its heads.
  func topology(holding held: HeldHeads) -> Topology
}

extension FakeDisplayServer: TopologyView {
  func topology(holding held: HeldHeads) -> Topology { outputManager.reads.masked(holding: held) }
}

extension PortDisplayServer: TopologyView {
  /// Through the heads bridge, on the screen the read gave.
  func topology(holding held: HeldHeads) -> Topology {
    let heads = layout.heads(holding: held)
    var topology = Topology(bounded: heads)
    topology.screen = heads.screen ?? topology.screen
    return topology
  }
}

extension Daemon {
  /// The daemon's heads as RandR's topology: its layout server's last read, with the
  /// disconnects waiting for their grace held; the heads bridge's where the server keeps no
  /// topology.
  var topology: Topology {
    var manager = layoutServer.manager
    if let observed = manager as? ObservedOutputManager { manager = observed.inner }
    if let randr = manager as? RandROutputManager { return randr.reads.masked(holding: layout.held) }
    guard manager is FakeOutputManager else { return Topology(heads: heads) }
    let heads = layoutServer.heads(holding: layout.held)
    var topology = Topology(bounded: heads)
    topology.screen = heads.screen ?? topology.screen
    return topology
  }
}
