import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

/// The port's answer and report read back as the daemon's outcome (`OutputManagerLayout.outcome`,
/// which the X layout and the port layout share): values, no server.
@Suite struct PortOutcomeTests {
  typealias B = TopologyBuilder
  typealias Entry = ApplyReport.Entry

  /// A, B and C lit in a row (1080p, 1280x1024, 1024x768).
  static let desk = B.topology(["A", "B", "C"], on: ["A": B.m1080, "B": B.m1024, "C": B.m768])

  /// B at 1024x768 (1280x1024 its fallback) first, A moved right of it, C as it is: the
  /// daemon's order.
  static var plan: Plan {
    let t = desk
    let change = { (i: Int, mode: Mode, x: Int, fallbacks: [ModeID]) in
      CrtcChange(
        crtc: t.crtcs[i].id, mode: mode.id, x: x, y: 0, rotation: .normal, outputs: [t.outputs[i].id],
        fallbacks: fallbacks, outputName: t.outputs[i].name)
    }
    var plan = Plan()
    plan.changes = [change(1, B.m768, 0, [B.m1024.id]), change(0, B.m1080, 1280, []), change(2, B.m768, 3200, [])]
    return plan
  }

  static func lit(_ head: String, _ mode: Mode, x: Int, madeMode: UInt64? = nil) -> Entry {
    Entry(
      heads: [head], mode: HeadMode(width: mode.width, height: mode.height, refreshMilliHz: 60000),
      modeLabel: mode.label, modeName: mode.name, madeMode: madeMode, x: x, y: 0)
  }

  /// Each outcome change as the log names it, with its mode's raw id.
  static func said(_ applied: [(change: CrtcChange, mode: ModeID?)]) -> [String] {
    applied.map { "\($0.change.outputName) \($0.mode.map { "\($0.rawValue)" } ?? "off")" }
  }

