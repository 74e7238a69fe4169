import DisplaySupport
import Testing

@testable import DisplayModel
@testable import DisplayPorts
@testable import DisplayService
@testable import DisplayX11

/// The daemon's RandR-shaped plans as one wlroots configuration, and the compositor's answer
/// in the daemon's terms: values, no compositor.
struct PlanConfigurationTests {
  /// Two lit heads through the bridge: `A` 1280x720 at 0,0 and `B` 1920x1080 (and 1280x1024).
  static var topology: Topology {
    let modes = [
      HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true),
      HeadMode(width: 1280, height: 1024, refreshMilliHz: 75025),
    ]
    return Topology(
      heads: HeadSnapshot(
        heads: [
          Head(
            name: "A", enabled: true, modes: [HeadMode(width: 1280, height: 720, refreshMilliHz: 60000)],
            currentMode: 0),
          Head(name: "B", enabled: true, modes: modes, currentMode: 0, x: 1280),
        ], generation: 7))
  }

  static func change(_ t: Topology, _ name: String, mode: String?, rotation: Rotation = .normal) throws -> CrtcChange {
    let output = try #require(t.output(named: name))
    let id = try mode.map { label in try #require(t.modes(of: output).first { $0.label == label }?.id, "\(label)") }
    return CrtcChange(
      crtc: try #require(output.crtc), mode: id, x: 0, y: 720, rotation: rotation, outputs: [output.id],
      fallbacks: [], outputName: name)
  }

  @Test func aChangeBecomesItsHeadsModePlaceTransformAndScaleAndANilModeTurnsItOff() throws {
    let t = Self.topology
    var plan = Plan()
    var turned = try Self.change(t, "B", mode: "1280x1024@75.03", rotation: [.left, .reflectX])
    turned.transform = CrtcTransform(matrix: [2, 0, 0, 0, 2, 0, 0, 0, 1])
    plan.changes = [turned, try Self.change(t, "A", mode: nil)]
    let configuration = try #require(OutputConfiguration(plan: plan, in: t))
    #expect(configuration.generation == 7)
    #expect(
      configuration.heads == [
        HeadConfiguration(
          name: "B", enabled: true, mode: .listed(width: 1280, height: 1024, refreshMilliHz: 75025), x: 0, y: 720,
          transform: .flipped90, scale: 2),
        .off("A"),
      ])
  }

  @Test func rotationsAndReflectionsAreTheirWaylandTransforms() {
    #expect(OutputConfiguration.transform(.normal) == .normal)
    #expect(OutputConfiguration.transform(.left) == .rotated90)
    #expect(OutputConfiguration.transform(.inverted) == .rotated180)
    #expect(OutputConfiguration.transform(.right) == .rotated270)
    #expect(OutputConfiguration.transform(.reflectX) == .flipped)
    #expect(OutputConfiguration.transform(.reflectY) == .flipped180)
    #expect(OutputConfiguration.transform([.reflectX, .reflectY]) == .rotated180)
    // The bridge's own mapping read back: every transform survives the round trip.
    for transform in HeadTransform.allCases {
      #expect(OutputConfiguration.transform(Topology.rotation(transform)) == transform, "\(transform)")
    }
  }

  @Test func aChangeOnACrtcOfNoHeadIsNoConfiguration() {
    var plan = Plan()
    plan.changes = [
      CrtcChange(
        crtc: CrtcID(rawValue: 99), mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [],
        outputName: "?")
    ]
    #expect(OutputConfiguration(plan: plan, in: Self.topology) == nil)
  }

  @Test func theCompositorsAnswersAreTheDaemonsOutcomes() throws {
    let t = Self.topology
    var plan = Plan()
    plan.changes = [try Self.change(t, "B", mode: nil)]
    let server = WaylandDisplayServer.desk.server
    let asked = ApplyReport(asked: try #require(OutputConfiguration(plan: plan, in: t)))
    let applied = OutputManagerLayout.outcome(.applied, asked, plan, t, refusedBy: server)
    #expect(applied.applied.count == 1 && applied.errors.isEmpty && !applied.stale)
    #expect(OutputManagerLayout.outcome(.stale, ApplyReport(), plan, t, refusedBy: server).stale)
    let refused = OutputManagerLayout.outcome(
      .refused(ApplyRefusal(problems: [.failed("failed"), .crtcRefusedTransform("B")], notRestored: ["A"])),
      ApplyReport(), plan, t,
      refusedBy: server)
    #expect(refused.applied.isEmpty && !refused.errors.isEmpty)
    // Every problem of the refusal is in the one line, the refused transform too.
    #expect(
      refused.problems == [
        "the compositor refused the configuration: failed; B: its CRTC refused a transform (RRSetCrtcTransform)"
      ])
    #expect(refused.notRestored == ["A"])
    #expect(refused.transformRefused == [try #require(t.output(named: "B")?.crtc)])
  }
}
