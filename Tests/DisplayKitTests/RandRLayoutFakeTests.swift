import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// How the X layout reads the RandR port's answer back into the daemon's outcome, over a
/// double of the server: the daemon's changes and order, its words for a refusal, stale.
@Suite struct RandRLayoutFakeTests {
  typealias B = TopologyBuilder

  /// A, B and C lit in a row (1080p, 1280x1024, 1024x768); CRTCs that cannot turn.
  static var desk: Topology {
    var t = B.topology(["A", "B", "C"], on: ["A": B.m1080, "B": B.m1024, "C": B.m768])
    (t.configTimestamp, t.timestamp) = (5, 6)
    return t
  }

  /// C off, then B and A swapped: the daemon's order, which is not the order RandR's
  /// allocator plans the heads in.
  static func swap(_ t: Topology) -> Plan {
    var plan = Plan()
    let change = { (i: Int, mode: Mode?, x: Int) in
      CrtcChange(
        crtc: t.crtcs[i].id, mode: mode?.id, x: x, y: 0, rotation: .normal,
        outputs: mode == nil ? [] : [t.outputs[i].id],
        fallbacks: [], outputName: t.outputs[i].name)
    }
    plan.changes = [change(1, B.m1024, 0), change(0, B.m1080, 1280), change(2, nil, 0)]
    plan.screen = (3200, 1080)
    return plan
  }

  /// The server ran the manager's plan, turning off first as the connection does; the
  /// outcome names the daemon's changes, offs first, then in the daemon's order. The plan
  /// is made from the daemon's snapshot: nothing is read.
  @Test func whatTheServerRanIsTheDaemonsChangesInItsOrder() throws {
    let t = Self.desk
    let server = FakeRandRServer(t)
    server.answer = { plan in
      var outcome = ApplyOutcome()
      let offs = plan.changes.filter { $0.mode == nil }
      outcome.applied = (offs + plan.changes.filter { $0.mode != nil }).map { ($0, $0.mode) }
      outcome.screen = (3200, 1080)
      return outcome
    }
    let plan = Self.swap(t)
    let outcome = try RandRLayout.apply(plan, in: t, through: RandROutputManager(server: server))
    #expect(server.sent.count == 1)
    #expect(server.reads == 0, "planned from the daemon's snapshot, no read of its own")
    let said = outcome.applied.map { "\($0.change.outputName) \($0.mode.map { "\($0.rawValue)" } ?? "off")" }
    #expect(said == ["C off", "B 2", "A 1"])
    #expect(outcome.applied.map(\.change.crtc) == [plan.changes[2].crtc, plan.changes[0].crtc, plan.changes[1].crtc])
    #expect(outcome.screen.map { [$0.width, $0.height] } == [3200, 1080] && outcome.errors.isEmpty)
  }

  /// A change that failed with every mode is the daemon's change (the rules blame its
  /// outputs), with the server's reason; a refused transform names the daemon's CRTC.
  @Test func aFailedChangeAndARefusedTransformAreTheDaemons() throws {
    let t = Self.desk
    let server = FakeRandRServer(t)
    server.answer = { plan in
      var outcome = ApplyOutcome()
      outcome.failed = plan.changes.filter { $0.crtc == t.crtcs[1].id }.map { ($0, "BadMatch") }
      outcome.notRestored = ["CRTC 201: read back off"]
      return outcome
    }
    let plan = Self.swap(t)
    let outcome = try RandRLayout.apply(plan, in: t, through: RandROutputManager(server: server))
    #expect(outcome.failed.map(\.change.outputs) == [[t.outputs[1].id]])
    #expect(
      outcome.errors.map(\.description) == ["could not configure B: BadMatch", "not restored: CRTC 201: read back off"])
  }

  /// Rotations the CRTCs cannot do are refused before anything is sent, in the words and
  /// order the connection's own check gives, with the daemon's CRTCs to plan unturned.
  @Test func refusedRotationsAreSaidAsTheConnectionSaysThem() throws {
    let t = Self.desk
    let server = FakeRandRServer(t)
    var plan = Self.swap(t)
    plan.changes[0].rotation = .left
    plan.changes[1].rotation = .inverted
    plan.screen = nil
    let outcome = try RandRLayout.apply(plan, in: t, through: RandROutputManager(server: server))
    #expect(server.sent.isEmpty)
    #expect(outcome.refused == XConnection.refusal(of: plan, in: t)?.reason)
    #expect(outcome.refused == "B: its CRTC cannot do left, only normal; A: its CRTC cannot do inverted, only normal")
    #expect(outcome.rotationRefused == [plan.changes[0].crtc, plan.changes[1].crtc])
    #expect(outcome.errors.map(\.description) == ["plan refused: " + (outcome.refused ?? "")])
  }

  /// A server changed since the snapshot answers stale; nothing else is said.
  @Test func aStaleAnswerIsStale() throws {
    let t = Self.desk
    let server = FakeRandRServer(t)
    server.answer = { _ in
      var outcome = ApplyOutcome()
      outcome.stale = true
      return outcome
    }
    let outcome = try RandRLayout.apply(Self.swap(t), in: t, through: RandROutputManager(server: server))
    #expect(outcome.stale && outcome.applied.isEmpty && outcome.errors.isEmpty)
  }

  /// An empty plan and turning off an idle CRTC send nothing, as the connection sends nothing.
  @Test func nothingToChangeSendsNothing() throws {
    var t = Self.desk
    t.crtcs.append(Crtc(id: CrtcID(rawValue: 299)))
    let server = FakeRandRServer(t)
    let manager = RandROutputManager(server: server)
    #expect(try RandRLayout.apply(Plan(), in: t, through: manager).applied.isEmpty)
    var idle = Plan()
    idle.changes = [
      CrtcChange(
        crtc: CrtcID(rawValue: 299), mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [],
        outputName: "")
    ]
    let outcome = try RandRLayout.apply(idle, in: t, through: manager)
    #expect(server.sent.isEmpty && outcome.refused == nil && outcome.errors.isEmpty)
  }

  /// RandR's spelling of a transform survives the bridge: both reflections go out as both
  /// reflections (not the half turn), and the half turn as the half turn.
  @Test(arguments: [
    (Rotation([.normal, .reflectX, .reflectY]), TransformSpelling.reflectedY), (Rotation.inverted, .turned),
    (Rotation([.left, .reflectY]), .reflectedY), (Rotation([.right, .reflectX]), .turned),
  ])
  func theSpellingCrossesTheBridgeAndIsSent(_ rotation: Rotation, _ spelling: TransformSpelling) throws {
    var t = Self.desk
    for i in t.crtcs.indices { t.crtcs[i].rotations = [.normal, .left, .inverted, .right, .reflectX, .reflectY] }
    var plan = Plan()
    plan.changes = [
      CrtcChange(
        crtc: t.crtcs[2].id, mode: B.m768.id, x: 3200, y: 0, rotation: rotation, outputs: [t.outputs[2].id],
        fallbacks: [], outputName: "C")
    ]
    let configuration = try #require(OutputConfiguration(plan: plan, in: t))
    #expect(configuration.heads.map(\.spelling) == [spelling])
    let server = FakeRandRServer(t)
    _ = try RandRLayout.apply(plan, in: t, through: RandROutputManager(server: server))
    #expect(server.sent.first?.changes.map(\.rotation) == [rotation])
  }
}