  /// A change the server would not set: the daemon's change (its outputs are the ones the
  /// rules blame), its reason, what was set before it, and what the rollback left.
  @Test func aFailedHeadIsTheDaemonsChangeWithWhatWasSetBeforeIt() {
    let plan = Self.plan
    let report = ApplyReport(
      entries: [Self.lit("A", B.m1080, x: 1280)], sequential: true,
      failed: [ApplyReport.Failure(heads: ["B"], enabled: true, reason: "BadMatch")])
    let refusal = ApplyRefusal(
      problems: [.failed("could not configure B: BadMatch")], notRestored: ["CRTC 201: read back off"])
    let outcome = OutputManagerLayout.outcome(.refused(refusal), report, plan, Self.desk, refusedBy: nil)
    #expect(Self.said(outcome.applied) == ["A 1"])
    #expect(outcome.failed.map(\.change) == [plan.changes[0]] && outcome.failed.map(\.reason) == ["BadMatch"])
    #expect(outcome.refused == nil && outcome.screen == nil)
    #expect(
      outcome.errors.map(\.description) == ["could not configure B: BadMatch", "not restored: CRTC 201: read back off"])
  }

  /// A head already as asked is the daemon's change; a head set at its fallback is the
  /// daemon's change at that mode; lits set in the server's order come in the daemon's.
  @Test func anUnchangedHeadAndAFallbackAreTheDaemonsChanges() {
    let plan = Self.plan
    let report = ApplyReport(
      entries: [Self.lit("A", B.m1080, x: 1280), Self.lit("B", B.m1024, x: 0)], deskSize: (3200, 1080),
      sequential: true, unchanged: [Self.lit("C", B.m768, x: 3200)])
    let outcome = OutputManagerLayout.outcome(.applied, report, plan, Self.desk, refusedBy: nil)
    #expect(Self.said(outcome.applied) == ["B 2", "A 1"])
    #expect(outcome.applied.map(\.change) == Array(plan.changes[0...1]))
    #expect(outcome.unchanged == [plan.changes[2]])
    #expect(outcome.screen.map { [$0.width, $0.height] } == [3200, 1080] && outcome.errors.isEmpty)
  }

  /// A mode the apply made has an id the daemon's snapshot lacks: the backend's, from the
  /// report; a report without one leaves the id the plan gave the mode.
  @Test func aMadeModeIsTheIdTheBackendGaveIt() throws {
    let t = Self.desk
    var custom = try #require(
      CustomModes.wanted(.sizeRate(width: 1600, height: 700, refresh: 60), .cvt(reduced: false)))
    custom.id = ModeID(rawValue: CustomModes.virtualBase + t.outputs[1].id.rawValue)
    var plan = Plan()
    plan.changes = [
      CrtcChange(
        crtc: t.crtcs[1].id, mode: custom.id, x: 0, y: 0, rotation: .normal, outputs: [t.outputs[1].id],
        fallbacks: [B.m1024.id], outputName: "B")
    ]
    plan.customModes[custom.id] = custom
    let made = ApplyReport(entries: [Self.lit("B", custom, x: 0, madeMode: 0x4a)], sequential: true)
    #expect(Self.said(OutputManagerLayout.outcome(.applied, made, plan, t, refusedBy: nil).applied) == ["B 74"])
    let asked = ApplyReport(entries: [Self.lit("B", custom, x: 0)])
    let outcome = OutputManagerLayout.outcome(.applied, asked, plan, t, refusedBy: "the compositor")
    #expect(outcome.applied.map(\.mode) == [custom.id])
  }

  /// Refused before anything was set: by the backend's own check, the daemon's refused plan
  /// in its plan's order with the CRTCs to plan unturned; by the server, one problem in its
  /// words. What the rollback left is said either way.
  @Test func aRefusalBeforeAnythingWasSetKeepsWhatWasNotRestored() {
    let (plan, t) = (Self.plan, Self.desk)
    let refusal = ApplyRefusal(
      problems: [
        .rotation(head: "A", reason: "its CRTC cannot do left, only normal"),
        .rotation(head: "B", reason: "its CRTC cannot do right, only normal"),
      ], notRestored: ["primary: BadValue"])
    let own = OutputManagerLayout.outcome(.refused(refusal), ApplyReport(), plan, t, refusedBy: nil)
    #expect(own.refused == "B: its CRTC cannot do right, only normal; A: its CRTC cannot do left, only normal")
    #expect(own.rotationRefused == [plan.changes[0].crtc, plan.changes[1].crtc] && own.applied.isEmpty)
    #expect(
      own.errors.map(\.description) == ["plan refused: " + (own.refused ?? ""), "not restored: primary: BadValue"])
    let theirs = OutputManagerLayout.outcome(.refused(refusal), ApplyReport(), plan, t, refusedBy: "the compositor")
    #expect(
      theirs.problems == [
        "the compositor refused the configuration: A: its CRTC cannot do left, only normal; "
          + "B: its CRTC cannot do right, only normal"
      ])
    #expect(theirs.refused == nil && theirs.rotationRefused.isEmpty && theirs.notRestored == ["primary: BadValue"])
  }

  /// A configuration put in force at once is said in the daemon's order, a head turned off
  /// where the daemon's plan turns it off.
  @Test func aConfigurationInForceAtOnceIsInTheDaemonsOrder() {
    let t = Self.desk
    var plan = Self.plan
    plan.changes[1].mode = nil
    plan.changes[1].outputs = []
    let off = Entry(heads: ["A"], mode: nil, modeLabel: nil, x: 0, y: 0)
    let report = ApplyReport(entries: [Self.lit("C", B.m768, x: 3200), Self.lit("B", B.m768, x: 0), off])
    let outcome = OutputManagerLayout.outcome(.applied, report, plan, t, refusedBy: "the compositor")
    #expect(Self.said(outcome.applied) == ["B 3", "A off", "C 3"])
    #expect(outcome.applied.map(\.change) == plan.changes)
  }
}
