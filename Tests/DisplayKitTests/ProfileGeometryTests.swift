import DisplayKit
import DisplayModel
import DisplayX11
import Testing

/// Rotation, reflection, scale, clones, primary and DPI in profile plans.
@Suite struct ProfileGeometryTests {
  typealias F = ProfileFixtures
  typealias B = TopologyBuilder
  /// eDP-1 and DP-1 lit at 1080p; CRTCs that can turn and reflect every way.
  var pair: Topology {
    var t = F.desk(["eDP-1", "DP-1"], primary: "eDP-1")
    for i in t.crtcs.indices { t.crtcs[i].rotations = [.normal, .left, .right, .inverted, .reflectX, .reflectY] }
    return t
  }

  func change(_ plan: XPlan, _ name: String) throws -> CrtcChange {
    try #require(plan.changes.first { $0.outputName == name && $0.mode != nil }, "\(plan.changes)")
  }

  @Test func aRotatedMonitorGetsTheBitsAndItsSidesSwapped() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, rotate: 'left', reflect: 'x'}]}", on: pair)
    let dp = try change(plan, "DP-1")
    #expect(dp.rotation == [.left, .reflectX] && dp.x == 1920 && dp.transform.isIdentity)
    #expect(plan.screen! == (3000, 1920))
    #expect(rectsAfter(plan, pair)["DP-1"] == "1080x1920+1920+0")
  }

  @Test func aTransformTheCrtcCannotDoFallsBackToTheNearestItCanWithAWarningAndTheRestApplies() throws {
    var t = pair
    t.crtcs[1].rotations = [.normal, .inverted, .reflectY]
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, mode: '1024x768'}, {match: {}, rotate: 'left', reflect: 'x'}]}",
      on: t)
    #expect(
      plan.warnings.map(\.description) == [
        "DP-1 cannot show flipped90 (it can: normal, rotated180, flipped, flipped180); flipped instead"
      ])
    #expect(try change(plan, "DP-1").rotation == [.inverted, .reflectY], "flipped, as this CRTC spells it")
    #expect(try change(plan, "eDP-1").mode == B.m768.id, "the rest of the profile still applies")
  }

  @Test func scaleIsATransformAndAnAreaOfModeSizeTimesTheScale() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 2, scale_filter: 'nearest'}, {match: {}, rotate: 'right', scale: 0.5}]}",
      on: pair)
    let edp = try change(plan, "eDP-1")
    #expect(edp.transform == CrtcTransform(matrix: [2, 0, 0, 0, 2, 0, 0, 0, 1], filter: .nearest))
    let dp = try change(plan, "DP-1")
    #expect(dp.transform.matrix == [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1] && dp.transform.filter == .bilinear)
    #expect(dp.x == 3840, "right of a 3840x2160 area")
    #expect(plan.screen! == (3840 + 540, 2160))
  }

  /// One monitor on a server whose screen is at most 1600x1200 (Xephyr's), CRTCs that turn.
  var small: Topology {
    var t = F.desk(["DP-1"])
    t.crtcs[0].rotations = [.normal, .left, .right, .inverted]
    (t.screen.maxWidth, t.screen.maxHeight) = (1600, 1200)
    return t
  }

  /// Turned a quarter, 1920x1080 needs a 1080x1920 screen and 1280x1024 a 1024x1280 one:
  /// the largest mode that still fits, 1024x768 (768x1024), is taken rather than refusing.
  @Test func aRotatedEntryWithoutAModeTakesTheLargestModeThatFitsTheServersMaximum() throws {
    let plan = try planProfile("{name: 'tall', outputs: [{match: {}, rotate: 'left'}]}", on: small)
    let dp = try change(plan, "DP-1")
    #expect(dp.mode == B.m768.id && dp.rotation == .left)
    #expect(plan.screen! == (768, 1024))
    #expect(
      plan.warnings.map(\.description).contains {
        $0.contains("DP-1: 1920x1080 turned does not fit within the server's maximum screen 1600x1200; 1024x768")
      }, "\(plan.warnings)")
  }

  /// The refusal names what the entry would need at its preferred mode.
  @Test func aRotatedEntryIsRefusedOnlyWhenNoModeFits() throws {
    var t = small
    t.screen.maxHeight = 1000
    let refusal = try #require(
      refusal { try planProfile("{name: 'tall', outputs: [{match: {}, rotate: 'left'}]}", on: t) })
    #expect(refusal == "it needs a 1080x1920 screen, more than the server's maximum 1600x1000")
  }

  /// A mode the entry names is what the user asked for: not replaced by a smaller one.
  @Test func aRotatedEntryWithAModeThatDoesNotFitIsStillRefused() throws {
    let refusal = try #require(
      refusal {
        try planProfile("{name: 'tall', outputs: [{match: {}, rotate: 'left', mode: '1920x1080'}]}", on: small)
      })
    #expect(refusal == "it needs a 1080x1920 screen, more than the server's maximum 1600x1200")
  }

  /// xrandr sends 1.1 as 72089/65536 (truncated) and rounds the far corner up:
  /// 1920 × 1.0999908 = 2111.98 → 2112, where 1920 × 1.1 in doubles would round up to 2113.
  @Test func fractionalScalesRoundLikeXrandr() throws {
    let plan = try planProfile("{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 1.1}, {match: {}}]}", on: pair)
    let edp = try change(plan, "eDP-1")
    let sent = try #require(FixedTransform(edp.transform))
    #expect(sent.matrix[0] == 72089 && sent.matrix[4] == 72089)
    #expect(try change(plan, "DP-1").x == 2112)
    #expect(plan.screen! == (2112 + 1920, 1188))
    let third = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 1.25}, {match: {}}]}", on: pair)
    #expect(try change(third, "DP-1").x == 2400 && third.screen! == (4320, 1350))
  }

  @Test func aCrtcWithoutTransformsGetsScaleOneWithAWarning() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 2}, {match: {}, scale: 2}]}", on: pair,
      noTransform: [pair.crtcs[0].id])
    #expect(plan.warnings.map(\.description) == ["eDP-1 cannot scale; scale 1 instead of 2.0"])
    #expect(plan.warnings == [.cannotScale(output: "eDP-1", scale: 2)], "a value a caller can match on, not only text")
    #expect(plan.changes.map(\.outputName) == ["DP-1"], "eDP-1 is already at scale 1")
    #expect(try change(plan, "DP-1").x == 1920 && plan.screen! == (5760, 2160))
  }

  @Test func sameAsWithEqualModesSharesOneCrtcAndFreesTheOther() throws {
    var t = pair
    t.crtcs[0].possibleOutputs.append(t.outputs[1].id)
    t.outputs[1].possibleCrtcs.append(t.crtcs[0].id)
    let text = "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, position: 'same-as main'}]}"
    let plan = try planProfile(text, on: t)
    #expect(plan.changes.contains { $0.crtc == pair.crtcs[1].id && $0.mode == nil }, "DP-1's own CRTC freed")
    let shared = try #require(plan.changes.first { $0.outputs.count == 2 }, "\(plan.changes)")
    #expect(shared.crtc == pair.crtcs[0].id && Set(shared.outputs) == [pair.outputs[0].id, pair.outputs[1].id])
    #expect(plan.screen! == (1920, 1080))
    #expect(changesNothing(try planProfile(text, on: t.applying(plan))))
    // A CRTC that cannot drive both: each keeps its own, at the same place.
    let apart = try planProfile(text, on: pair)
    let dp = try change(apart, "DP-1")
    #expect(dp.crtc == pair.crtcs[1].id && dp.x == 0 && dp.outputs == [pair.outputs[1].id], "\(apart.changes)")
    #expect(!apart.changes.contains { $0.outputs.count == 2 })
  }

  @Test func sameAsWithAnotherSizeGetsItsOwnCrtcScaledToTheTargetsArea() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, position: 'same-as eDP-1', mode: '1024x768'}]}",
      on: pair)
    let dp = try change(plan, "DP-1")
    #expect(dp.crtc == pair.crtcs[1].id && dp.x == 0 && dp.y == 0 && dp.mode == B.m768.id)
    #expect(dp.transform.matrix[0] == Double(Int(1920.0 / 1024 * 65536)) / 65536)
    #expect(dp.transform.matrix[4] == Double(Int(1080.0 / 768 * 65536)) / 65536)
    #expect(rectsAfter(plan, pair)["DP-1"] == "1920x1080+0+0" && plan.screen! == (1920, 1080))
    let fixedCrtc = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, position: 'same-as eDP-1', mode: '1024x768'}]}",
      on: pair, noTransform: [pair.crtcs[1].id])
    #expect(try change(fixedCrtc, "DP-1").transform.isIdentity)
    #expect(fixedCrtc.warnings.map(\.description).contains { $0.hasPrefix("DP-1: its CRTC does not take transforms") })
    var tiny = pair
    let small = Mode(
      id: ModeID(rawValue: 7), name: "320x200", width: 320, height: 200, dotClock: 12_000_000, hTotal: 400, vTotal: 500)
    tiny.modes[small.id] = small
    tiny.outputs[1].modes = [small.id]
    let far = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 2}, {match: {}, position: 'same-as eDP-1'}]}", on: tiny)
    #expect(try change(far, "DP-1").transform.isIdentity, "3840/320 = 12: beyond the scales a transform may have")
    #expect(far.warnings.map(\.description).contains { $0.contains("too far from its own size") })
  }

  @Test func aPositionAgainstAnEntryThatIsOffIsArrangedWithAWarning() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {}, position: 'right-of eDP-1'}]}",
      on: pair)
    #expect(
      plan.warnings.map(\.description).contains("DP-1: 'right-of eDP-1' names no other lit entry; arranged instead"))
    #expect(try change(plan, "DP-1").x == 0)
  }

  @Test func primaryIsSetOnlyWhenItDiffers() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, primary: true}]}", on: pair)
    #expect(plan.primary == pair.outputs[1].id && plan.changes.isEmpty)
    let same = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, primary: true}, {match: {}}]}", on: pair)
    #expect(changesNothing(same))
  }

  @Test func aNumberForDPISetsThePhysicalSizeFromTheScreensPixels() throws {
    let plan = try planProfile("{name: 'p', dpi: 96, outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}", on: pair)
    // 3840 px / 96 dpi = 40 in = 1016 mm; 1080 px = 285.75 mm → 286.
    #expect(plan.screenMillimetres! == (1016, 286))
  }

  @Test func autoDPIComesFromThePrimaryMonitorsPhysicalSize() throws {
    var t = pair
    (t.outputs[1].mmWidth, t.outputs[1].mmHeight) = (597, 336)  // a 27-inch 1080p: 81.6 dpi
    let plan = try planProfile(
      "{name: 'p', dpi: 'auto', outputs: [{match: {output: 'eDP-1'}}, {match: {}, primary: true}]}", on: t)
    let dpi = 1080 * 25.4 / 336
    #expect(plan.screenMillimetres! == (Int((3840 * 25.4 / dpi).rounded()), 336))
    let edid = F.desk(["eDP-1"], edid: ["eDP-1": F.acer])  // no output size: the EDID's 41x26 cm
    let fromEDID = try planProfile("{name: 'p', dpi: 'auto', outputs: [{match: {}}]}", on: edid)
    #expect(fromEDID.screenMillimetres! == (Int((1920 * 260 / 1080.0).rounded()), 260))
    let none = try planProfile("{name: 'p', dpi: 'auto', outputs: [{match: {}}]}", on: F.desk(["eDP-1"]))
    #expect(
      none.screenMillimetres == nil && none.warnings.map(\.description).contains { $0.contains("no physical size") })
  }

  @Test func autoDPIIgnoresAPhysicalSizeOverTenMetres() throws {
    var t = pair
    // What a server or EDID may claim: 4e9 mm (4000 km) tall.
    (t.outputs[0].mmWidth, t.outputs[0].mmHeight) = (4_000_000_000, 4_000_000_000)
    let plan = try planProfile(
      "{name: 'p', dpi: 'auto', outputs: [{match: {output: 'eDP-1'}, primary: true}, {match: {}}]}", on: t)
    #expect(plan.screenMillimetres == nil, "\(String(describing: plan.screenMillimetres))")
    #expect(
      plan.warnings.map(\.description).contains { $0.contains("no physical size") && $0.contains("10 m") },
      "\(plan.warnings)")
    (t.outputs[0].mmWidth, t.outputs[0].mmHeight) = (10_001, 10_001)
    let wall = try planProfile(
      "{name: 'p', dpi: 'auto', outputs: [{match: {output: 'eDP-1'}, primary: true}, {match: {}}]}", on: t)
    #expect(wall.screenMillimetres == nil)
  }

  /// What the planner or the backend refuses, in its words; nil when it plans.
  func refusal(_ plan: () throws -> XPlan) -> String? {
    do {
      _ = try plan()
      return nil
    } catch let refusal as ApplyRefusal {
      return refusal.reason
    } catch {
      return "\(error)"
    }
  }

  func rectsAfter(_ plan: XPlan, _ t: Topology) -> [String: String] {
    let after = t.applying(plan)
    return Dictionary(
      uniqueKeysWithValues: after.outputs.map { ($0.name, after.geometry(of: $0)?.description ?? "off") })
  }
}
