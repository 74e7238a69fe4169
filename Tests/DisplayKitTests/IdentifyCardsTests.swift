import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayService

/// The cards `identify` shows, made from heads (names, monitors, mode labels, areas, card
/// rectangles, densities, order): on random X desks (the RandR backend's heads, some CRTCs
/// scaled) and Wayland desks (scaled as RandR and as wlroots round a scaled area), the cards
/// are those a person reviewed once (`Fixtures/golden/identify.txt`).
@Suite struct IdentifyCardsTests {
  @Test func theCardsOnRandomDesks() throws {
    try GoldenDesks.expectGolden("identify", minimum: 150) { try Self.answers($0) }
  }

  /// The cards of an X desk and of a Wayland desk of one seed.
  static func answers(_ seed: UInt64) throws -> String {
    var r = SimRandom(seed: seed)
    let x = ExtrasDeskDraw.xDesk(&r).1
    var wayland = try WireDesk.wayland(seed: seed).bounded().snapshot
    if seed % 2 == 0 { for i in wayland.heads.indices { wayland.heads[i].scaledArea = .logical } }
    return "x: \(said(IdentifyCard.cards(in: x))) || wayland: \(said(IdentifyCard.cards(in: wayland)))"
  }

  static func said(_ cards: [IdentifyCard]) -> String {
    let rect = { (r: Rect) in "\(r.width)x\(r.height)+\(r.x)+\(r.y)" }
    return cards.map {
      "\($0.output) [\($0.monitor ?? "-")] \($0.mode) \(rect($0.area)) card \(rect($0.rect)) density \($0.density)"
    }.joined(separator: "; ")
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
