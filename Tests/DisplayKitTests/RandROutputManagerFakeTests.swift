import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// A RandR server as values: a topology, and an apply that answers as told (nothing is
/// drawn). It records the plans sent, so that the output manager's logic (what it plans, how
/// it reads the applier's answer, what it learns) is tested in milliseconds. A claim about
/// what a real server does belongs to the tests against Xorg, Xvnc and Xephyr.
final class FakeRandRServer: RandRServer {
  func takeReconnectsSeen() -> Set<OutputID> {
    defer { reconnectsSeen = [] }
    return reconnectsSeen
  }

  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] {
    released += releases
    return []
  }

  var topology: Topology
  var name = ":fake"
  var randrVersion = (major: 1, minor: 6)
  /// The outputs the server's events said went and came back, taken at the next read.
  var reconnectsSeen: Set<OutputID> = []
  /// The modes released, in order.
  private(set) var released: [ModeRelease] = []
  /// The plans `apply` was sent, in order.
  private(set) var sent: [Plan] = []
  /// The applier's answer to a plan; by default every change in force as planned.
  var answer: (Plan) -> ApplyOutcome = { plan in
    var outcome = ApplyOutcome()
    outcome.applied = plan.changes.map { ($0, $0.mode) }
    return outcome
  }

  /// How many snapshots were read.
  private(set) var reads = 0

  init(_ topology: Topology) { self.topology = topology }

  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology {
    reads += 1
    return topology
  }

  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    sent.append(plan)
    return answer(plan)
  }
}

@Suite struct RandROutputManagerFakeTests {
  typealias B = TopologyBuilder

