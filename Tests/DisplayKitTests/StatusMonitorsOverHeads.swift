import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayService

/// A managed monitor's identity and mode in `status` over RandR's topology: the reference
/// the answer over heads must equal on every desk.
enum TopologyStatusMonitor {
  static func shown(_ name: String, in topology: Topology) -> (StatusAnswer.Monitor.Identity?, String?) {
    let output = topology.outputs.first { $0.name == name }
    let identity = output?.identity.map {
      StatusAnswer.Monitor.Identity(
        manufacturer: $0.manufacturer, productName: $0.productName?.text, serial: $0.serial,
        displayID: DisplayID(edid: $0).rawValue)
    }
    return (identity, output.flatMap { topology.currentMode(of: $0)?.label })
  }
}

/// `status` names each managed monitor's EDID identity and mode from the daemon's heads,
/// byte for byte what the topology the heads report gave, on random X desks (the RandR
/// backend's heads) and random Wayland desks (the bridge's topology of a compositor's heads):
/// the answer's wire format stays whichever backend the daemon runs on.
@Suite struct StatusMonitorsOverHeads {
  static let desks = 3000

  typealias Shown = (StatusAnswer.Monitor.Identity?, String?)

  /// Every name of the desk and one it lacks, each shown both ways; the differing ones.
  static func differing(_ names: [String], _ old: (String) -> Shown, _ new: (String) -> Shown) -> [String] {
    (names + ["absent-1"]).filter { old($0).0 != new($0).0 || old($0).1 != new($0).1 }
  }

  @Test func theRandRBackendsHeadsGiveTheTopologysIdentityAndModeOnRandomDesks() {
    var differ: [(UInt64, String)] = []
    var (named, moded) = (0, 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let (t, heads) = ExtrasDeskDraw.xDesk(&r)
      let names = t.outputs.map(\.name)
      for name in Self.differing(
        names, { TopologyStatusMonitor.shown($0, in: t) }, { StatusAnswer.Monitor.shown($0, in: heads) })
      {
        differ.append((seed, name))
      }
      named += names.filter { StatusAnswer.Monitor.shown($0, in: heads).identity != nil }.count
      moded += names.filter { StatusAnswer.Monitor.shown($0, in: heads).mode != nil }.count
    }
    #expect(differ.isEmpty, "\(differ.count) outputs differ; first \(String(describing: differ.first))")
    // Identities and modes among them, for the check to mean something.
    #expect(named > Self.desks / 2 && moded > Self.desks, "\(named) identities, \(moded) modes")
  }

  @Test func waylandHeadsGiveTheirBridgedTopologysIdentityAndModeOnRandomDesks() throws {
    var differ: [(UInt64, String)] = []
    var moded = 0
    for seed in UInt64(1)...UInt64(Self.desks) {
      let heads = try WireDesk.wayland(seed: seed).0.bounded().snapshot
      let t = Topology(heads: heads)
      let names = heads.heads.map(\.name)
      for name in Self.differing(
        names, { TopologyStatusMonitor.shown($0, in: t) }, { StatusAnswer.Monitor.shown($0, in: heads) })
      {
        differ.append((seed, name))
      }
      moded += names.filter { StatusAnswer.Monitor.shown($0, in: heads).mode != nil }.count
    }
    #expect(differ.isEmpty, "\(differ.count) heads differ; first \(String(describing: differ.first))")
    #expect(moded > Self.desks, "\(moded) modes")
  }

  @Test func aMonitorTheHeadsLackHasNeitherIdentityNorMode() {
    let shown = StatusAnswer.Monitor.shown("HDMI-9", in: HeadSnapshot(heads: []))
    #expect(shown.identity == nil && shown.mode == nil)
  }
}
