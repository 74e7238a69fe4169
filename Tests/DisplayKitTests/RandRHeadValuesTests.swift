import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// The RandR backend's conversions to the port's values, and its planning of a configuration,
/// with values.
@Suite struct RandRHeadValuesTests {
  typealias B = TopologyBuilder
  typealias V = RandRHeadValues

  /// The model's mode flags carry every flag the X protocol names, each to its bit and back;
  /// a bit X does not define is dropped.
  @Test func modeFlagsMapToTheXBitsAndBack() {
    for bit in 0..<14 {
      let x = UInt(1) << bit
      #expect(ModeFlags(xBits: x).xBits == x && ModeFlags(xBits: x) != [], "\(x)")
    }
    #expect(ModeFlags(xBits: 0x10) == .interlace && ModeFlags(xBits: 0x20) == .doubleScan)
    #expect(ModeFlags([.hSyncNegative, .vSyncPositive]).xBits == 0x6)
    #expect(ModeFlags(xBits: 0x4000) == [])
  }

  @Test func refreshIsTheDotClockOverTheTotalsInRoundedMilliHertz() {
    #expect(V.refreshMilliHz(B.m768) == 60004, "65 MHz / (1344 x 806) = 60.0038 Hz")
    #expect(V.refreshMilliHz(B.m1080) == 60000)
    #expect(V.refreshMilliHz(B.m1024) == 60020, "108 MHz / (1688 x 1066) = 60.0197 Hz")
    let interlaced = Mode(
      id: ModeID(rawValue: 9), name: "1920x1080i", width: 1920, height: 1080, dotClock: 74_250_000, hTotal: 2200,
      vTotal: 1125, flags: .interlace)
    #expect(V.refreshMilliHz(interlaced) == 60000, "an interlaced frame is two fields")
    var broken = B.m768
    broken.hTotal = 0
    #expect(V.refreshMilliHz(broken) == 0)
  }

