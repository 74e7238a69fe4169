import DisplayKit
import DisplayPorts
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayModel

/// What an apply said, in the terms the daemon logs and re-plans with: each change as its log
/// line names it (the mode by the label the server lists afterwards), in order, the screen, and
/// every refusal, problem and warning as text.
struct OutcomeWords: Equatable, CustomStringConvertible {
  var applied: [String]
  var failed: [String]
  var screen: String?
  var stale: Bool
  var refused: String?
  var rotationRefused: [UInt]
  var transformRefused: [UInt]
  var errors: [String]
  var warnings: [String]

  init(_ outcome: ApplyOutcome, after: Topology) {
    applied = outcome.applied.map { applied in
      let mode = applied.mode.map { after.modes[$0]?.label ?? $0.description } ?? "off"
      return "\(applied.change.outputName) \(mode) at \(applied.change.x),\(applied.change.y)"
    }
    failed = outcome.failed.map { "\($0.change.outputName) \($0.change.outputs.map(\.rawValue)): \($0.reason)" }
    screen = outcome.screen.map { "\($0.width)x\($0.height)" }
    (stale, refused) = (outcome.stale, outcome.refused)
    rotationRefused = outcome.rotationRefused.map(\.rawValue).sorted()
    transformRefused = outcome.transformRefused.map(\.rawValue).sorted()
    errors = outcome.errors.map(\.description)
    warnings = outcome.warnings
  }

  var description: String {
    "applied \(applied) failed \(failed) screen \(screen ?? "-") stale \(stale) refused \(refused ?? "-") "
      + "rotation \(rotationRefused) transform \(transformRefused) errors \(errors) warnings \(warnings)"
  }
}

extension XServerTests {
  /// The daemon's layout on X through the output-management port (`RandRLayout`) does to a
  /// real server what the connection's own apply does, and says it in the same words: each
  /// case runs on two fresh servers of one kind, once each way.
  @Suite struct RandRLayoutServer {
    typealias B = PlanBuilder

    /// One case: how the server is made and prepared, and the plan made from its snapshot.
    struct Case: CustomTestStringConvertible, Sendable {
      var name: String
      var server: @Sendable () throws -> TestXServer
      var prepare: @Sendable (TestXServer) throws -> Void = { _ in }
      var plan: @Sendable (Topology) throws -> Plan
      /// Run on the server after the snapshot, before the apply (another client's change).
      var meanwhile: @Sendable (TestXServer) throws -> Void = { _ in }
      var testDescription: String { name }
    }

    static let cases: [Case] = [
      Case(
        name: "a second monitor lit right of the first, the screen grown",
        server: { try TestXServer.dummy() }, prepare: { try B.lightDummies($0, 1) },
        plan: { t in
          var plan = Plan()
          // DUMMY0 starts at 2048x1536.
          plan.changes = [try B.change(t, "DUMMY1", "800x600", at: 2048, 0)]
          plan.screen = (2848, 1536)
          return plan
        }),
      Case(
        name: "outputs off (main too), the others moved, the primary set",
        server: { try TestXServer.dummy() }, prepare: { try B.lightDummies($0, 2) },
        plan: { t in
          var plan = Plan()
          plan.changes = [
            try B.change(t, "DUMMY0", nil), try B.change(t, "DUMMY2", "1024x768", at: 1024, 0),
            try B.change(t, "DUMMY1", "800x600", at: 0, 0),
          ]
          plan.screen = (2048, 768)
          plan.primary = t.output(named: "DUMMY2")?.id
          return plan
        }),
      Case(
        name: "the rules' plan for a custom mode: made by the apply, logged by the server's name for it",
        server: { try TestXServer.dummy() }, prepare: { try B.lightDummies($0, 1) },
        plan: { t in
          let rule = "{ monitors: [ { match: { output: 'DUMMY1' }, mode: '1600x700@60', custom: true } ] }"
          let config = try Config.parse(Array(rule.utf8), file: "test.json5")
          return Planner(topology: t, config: config).plan(settled: []).plan
        }),
      Case(
        name: "a custom mode the server refuses, with nothing to fall back to, fails its head and rolls back",
        server: { try TestXServer.dummy() },
        prepare: { server in
          try B.lightDummies(server, 1)
          try server.must([
            "xrandr", "--newmode", "displayd-1600x700_60.00", "10", "1600", "1601", "1602", "1603", "700", "701",
            "702", "703",
          ])
        },
        plan: { t in
          let output = try #require(t.output(named: "DUMMY1"))
          var custom = try #require(
            CustomModes.wanted(.sizeRate(width: 1600, height: 700, refresh: 60), .cvt(reduced: false)))
          custom.id = ModeID(rawValue: CustomModes.virtualBase + output.id.rawValue)
          var plan = Plan()
          plan.changes = [try B.change(t, "DUMMY0", "800x600"), try B.change(t, "DUMMY1", nil, at: 800, 0)]
          plan.changes[1].mode = custom.id
          plan.customModes[custom.id] = custom
          plan.screen = (2400, 700)
          return plan
        }),
      Case(
        name: "a plan that leaves the desk dark is refused in the daemon's words",
        server: { try TestXServer.dummy() },
        plan: { t in
          var plan = Plan()
          plan.changes = [try B.change(t, "DUMMY0", nil)]
          return plan
        }),
      Case(
        name: "a scale the server refuses names its CRTC and changes nothing",
        server: { try TestXServer.dummy() },
        plan: { t in
          var plan = Plan()
          plan.changes = [try B.change(t, "DUMMY0", "800x600")]
          plan.changes[0].transform = CrtcTransform(matrix: [1.25, 0, 0, 0, 1.25, 0, 0, 0, 1])
          plan.screen = (1000, 750)
          return plan
        }),
      Case(
        name: "a plan made before another client's change is stale",
        server: { try TestXServer.dummy() }, prepare: { try B.lightDummies($0, 1) },
        plan: { t in
          var plan = Plan()
          plan.changes = [try B.change(t, "DUMMY1", "800x600", at: 1024, 0)]
          return plan
        },
        meanwhile: { try $0.must(["xrandr", "--output", "DUMMY1", "--pos", "0x768"]) }),
      Case(
        name: "a half turn spelled with both reflections keeps RandR's bits",
        server: { try TestXServer.xephyr() },
        plan: { t in
          var plan = Plan()
          plan.changes = [try B.change(t, "default", "1024x768", rotation: [.normal, .reflectX, .reflectY])]
          return plan
        }),
      Case(
        name: "a quarter turn with reflect y keeps RandR's bits, the screen's sides swapped",
        server: { try TestXServer.xephyr() },
        plan: { t in
          var plan = Plan()
          plan.changes = [try B.change(t, "default", "1024x768", rotation: [.left, .reflectY])]
          plan.screen = (768, 1024)
          return plan
        }),
    ]

