import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

/// The properties and touch mappings the daemon plans over heads are those the same plan
/// over RandR's topology gives, on random X desks (the RandR backend's heads of them, turned,
/// reflected in either spelling and scaled) and Wayland desks (the bridge's topology of the
/// compositor's heads, matched through the same PNP ids): the same heads with the same
/// extras, the same devices on the same heads at the same rectangles and matrices, the same
/// globs matching nothing.
@Suite struct OutputExtrasDifferentialTests {
  static let desks = 3000

  /// The verdicts by kind, failing on any difference.
  static func tally(_ verdicts: [OutputExtrasDifferential.Verdict]) -> (same: Int, mapped: Int, excluded: Int) {
    var (same, mapped, excluded) = (0, 0, 0)
    for verdict in verdicts {
      switch verdict {
      case .same(_, let mappings):
        same += 1
        mapped += mappings > 0 ? 1 : 0
      case .excluded: excluded += 1
      case .differs(let problems): Issue.record("\(problems)")
      }
    }
    return (same, mapped, excluded)
  }

  @Test func onXDesksTheHeadsPlanIsTheTopologys() throws {
    var verdicts: [OutputExtrasDifferential.Verdict] = []
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let (t, heads) = OutputExtrasDifferential.xDesk(&r)
      #expect(heads.screen == t.screen, "the backend's heads carry the root window's size")
      verdicts.append(try OutputExtrasDifferential.verdict(t, heads, vendors: .none, &r))
    }
    let (same, mapped, excluded) = Self.tally(verdicts)
    // Enough desks compared, and enough of them mapping a device (a lit head asking a glob
    // a present device matches), for the check to mean something.
    #expect(same > Self.desks * 9 / 10, "\(same) same, \(excluded) excluded")
    #expect(mapped > Self.desks / 6, "\(mapped) desks map a device")
  }

  @Test func onWaylandDesksTheHeadsPlanIsTheBridgedTopologys() throws {
    var verdicts: [OutputExtrasDifferential.Verdict] = []
    let vendors = OutputExtrasDifferential.vendors
    for seed in UInt64(1)...UInt64(Self.desks) {
      var (heads, _) = try WireDesk.wayland(seed: seed)
      heads = heads.bounded().snapshot
      let t = Topology(heads: heads, vendors: vendors)
      var r = SimRandom(seed: seed &+ 7_000_000)
      verdicts.append(try OutputExtrasDifferential.verdict(t, heads, vendors: vendors, &r))
    }
    let (same, mapped, excluded) = Self.tally(verdicts)
    #expect(same > Self.desks * 9 / 10, "\(same) same, \(excluded) excluded")
    #expect(mapped > Self.desks / 4, "\(mapped) desks map a device")
  }
}