  /// `watch`, the log and the hooks name a mode by its label: a head's is the server's mode's,
  /// even where the refresh rounded to the mHz would round the label's two places the other
  /// way (59.9947 Hz is 59995 mHz, which alone would read 60.00).
  @Test func aHeadModesLabelIsItsServerModesLabelWhereTheRoundedRefreshWouldRoundTheOtherWay() {
    let odd = Mode(
      id: ModeID(rawValue: 9), name: "1000x1000", width: 1000, height: 1000, dotClock: 59_994_700, hTotal: 1000,
      vTotal: 1000)
    let head = V.headMode(odd, preferred: false)
    #expect(head.refreshMilliHz == 59995 && odd.label == "1000x1000@59.99")
    #expect(head.label == odd.label)
    var untimed = head
    untimed.timedRefreshHz = nil
    #expect(untimed.label == "1000x1000@60.00", "a compositor's mode has its mHz only")
    for mode in [B.m768, B.m1080, B.m1024] { #expect(V.headMode(mode, preferred: true).label == mode.label) }
  }

  @Test(
    arguments: [
      (Rotation.normal, Transform.normal), (.left, .rotated90), (.inverted, .rotated180), (.right, .rotated270),
      (Rotation([.normal, .reflectX]), .flipped), (Rotation([.left, .reflectX]), .flipped90),
      (Rotation([.normal, .reflectY]), .flipped180), (Rotation([.left, .reflectY]), .flipped270),
      (Rotation([.normal, .reflectX, .reflectY]), .rotated180), (Rotation([.right, .reflectX, .reflectY]), .rotated90),
      (Rotation([.inverted, .reflectY]), .flipped),
    ] as [(Rotation, Transform)])
  func everyRandRRotationIsOneHeadTransform(_ rotation: Rotation, _ transform: Transform) {
    #expect(V.transform(rotation) == transform)
    #expect(V.rotations(transform).contains(rotation), "one of its two spellings")
  }

  @Test func eachHeadTransformHasTwoSpellingsThatReadBackAsIt() {
    for transform in Transform.allCases {
      let spellings = V.rotations(transform)
      #expect(spellings.count == 2)
      for rotation in spellings { #expect(V.transform(rotation) == transform, "\(rotation.rawValue)") }
    }
    #expect(V.rotations(.rotated90).first == .left, "RandR's left is a quarter turn counter-clockwise")
    #expect(V.rotations(.flipped).first == [.normal, .reflectX])
  }

  @Test func aCrtcThatOnlyReflectsOffersFourTransforms() {
    let dummy = Rotation([.normal, .reflectX, .reflectY])
    #expect(V.transforms(allowed: dummy) == [.normal, .flipped, .flipped180, .rotated180])
    #expect(V.rotation(.rotated180, allowed: dummy) == [.normal, .reflectX, .reflectY])
    #expect(V.rotation(.rotated90, allowed: dummy) == nil)
    #expect(V.transforms(allowed: .normal) == [.normal])
    #expect(V.transforms(allowed: [.normal, .left, .inverted, .right, .reflectX]).count == 8)
  }

  @Test func scaleIsAUniformMatrixBothWays() throws {
    let half = V.crtcTransform(scale: 0.5, filter: .nearest)
    #expect(half.matrix == [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1] && half.filter == .nearest)
    #expect(V.crtcTransform(scale: 1, filter: .nearest) == .identity)
    func read(_ t: CrtcTransform) throws -> CrtcTransform { CrtcTransform(try #require(FixedTransform(t))) }
    #expect(V.scale(try read(half)) == 0.5)
    #expect(V.scale(try read(V.crtcTransform(scale: 1.25, filter: .bilinear))) == 1.25)
    #expect(V.scale(.identity) == 1)
    let shear = FixedTransform(matrix: [65536, 32768, 0, 0, 65536, 0, 0, 0, 65536], filter: "bilinear")
    #expect(V.scale(CrtcTransform(shear)) == 1, "a shear has no one scale")
    let unequal = FixedTransform(matrix: [65536, 0, 0, 0, 131072, 0, 0, 0, 65536], filter: "bilinear")
    #expect(V.scale(CrtcTransform(unequal)) == 1)
  }

  @Test func aListedModeIsTheSameSizeAtTheNearestRefresh() {
    func mode(_ id: UInt, _ clock: UInt64) -> Mode {
      Mode(
        id: ModeID(rawValue: id), name: "1920x1080", width: 1920, height: 1080, dotClock: clock, hTotal: 2200,
        vTotal: 1125)
    }
    let modes = [mode(1, 148_500_000), mode(2, 148_351_648), mode(3, 123_750_000), B.m768]
    #expect(V.nearest(modes, width: 1920, height: 1080, refreshMilliHz: 59950)?.id.rawValue == 2, "59.94 Hz")
    #expect(V.nearest(modes, width: 1920, height: 1080, refreshMilliHz: 50000)?.id.rawValue == 3)
    #expect(V.nearest(modes, width: 1920, height: 1080, refreshMilliHz: 0)?.id.rawValue == 1, "any: the first")
    #expect(V.nearest(modes, width: 1600, height: 900, refreshMilliHz: 60000) == nil)
  }

  // MARK: Planning a configuration

  @Test func aConfigurationBecomesAPlanWithItsCrtcsAndScreen() throws {
    let t = B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m768])
    let hdmi = try #require(t.output(named: "HDMI-1"))
    var connected = t
    connected.outputs[1].connection = .connected
    let configuration = OutputConfiguration(
      generation: 0,
      heads: [
        HeadConfiguration(
          name: "HDMI-1", enabled: true, mode: .listed(width: 1280, height: 1024, refreshMilliHz: 60000), x: 1920),
        .off("DP-1"),
      ])
    let planned = try RandRConfigurationPlanner(connected).plan(configuration).get()
    let lit = try #require(planned.plan.changes.first { $0.mode != nil })
    #expect(lit.crtc == hdmi.possibleCrtcs.first && lit.mode == B.m1024.id && (lit.x, lit.y) == (1920, 0))
    #expect(planned.plan.changes.contains { $0.mode == nil && $0.outputName == "DP-1" })
    #expect(planned.plan.screen.map { ($0.width, $0.height) == (3200, 1080) } == true)
    #expect(planned.crtcNames[lit.crtc] == ["HDMI-1"])
  }

  /// The CRTC of a head the configuration turns off is the allocator's to give: a head that
  /// can only use it gets it, in one change (no separate turning off of it).
  @Test func aCrtcLetGoIsGivenToTheHeadThatNeedsIt() throws {
    var t = B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m768])
    t.outputs[1].connection = .connected
    t.outputs[1].possibleCrtcs = [t.crtcs[0].id]
    t.crtcs[0].possibleOutputs.append(t.outputs[1].id)
    let configuration = OutputConfiguration(
      generation: 0, heads: [.off("eDP-1"), HeadConfiguration(name: "HDMI-1", enabled: true, x: 1024)])
    let planned = try RandRConfigurationPlanner(t).plan(configuration).get()
    let onFirst = planned.plan.changes.filter { $0.crtc == t.crtcs[0].id }
    #expect(onFirst.count == 1 && onFirst.first?.outputs == [t.outputs[1].id], "\(planned.plan.changes)")
    #expect(onFirst.first?.mode == B.m1080.id, "an unlit head without a mode gets its preferred one")
    #expect(planned.crtcNames[t.crtcs[0].id] == ["HDMI-1"])
  }

