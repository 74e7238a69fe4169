import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

@testable import DisplayX11

/// A head whose mode is the planner's default choice, turned so that the mode no longer fits
/// the server's largest screen, as the RandR output manager plans it over a fake server: the
/// largest of its modes that fits, with a warning; a mode asked explicitly, or a default for
/// which no mode fits, refused as the screen check says.
@Suite struct RandROutputManagerFitTests {
  typealias B = TopologyBuilder

  /// DP-1 lit at 1920x1080 (it lists 1280x1024 and 1024x768 too) on a server whose screen is
  /// at most 1600x1200, its CRTC able to turn.
  static var small: Topology {
    var t = ProfileFixtures.desk(["DP-1"])
    t.crtcs[0].rotations = [.normal, .left, .right, .inverted]
    (t.screen.maxWidth, t.screen.maxHeight) = (1600, 1200)
    return t
  }

  static func turned(default isDefault: Bool, x: Int = 0) -> HeadConfiguration {
    HeadConfiguration(
      name: "DP-1", enabled: true, mode: .listed(width: 1920, height: 1080, refreshMilliHz: 0), x: x,
      transform: .rotated90, modeIsDefault: isDefault)
  }

  static func configuration(_ t: Topology, _ heads: [HeadConfiguration]) -> OutputConfiguration {
    OutputConfiguration(generation: RandROutputManager.generation(t), heads: heads)
  }