  /// eDP-1 lit at 1080p; HDMI-1 connected and dark, able to use eDP-1's CRTC too.
  static var desk: Topology {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080])
    t.outputs[1].connection = .connected
    t.outputs[1].possibleCrtcs = [t.crtcs[0].id, t.crtcs[1].id]
    t.crtcs[0].possibleOutputs.append(t.outputs[1].id)
    (t.configTimestamp, t.timestamp) = (5, 6)
    return t
  }

  func configuration(_ t: Topology, _ heads: [HeadConfiguration], primary: String? = nil) -> OutputConfiguration {
    OutputConfiguration(generation: RandROutputManager.generation(t), heads: heads, primary: primary)
  }

  func lit(_ name: String, _ width: Int, _ height: Int, x: Int = 0) -> HeadConfiguration {
    HeadConfiguration(name: name, enabled: true, mode: .listed(width: width, height: height, refreshMilliHz: 0), x: x)
  }

  /// The planners read the screen's limits and millimetres from the heads, not the topology.
  @Test func theHeadsOfATopologySayItsScreenWithItsLimitsAndMillimetres() {
    var t = Self.desk
    t.screen = ScreenSize(
      width: 1920, height: 1080, minWidth: 320, minHeight: 200, maxWidth: 8192, maxHeight: 8192, mmWidth: 508,
      mmHeight: 286)
    let heads = RandROutputManager(server: FakeRandRServer(t)).snapshot(t)
    #expect(heads.screen == t.screen)
  }

  @Test func aHeadTheSameAsAnotherSharesItsCrtcAndTheReportNamesBoth() throws {
    let server = FakeRandRServer(Self.desk)
    let manager = RandROutputManager(server: server)
    var clone = lit("HDMI-1", 1920, 1080)
    clone.sameAs = "eDP-1"
    let (result, report) = try manager.applyReporting(
      configuration(server.topology, [lit("eDP-1", 1920, 1080), clone]))
    #expect(result == .applied)
    let plan = try #require(server.sent.first)
    #expect(plan.changes.count == 1, "one CRTC drives both: \(plan.changes)")
    #expect(plan.changes.first.map { Set($0.outputs) } == Set(server.topology.outputs.map(\.id)))
    #expect(plan.changes.first?.crtc == server.topology.crtcs[0].id)
    #expect(report.description == "eDP-1,HDMI-1 1920x1080@60.00 at 0,0")
  }

  @Test func aCloneWhoseTargetsCrtcCannotDriveItIsLitOnItsOwnAsItsFieldsSay() throws {
    var t = Self.desk
    t.outputs[1].possibleCrtcs = [t.crtcs[1].id]
    let server = FakeRandRServer(t)
    var clone = lit("HDMI-1", 1280, 1024)
    clone.sameAs = "eDP-1"
    #expect(
      try RandROutputManager(server: server).apply(configuration(t, [lit("eDP-1", 1920, 1080), clone])) == .applied)
    let changes = try #require(server.sent.first?.changes)
    #expect(changes.map(\.crtc).sorted { $0.rawValue < $1.rawValue } == t.crtcs.map(\.id))
    #expect(changes.first { $0.crtc == t.crtcs[1].id }?.mode == B.m1024.id)
  }

  /// The fallbacks go with the change, and the report says the mode the server took.
  @Test func theModeTakenAfterARefusalIsTheOneReported() throws {
    let server = FakeRandRServer(Self.desk)
    server.answer = { plan in
      var outcome = ApplyOutcome()
      outcome.applied = plan.changes.map { ($0, $0.fallbacks.first ?? $0.mode) }
      return outcome
    }
    var head = lit("eDP-1", 1920, 1080)
    head.fallbackModes = [
      .listed(width: 1280, height: 1024, refreshMilliHz: 0), .listed(width: 999, height: 9, refreshMilliHz: 0),
      .listed(width: 1024, height: 768, refreshMilliHz: 0),
    ]
    head.x = 0
    let (result, report) = try RandROutputManager(server: server).applyReporting(
      configuration(server.topology, [head, .off("HDMI-1")]))
    #expect(result == .applied)
    #expect(server.sent.first?.changes.first?.fallbacks == [B.m1024.id, B.m768.id], "a mode it lacks is skipped")
    #expect(report.entries.first?.modeLabel == "1280x1024@60.02")
    #expect(report.entries.first?.mode == HeadMode(width: 1280, height: 1024, refreshMilliHz: 60020))
  }

  /// A scale each way is one matrix; a CRTC that refuses it is named, learned, and refused
  /// by `test` from then on, and the head stops offering scaling.
  @Test func aScaleEachWayIsOneMatrixAndARefusalOfItIsLearned() throws {
    let t = Self.desk
    let server = FakeRandRServer(t)
    let manager = RandROutputManager(server: server)
    var head = lit("eDP-1", 1920, 1080)
    (head.scale, head.scaleY) = (1.5, 0.75)
    #expect(try manager.test(configuration(t, [head])) == .applied)
    server.answer = { _ in
      var outcome = ApplyOutcome()
      outcome.transformRefused = [t.crtcs[0].id]
      return outcome
    }
    guard case .refused(let refusal) = try manager.apply(configuration(t, [head])) else {
      Issue.record("applied")
      return
    }
    #expect(server.sent.first?.changes.first?.transform.matrix == [1.5, 0, 0, 0, 0.75, 0, 0, 0, 1])
    #expect(refusal.problems == [.crtcRefusedTransform("eDP-1")])
    #expect(refusal.reason == "eDP-1: its CRTC refused a transform (RRSetCrtcTransform)", "the daemon's words")
    #expect(
      try manager.test(configuration(t, [head])) == .refused(ApplyRefusal(problems: [.crtcRefusedTransform("eDP-1")])))
    #expect(try manager.heads(probe: false).head(named: "eDP-1")?.capabilities.scaling == false)
  }

  @Test func thePhysicalSizeIsTheScreensMillimetres() throws {
    let server = FakeRandRServer(Self.desk)
    var wanted = configuration(server.topology, [lit("eDP-1", 1920, 1080)])
    wanted.physicalSize = PhysicalSize(width: 508, height: 286)
    #expect(try RandROutputManager(server: server).apply(wanted) == .applied)
    #expect(server.sent.first.flatMap { $0.screenMillimetres.map { [$0.width, $0.height] } } == [508, 286])
  }

  @Test func aConfigurationFromAnOlderSnapshotIsStaleAndSendsNothing() throws {
    let server = FakeRandRServer(Self.desk)
    let old = configuration(server.topology, [lit("eDP-1", 1280, 1024)])
    server.topology.timestamp += 1
    #expect(try RandROutputManager(server: server).apply(old) == .stale)
    #expect(server.sent.isEmpty)
  }

  /// What cannot be planned is refused, each problem typed, in the daemon's words.
  @Test func theProblemsAreTypedAndSaidInTheDaemonsWords() throws {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080])
    t.outputs[1].connection = .connected
    t.outputs[1].possibleCrtcs = [t.crtcs[0].id]
    t.screen.maxWidth = 2048
    let server = FakeRandRServer(t)
    var turned = lit("eDP-1", 1920, 1080, x: 200)
    turned.transform = .rotated270
    let result = try RandROutputManager(server: server).apply(configuration(t, [turned, lit("HDMI-1", 1920, 1080)]))
    guard case .refused(let refusal) = result else {
      Issue.record("\(result)")
      return
    }
    #expect(
      refusal.problems == [
        .rotation(head: "eDP-1", reason: "its CRTC cannot do right, only normal"), .noFreeCrtc("HDMI-1"),
      ])
    #expect(refusal.problems.map(\.description).contains("no free CRTC can drive HDMI-1; left dark"))
    #expect(refusal.rotationRefused == ["eDP-1"] && refusal.unlit == ["HDMI-1"])
    #expect(server.sent.isEmpty)
    let wide = try RandROutputManager(server: server).test(configuration(t, [lit("eDP-1", 1920, 1080, x: 200)]))
    #expect(
      wide
        == .refused(
          ApplyRefusal(problems: [.screenTooLarge(width: 2120, height: 1080, maxWidth: 2048, maxHeight: 16384)])))
  }

  /// A change the server refuses with every mode is said as the daemon says it, with what
  /// the rollback did not restore.
  @Test func aFailedChangeIsTheDaemonsLineAndTheRollbackIsReported() throws {
    let server = FakeRandRServer(Self.desk)
    server.answer = { plan in
      var outcome = ApplyOutcome()
      outcome.failed = plan.changes.map { ($0, "BadValue") }
      outcome.notRestored = ["eDP-1"]
      return outcome
    }
    let result = try RandROutputManager(server: server).applyReporting(
      configuration(server.topology, [lit("eDP-1", 1280, 1024)]))
    #expect(
      result.result
        == .refused(
          ApplyRefusal(
            problems: [.failed("could not configure eDP-1: BadValue"), .failed("not restored: eDP-1")],
            notRestored: ["eDP-1"])))
    #expect(result.report.entries.isEmpty)
  }
}

extension Topology {
  /// The heads the RandR backend reads of this desk over the fake server.
  func randrHeads() throws -> HeadSnapshot { try RandROutputManager(server: FakeRandRServer(self)).heads(probe: false) }
}