  @Test func whatCannotBeSentIsRefusedWithEveryReason() throws {
    let t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m768])
    let configuration = OutputConfiguration(
      generation: 0,
      heads: [
        HeadConfiguration(name: "DP-1", enabled: true, mode: .listed(width: 1234, height: 567, refreshMilliHz: 0)),
        HeadConfiguration(name: "eDP-1", enabled: true, transform: .rotated90),
        HeadConfiguration(name: "VGA-9", enabled: true),
      ])
    guard case .failure(let refusal) = RandRConfigurationPlanner(t).plan(configuration) else {
      Issue.record("planned")
      return
    }
    #expect(refusal.reason.contains("DP-1 has no mode 1234x567"))
    #expect(refusal.reason.contains("no head VGA-9"))
    // In xrandr's words, as the daemon logs a refused rotation.
    #expect(refusal.reason.contains("eDP-1: its CRTC cannot do left, only normal"))
    #expect(refusal.problems.contains(.noMode(head: "DP-1", width: 1234, height: 567)))
    #expect(refusal.rotationRefused == ["eDP-1"] && refusal.transformRefused.isEmpty, "a turn is not a scale")
  }

  @Test func aScreenBeyondTheSixteenBitLimitIsRefused() {
    var t = B.topology(["eDP-1"], on: ["eDP-1": B.m1080])
    t.screen.maxWidth = 65535
    let far = OutputConfiguration(generation: 0, heads: [HeadConfiguration(name: "eDP-1", enabled: true, x: 32000)])
    guard case .failure(let refusal) = RandRConfigurationPlanner(t).plan(far) else {
      Issue.record("planned")
      return
    }
    #expect(refusal.reason.contains("needs a 33920x1080 screen, more than the server's maximum 32767x16384"))
  }

  @Test func theGenerationChangesWithEitherTimestamp() {
    var t = B.topology(["eDP-1"], on: ["eDP-1": B.m1080])
    (t.configTimestamp, t.timestamp) = (7, 9)
    let first = RandROutputManager.generation(t)
    t.timestamp = 10
    #expect(RandROutputManager.generation(t) != first)
    t.timestamp = 9
    t.configTimestamp = 8
    #expect(RandROutputManager.generation(t) != first)
  }
}
