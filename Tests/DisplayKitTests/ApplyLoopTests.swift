import DisplaySupport
import DisplayX11
import Testing

@testable import DisplayKit
@testable import DisplayModel

/// The one apply loop the rules, profiles, the lid and a restore share, against
/// `FakeDisplayServer` answering what a server does not produce on demand: a stale
/// snapshot, a CRTC refusing a transform or a rotation.
@Suite struct ApplyLoop {
  final class Lines {
    var all: [String] = []
    func has(_ text: String) -> Bool { all.contains { $0.contains(text) } }
  }

  /// eDP-1 lit; HDMI-1 connected and dark; both CRTCs can turn and reflect.
  func desk() -> FakeDisplayServer {
    var t = TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080])
    t.outputs[1].connection = .connected
    for i in t.crtcs.indices { t.crtcs[i].rotations = [.normal, .left, .inverted, .right, .reflectX, .reflectY] }
    return FakeDisplayServer(t)
  }

  func daemon(_ server: FakeDisplayServer, _ config: String, _ lines: Lines) throws -> Daemon {
    let config = try Config.parse(Array(config.utf8), file: "test.json5")
    return try Daemon(
      server: server, surfaces: nil, config: config, log: Logger(level: .debug) { lines.all.append($0) })
  }

  var hdmiCrtc: CrtcID { CrtcID(rawValue: 201) }

  func hdmi(_ plan: Plan) -> CrtcChange? { plan.changes.first { $0.outputName == "HDMI-1" } }

  @Test func aStaleSnapshotIsReadAgainAndPlannedAgain() throws {
    let server = desk()
    let lines = Lines()
    let daemon = try daemon(server, "{}", lines)
    var stale = ApplyOutcome()
    stale.stale = true
    server.answers = [stale]
    try daemon.start()
    #expect(server.plans.count == 2, "the stale plan, then one from the new snapshot")
    #expect(lines.has("the server changed since reconcile 1's snapshot (start-up); planning again"))
    #expect(daemon.topology.output(named: "HDMI-1").flatMap(daemon.topology.geometry(of:)) != nil, "lit")
    #expect(daemon.log.errors == 0)
  }

  @Test func aRefusedTransformIsPlannedUnscaledWithAWarningAndRemembered() throws {
    let server = desk()
    let lines = Lines()
    let daemon = try daemon(server, "{monitors: [{match: {output: 'HDMI-1'}, scale: 2}]}", lines)
    var refused = ApplyOutcome()
    refused.transformRefused = [hdmiCrtc]
    server.answers = [refused]
    try daemon.start()
    #expect(server.plans.count == 2)
    #expect(hdmi(server.plans[0])?.transform.isIdentity == false)
    #expect(hdmi(server.plans[1])?.transform.isIdentity == true, "planned again without the scale")
    #expect(lines.has("HDMI-1: its CRTC refused a transform (RRSetCrtcTransform); scale 1 instead"))
    #expect(server.outputManager.transformRefusing == [hdmiCrtc], "the backend asks that CRTC no scale again")
    #expect(daemon.log.errors == 0)
  }

  /// The rules plan within what a CRTC says it can do; a server that refuses all the same
  /// gets the rule planned again unrotated, as a profile is, not a failed monitor.
  @Test func aRefusedRotationOfARuleIsPlannedUnrotatedWithAWarning() throws {
    let server = desk()
    let lines = Lines()
    let daemon = try daemon(server, "{monitors: [{match: {output: 'HDMI-1'}, rotate: 'left'}]}", lines)
    var refused = ApplyOutcome()
    (refused.rotationRefused, refused.refused) = ([hdmiCrtc], "HDMI-1: its CRTC cannot rotate left")
    server.answers = [refused]
    try daemon.start()
    #expect(server.plans.count == 2)
    #expect(hdmi(server.plans[0])?.rotation == .left && hdmi(server.plans[1])?.rotation == .normal)
    #expect(
      lines.has("reconcile 1 (start-up): HDMI-1: its CRTC cannot rotate left; no rotation for those outputs"))
    #expect(daemon.topology.crtc(hdmiCrtc)?.mode != nil && daemon.log.errors == 0, "lit, and not counted failed")
  }

  @Test func aProfileLearnsARefusedTransformThenARefusedRotationAndIsInForce() throws {
    let server = desk()
    let lines = Lines()
    let profile = """
      {profiles: [{name: 'desk', outputs: [{match: {output: 'eDP-1'}},
        {match: {output: 'HDMI-1'}, rotate: 'left', scale: 2}]}]}
      """
    let daemon = try daemon(server, profile, lines)
    var (transform, rotation) = (ApplyOutcome(), ApplyOutcome())
    transform.transformRefused = [hdmiCrtc]
    (rotation.rotationRefused, rotation.refused) = ([hdmiCrtc], "HDMI-1: its CRTC cannot rotate left")
    server.answers = [transform, rotation]
    try daemon.start()
    #expect(server.plans.count == 3)
    #expect(lines.has("HDMI-1: its CRTC refused a transform (RRSetCrtcTransform); no scale for it"))
    #expect(lines.has("profile 'desk': HDMI-1: its CRTC cannot rotate left; no rotation for those outputs"))
    let last = try #require(hdmi(server.plans[2]))
    #expect(last.rotation == .normal && last.transform.isIdentity)
    #expect(daemon.activeProfile == ActiveProfile(name: "desk", reason: .matched) && daemon.log.errors == 0)
    #expect(lines.has("reconcile 1 (start-up): profile 'desk': "))
  }

  @Test func whatKeptAPlanOutOfForceIsOneListInTheLogsOrderAndWords() {
    let change = CrtcChange(
      crtc: hdmiCrtc, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [], outputName: "HDMI-1")
    var outcome = ApplyOutcome()
    outcome.notRestored = ["screen 1920x1080: refused"]
    outcome.refused = "it would leave no output lit"
    outcome.problems = ["primary HDMI-1: BadMatch"]
    outcome.failed = [(change, "BadValue")]
    #expect(
      outcome.errors.map(\.description) == [
        "could not configure HDMI-1: BadValue", "primary HDMI-1: BadMatch",
        "plan refused: it would leave no output lit",
        "not restored: screen 1920x1080: refused",
      ])
    #expect(ApplyOutcome().errors.isEmpty, "nothing kept it out: in force")
  }
}