  /// Turned, 1920x1080 needs 1080x1920 and 1280x1024 1024x1280, both taller than 1200:
  /// 1024x768 (768x1024) is the largest that fits, and the report says why it was taken.
  @Test func aTurnedDefaultModeTooTallForTheServerGivesWayToTheLargestModeThatFits() throws {
    let server = FakeRandRServer(Self.small)
    let manager = RandROutputManager(server: server)
    let wanted = Self.configuration(server.topology, [Self.turned(default: true)])
    #expect(try manager.test(wanted) == .applied)
    let (result, report) = try manager.applyReporting(wanted)
    #expect(result == .applied, "\(result)")
    let change = try #require(server.sent.first?.changes.first)
    #expect(change.mode == B.m768.id && change.rotation == .left && change.fallbacks.isEmpty, "\(change)")
    #expect(server.sent.first?.screen.map { [$0.width, $0.height] } == [768, 1024])
    #expect(report.entries.first?.mode.map { [$0.width, $0.height] } == [1024, 768], "\(report)")
    #expect(
      report.warnings == [
        "DP-1: 1920x1080 turned does not fit within the server's maximum screen 1600x1200; 1024x768 instead"
      ])
  }

  /// A head planner that knows no maximum screen asks again, at each look, for the default
  /// mode the server cannot hold: where the mode it gives way to is the one the head shows,
  /// nothing is sent, and the warning still says why.
  @Test func aDefaultModeGivingWayToTheModeTheHeadShowsSendsNothing() throws {
    var t = Self.small
    (t.crtcs[0].mode, t.crtcs[0].rotation, t.crtcs[0].width, t.crtcs[0].height) = (B.m768.id, .left, 768, 1024)
    (t.screen.width, t.screen.height) = (768, 1024)
    let server = FakeRandRServer(t)
    let (result, report) = try RandROutputManager(server: server).applyReporting(
      Self.configuration(t, [Self.turned(default: true)]))
    #expect(result == .applied && server.sent.isEmpty, "\(server.sent)")
    #expect(report.entries.isEmpty && report.deskSize == nil)
    #expect(report.warnings.first?.hasSuffix("1024x768 instead") == true, "\(report.warnings)")
  }

  /// A mode the configuration asks explicitly is what was asked: refused, not replaced.
  @Test func aTurnedModeAskedExplicitlyThatDoesNotFitIsRefusedAndNothingSent() throws {
    let server = FakeRandRServer(Self.small)
    let result = try RandROutputManager(server: server).apply(
      Self.configuration(server.topology, [Self.turned(default: false)]))
    #expect(
      result
        == .refused(
          ApplyRefusal(problems: [.screenTooLarge(width: 1080, height: 1920, maxWidth: 1600, maxHeight: 1200)])))
    #expect(server.sent.isEmpty)
  }

  /// At most 1000 high, not even 1024x768 turned (768x1024) fits: the refusal names what
  /// the default mode would need, as it did before any mode was tried.
  @Test func aDefaultModeIsRefusedWhenNoneOfTheHeadsModesFits() throws {
    var t = Self.small
    t.screen.maxHeight = 1000
    let server = FakeRandRServer(t)
    let result = try RandROutputManager(server: server).apply(Self.configuration(t, [Self.turned(default: true)]))
    #expect(
      result
        == .refused(
          ApplyRefusal(problems: [.screenTooLarge(width: 1080, height: 1920, maxWidth: 1600, maxHeight: 1000)])))
    #expect(server.sent.isEmpty)
  }

  /// Only the head that is the screen's edge beyond the maximum changes: one that fits keeps
  /// its default mode, and heads keep the places the configuration gives them.
  @Test func aDefaultHeadThatFitsKeepsItsModeBesideOneThatDoesNot() throws {
    var t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1080])
    for i in t.crtcs.indices { t.crtcs[i].rotations = [.normal, .left] }
    (t.screen.maxWidth, t.screen.maxHeight) = (4000, 1200)
    let server = FakeRandRServer(t)
    var flat = Self.turned(default: true)
    (flat.name, flat.transform) = ("eDP-1", .normal)
    let (result, report) = try RandROutputManager(server: server).applyReporting(
      Self.configuration(t, [flat, Self.turned(default: true, x: 1920)]))
    #expect(result == .applied, "\(result)")
    let changes = try #require(server.sent.first?.changes)
    #expect(changes.map(\.mode) == [B.m1080.id, B.m768.id] && changes.map(\.x) == [0, 1920], "\(changes)")
    #expect(server.sent.first?.screen.map { [$0.width, $0.height] } == [1920 + 768, 1080])
    #expect(report.warnings.count == 1 && report.warnings.first?.hasPrefix("DP-1: 1920x1080 turned") == true)
  }

  /// The footprint is scaled too: 1920x1080 at 1.5 covers 2880x1620, 1280x1024 1920x1536,
  /// 1024x768 1536x1152, which fits.
  @Test func aScaledDefaultModeGivesWayToTheLargestWhoseScaledAreaFits() throws {
    let server = FakeRandRServer(Self.small)
    var scaled = Self.turned(default: true)
    (scaled.transform, scaled.scale) = (.normal, 1.5)
    let (result, report) = try RandROutputManager(server: server).applyReporting(
      Self.configuration(server.topology, [scaled]))
    #expect(result == .applied, "\(result)")
    #expect(server.sent.first?.changes.first?.mode == B.m768.id)
    #expect(server.sent.first?.screen.map { [$0.width, $0.height] } == [1536, 1152])
    #expect(
      report.warnings == [
        "DP-1: 1920x1080 does not fit within the server's maximum screen 1600x1200; 1024x768 instead"
      ])
  }

  /// Two heads on one CRTC show one mode: the one taken is one both list. At most 1300 high,
  /// 1280x1024 turned would fit, but HDMI-1 lacks it.
  @Test func aCloneSharingTheCrtcTakesTheLargestModeBothListThatFits() throws {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080])
    t.outputs[1].connection = .connected
    t.outputs[1].modes = [B.m1080.id, B.m768.id]
    t.outputs[1].possibleCrtcs = [t.crtcs[0].id, t.crtcs[1].id]
    t.crtcs[0].possibleOutputs.append(t.outputs[1].id)
    t.crtcs[0].rotations = [.normal, .left]
    (t.screen.maxWidth, t.screen.maxHeight) = (1600, 1300)
    let server = FakeRandRServer(t)
    var panel = Self.turned(default: true)
    panel.name = "eDP-1"
    var clone = panel
    (clone.name, clone.sameAs) = ("HDMI-1", "eDP-1")
    let result = try RandROutputManager(server: server).apply(Self.configuration(t, [panel, clone]))
    #expect(result == .applied, "\(result)")
    let changes = try #require(server.sent.first?.changes)
    #expect(changes.count == 1 && changes.first?.outputs.count == 2, "\(changes)")
    #expect(changes.first?.mode == B.m768.id)
  }
}