    /// The outcome in words and the layout afterwards, applying `plan` one way.
    func run(_ c: Case, _ apply: (XConnection, Plan, Topology) throws -> ApplyOutcome) throws -> (
      OutcomeWords, Layout
    ) {
      let server = try c.server()
      try c.prepare(server)
      let t = try B.snapshot(server)
      let plan = try c.plan(t)
      try c.meanwhile(server)
      let outcome = try apply(try XConnection(name: server.display), plan, t)
      let after = try B.snapshot(server)
      return (OutcomeWords(outcome, after: after), Layout(after))
    }

    @Test(arguments: cases)
    func theLayoutThroughThePortDoesWhatTheConnectionDoes(_ c: Case) throws {
      let old = try run(c) { connection, plan, t in try connection.apply(plan, in: t) }
      let new = try run(c) { connection, plan, t in try RandRLayout(connection).apply(plan, in: t) }
      let said =
        !old.0.applied.isEmpty || !old.0.failed.isEmpty || old.0.refused != nil || old.0.stale
        || !old.0.transformRefused.isEmpty
      #expect(said, "\(c.name): the case does something")
      #expect(new.0 == old.0, "\(c.name)\n port: \(new.0)\n connection: \(old.0)")
      #expect(new.1 == old.1, "\(c.name)\n port: \(new.1)\n connection: \(old.1)")
    }

    /// The spelling of a transform reaches the server: both reflections, not a half turn.
    @Test func reflectXYIsSentAsBothReflections() throws {
      let server = try TestXServer.xephyr()
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [try B.change(t, "default", "1024x768", rotation: [.normal, .reflectX, .reflectY])]
      let outcome = try RandRLayout(try XConnection(name: server.display)).apply(plan, in: t)
      #expect(outcome.errors.isEmpty && outcome.applied.count == 1, "\(outcome.errors)")
      let lit = try #require(try B.snapshot(server).crtcs.first { $0.isActive })
      #expect(lit.rotation == [.normal, .reflectX, .reflectY], "\(lit.rotation.rawValue)")
    }

    /// A CRTC that refused a transform is learned by the port: the next plan scaling it is
    /// refused before anything is sent, with the same CRTC named, so the daemon plans it
    /// unscaled either way.
    @Test func aRefusedTransformIsLearnedAndRefusedAgainWithoutSending() throws {
      let server = try TestXServer.dummy()
      let layout = RandRLayout(try XConnection(name: server.display))
      let t = try layout.snapshot(ReadOptions(probe: true))
      var plan = Plan()
      plan.changes = [try B.change(t, "DUMMY0", "800x600")]
      plan.changes[0].transform = CrtcTransform(matrix: [1.25, 0, 0, 0, 1.25, 0, 0, 0, 1])
      plan.screen = (1000, 750)
      let first = try layout.apply(plan, in: t)
      #expect(first.transformRefused == [plan.changes[0].crtc])
      let again = try layout.snapshot()
      let second = try layout.apply(plan, in: again)
      #expect(second.transformRefused == [plan.changes[0].crtc] && second.applied.isEmpty)
      #expect(try layout.snapshot().timestamp == again.timestamp, "nothing was sent")
    }

    /// The bridge quotes the generation the RandR port checks: a configuration made from a
    /// snapshot is not stale against that snapshot.
    @Test func theBridgeQuotesTheManagersGeneration() throws {
      let server = try TestXServer.dummy()
      let connection = try XConnection(name: server.display)
      let t = try connection.readTopology(ReadOptions(probe: true))
      var plan = Plan()
      plan.changes = [try B.change(t, "DUMMY0", "800x600")]
      let configuration = try #require(OutputConfiguration(plan: plan, in: t))
      #expect(configuration.generation == RandROutputManager.generation(t))
      #expect(try RandROutputManager(connection).test(configuration) == .applied)
    }
  }
}
