import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayService

/// Identify's cards over RandR's topology: the reference the cards over heads must equal on
/// every desk the heads say alike. A card per output on an active CRTC with a mode, over the
/// CRTC's rectangle, the density its rotation and mode give.
enum TopologyIdentifyCards {
  static func cards(in topology: Topology) -> [IdentifyCard] {
    topology.outputs.compactMap { output -> IdentifyCard? in
      guard let area = topology.geometry(of: output), let mode = topology.currentMode(of: output) else { return nil }
      let edid = output.identity
      let monitor = edid?.productName?.text ?? edid.map { "\($0.manufacturer) monitor" }
      var card = IdentifyCard(
        output: output.name, monitor: monitor, mode: mode.label, area: area,
        rect: IdentifyCard.cardRect(in: area))
      card.density = PlaceholderContent.density(of: output, in: topology)
      return card
    }.sorted { ($0.area.x, $0.area.y, $0.output) < ($1.area.x, $1.area.y, $1.output) }
  }
}

/// The cards `identify` shows, made from heads, are those the topology the heads report
/// gives (names, monitors, mode labels byte for byte, areas, card rectangles, densities, order),
/// on random X desks (the RandR backend's heads of them, some CRTCs scaled) and random
/// Wayland desks (the bridge's topology of a compositor's heads, scaled as RandR and as
/// wlroots round a scaled area): whichever backend, the cards and the daemon's answer stay.
@Suite struct IdentifyCardsOverHeads {
  static let desks = 3000

  /// The seeds whose cards differ, each with both lists, for the failure message.
  static func expectNoneDiffer(_ differ: [(UInt64, [IdentifyCard], [IdentifyCard])], _ what: String) {
    guard let (seed, old, new) = differ.first else { return }
    Issue.record(
      "\(differ.count) of \(desks) \(what) differ; first seed \(seed):\n  topology \(old)\n  heads    \(new)")
  }

  @Test func theRandRBackendsHeadsGiveTheTopologysCardsOnRandomDesks() {
    var differ: [(UInt64, [IdentifyCard], [IdentifyCard])] = []
    var (compared, cards, monitors, scaled) = (0, 0, 0, 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let (t, heads) = ExtrasDeskDraw.xDesk(&r)
      // A scaled CRTC's extent no head mode and scale make: the heads cannot say it.
      guard t.outputs.allSatisfy({ t.geometry(of: $0) == heads.head(named: $0.name)?.rect }) else { continue }
      let (old, new) = (TopologyIdentifyCards.cards(in: t), IdentifyCard.cards(in: heads))
      if old != new { differ.append((seed, old, new)) }
      compared += 1
      cards += new.count
      monitors += new.filter { $0.monitor != nil }.count
      scaled += new.filter { $0.density != 1 }.count
    }
    Self.expectNoneDiffer(differ, "X desks")
    // Enough desks compared, with cards, monitors named and scaled CRTCs among them, for
    // the check to mean something.
    #expect(compared > Self.desks * 9 / 10, "\(compared) compared")
    #expect(
      cards > Self.desks && monitors > Self.desks / 10 && scaled > Self.desks / 20, "\(cards) \(monitors) \(scaled)")
  }

  @Test func waylandHeadsGiveTheirBridgedTopologysCardsOnRandomDesks() throws {
    var differ: [(UInt64, [IdentifyCard], [IdentifyCard])] = []
    var (cards, dense) = (0, 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var (heads, _) = try WireDesk.wayland(seed: seed)
      heads = heads.bounded().snapshot
      if seed % 2 == 0 { for i in heads.heads.indices { heads.heads[i].scaledArea = .logical } }
      let (old, new) = (TopologyIdentifyCards.cards(in: Topology(heads: heads)), IdentifyCard.cards(in: heads))
      if old != new { differ.append((seed, old, new)) }
      cards += new.count
      dense += new.filter { $0.density != 1 }.count
    }
    Self.expectNoneDiffer(differ, "Wayland desks")
    #expect(cards > Self.desks && dense > Self.desks / 10, "\(cards) cards, \(dense) scaled")
  }

  static func head(_ name: String, scale: Double = 1, enabled: Bool = true) -> Head {
    var head = Head(
      name: name, modes: [HeadMode(width: 3840, height: 2160, refreshMilliHz: 59_997)], scaledArea: .logical)
    (head.enabled, head.currentMode, head.scale, head.x) = (enabled, 0, scale, 1920)
    return head
  }

  /// A wlroots head at scale 2 (a head's scale is the area's over the mode's, 0.5) covers
  /// half its mode's size: its card is drawn at two pixels a unit, so that the compositor
  /// shows it pixel for pixel; the mode is named by the bridge's refresh, as the topology
  /// named it.
  @Test func aScaledWaylandHeadsCardIsAtItsDensity() throws {
    let cards = IdentifyCard.cards(in: HeadSnapshot(heads: [Self.head("DP-1", scale: 0.5)]))
    let card = try #require(cards.first)
    #expect(cards.count == 1 && card.output == "DP-1" && card.monitor == nil)
    #expect(card.area == Rect(x: 1920, y: 0, width: 1920, height: 1080) && card.density == 2)
    #expect(card.rect == IdentifyCard.cardRect(in: card.area) && card.mode == "3840x2160@60.00")
  }

  /// A head turned off shows nothing, so it has no card, whatever mode it lists as current.
  @Test func aDisabledHeadHasNoCard() {
    let snapshot = HeadSnapshot(heads: [Self.head("DP-1", enabled: false), Self.head("HDMI-A-1")])
    #expect(IdentifyCard.cards(in: snapshot).map(\.output) == ["HDMI-A-1"])
    #expect(IdentifyCard.cards(in: HeadSnapshot(heads: [Self.head("DP-1", enabled: false)])).isEmpty)
  }
}