extension XServerTests {
  /// The same against Xephyr, whose screen is at most 1600x1200 and which lists no preferred
  /// mode: the profile planner over heads asks its largest, 1600x1200, for an entry without
  /// a mode; turned left that needs a 1200x1600 screen.
  @Suite struct RandROutputManagerFitXephyr {
    typealias B = PlanBuilder

    func geometry(_ server: TestXServer) throws -> String? {
      parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == "default" }?.geometry
    }

    static let tall = "{profiles: [{name: 'tall', outputs: [{match: {output: 'default'}, rotate: 'left'}]}]}"

    /// The profile's plan, from the manager's own snapshot, marks the mode a default; the
    /// server then shows the largest mode that fits turned, 1152x864, and the report says so.
    @Test func aTurnedProfileEntryWithoutAModeIsLitAtTheLargestModeThatFitsXephyr() throws {
      let server = try TestXServer.xephyr(width: 1600, height: 1200)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let config = try Config.parse(Array(Self.tall.utf8), file: "test.json5")
      let profile = try #require(config.profiles.first)
      let assignment = try ProfileMatcher.match(profile, snapshot: snapshot, lid: .open).get()
      let plan = try ProfilePlanner(snapshot: snapshot, config: config).plan(profile, assignment: assignment)
      let head = try #require(plan.configuration.heads.first)
      #expect(head.mode.map(Self.size) == [1600, 1200], "Xephyr's largest")
      #expect(head.modeIsDefault && head.transform == .rotated90)
      let (result, report) = try manager.applyReporting(plan.configuration)
      #expect(result == .applied, "\(result)")
      #expect(
        report.warnings.contains(
          "default: 1600x1200 turned does not fit within the server's maximum screen 1600x1200; 1152x864 instead"),
        "\(report.warnings)")
      #expect(try geometry(server) == "864x1152+0+0")
      let t = try B.snapshot(server)
      #expect((t.screen.width, t.screen.height) == (864, 1152))
    }

    static func size(_ request: HeadModeRequest) -> [Int] {
      if case .listed(let width, let height, _) = request { [width, height] } else { [] }
    }

    /// 1600x1200 asked by name is refused turned, as is a default placed where no mode fits
    /// (1200 down, any mode turned reaches below 1200); the desk stays as it was.
    @Test func anExplicitModeOrADefaultWithNoModeThatFitsIsRefusedOnXephyr() throws {
      let server = try TestXServer.xephyr(width: 1600, height: 1200)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let before = Layout(try B.snapshot(server))
      let mode = HeadModeRequest.listed(width: 1600, height: 1200, refreshMilliHz: 0)
      let asked = HeadConfiguration(name: "default", enabled: true, mode: mode, transform: .rotated90)
      let explicit = try manager.apply(OutputConfiguration(generation: snapshot.generation, heads: [asked]))
      #expect(
        explicit
          == .refused(
            ApplyRefusal(problems: [.screenTooLarge(width: 1200, height: 1600, maxWidth: 1600, maxHeight: 1200)])))
      var low = asked
      (low.y, low.modeIsDefault) = (1200, true)
      let (result, report) = try manager.applyReporting(
        OutputConfiguration(generation: snapshot.generation, heads: [low]))
      #expect(
        result
          == .refused(
            ApplyRefusal(problems: [.screenTooLarge(width: 1200, height: 2800, maxWidth: 1600, maxHeight: 1200)])))
      #expect(report.warnings.isEmpty)
      #expect(Layout(try B.snapshot(server)) == before)
    }
  }
}
