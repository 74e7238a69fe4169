import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// The RandR backend plans from the port's configuration what the daemon's planners plan
/// today: a plan made into a configuration by the bridge and planned again by
/// `RandRConfigurationPlanner` does the same to the server (`PlanEffect`). The planner
/// tests' own plans are checked where they are made (`planProfile`, the rule tests' `plan`);
/// here the lid, clones, scales, custom modes and the dpi on the planner tests' desks, and
/// a few hundred random desks planned by the rules, by profiles and by the lid.
@Suite struct PlanRoundTripTests {
  typealias B = TopologyBuilder

  /// A clone on its target's CRTC comes back as one CRTC driving both: the second head is
  /// `sameAs` the first.
  @Test func aCloneOnItsTargetsCrtcIsSameAsItAndSharesTheCrtcAgain() throws {
    var t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1080])
    t.outputs[1].possibleCrtcs = [t.crtcs[0].id, t.crtcs[1].id]
    t.crtcs[0].possibleOutputs.append(t.outputs[1].id)
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}, position: 'same-as eDP-1'}]}",
      on: t)
    let shared = try #require(plan.changes.first { $0.outputs.count == 2 })
    #expect(shared.crtc == t.crtcs[0].id)
    let configuration = try #require(OutputConfiguration(plan: plan.plan, in: t))
    #expect(configuration.heads.first { $0.name == "DP-1" }?.sameAs == "eDP-1")
    #expect(configuration.heads.first { $0.name == "eDP-1" }?.sameAs == nil)
    #expect(PlanRoundTrip.difference(plan.plan, t) == nil)
  }

  /// A clone scaled to its target's area has a scale each way: `scale` and `scaleY`.
  @Test func aCloneScaledToItsTargetsAreaKeepsBothScales() throws {
    var t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1024])
    t.outputs[1].modes = [B.m1024.id]
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}, position: 'same-as eDP-1'}]}",
      on: t)
    let change = try #require(plan.changes.first { $0.outputs == [t.outputs[1].id] })
    #expect(change.transform.matrix[0] != change.transform.matrix[4], "\(change.transform.matrix)")
    let head = try #require(OutputConfiguration(plan: plan.plan, in: t)?.heads.first { $0.name == "DP-1" })
    #expect(head.scale == change.transform.matrix[0] && head.scaleY == change.transform.matrix[4])
    #expect(PlanRoundTrip.difference(plan.plan, t) == nil)
  }

  /// A profile's dpi sets the screen's millimetres: the configuration's physical size.
  @Test func aProfilesDpiIsThePhysicalSize() throws {
    let t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1080])
    let plan = try planProfile("{name: 'p', dpi: 96, outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}", on: t)
    let mm = try #require(plan.screenMillimetres)
    #expect(
      OutputConfiguration(plan: plan.plan, in: t)?.physicalSize == PhysicalSize(width: mm.width, height: mm.height))
  }

  /// The rules' mode chain down to what fits the maximum screen, with its fallbacks.
  @Test func aRulesModeChainKeepsItsFallbacks() throws {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080])
    t.outputs[1].connection = .connected
    let plan = Planner(topology: t, config: Config()).plan(settled: [])
    let change = try #require(plan.changes.first { $0.outputName == "HDMI-1" })
    #expect(change.fallbacks == [B.m1024.id, B.m768.id])
    let head = try #require(OutputConfiguration(plan: plan.plan, in: t)?.heads.first { $0.name == "HDMI-1" })
    #expect(head.fallbackModes.count == 2)
    #expect(PlanRoundTrip.difference(plan.plan, t) == nil)
  }

  /// The lid closed turns the panel off and moves the rest; opened, the panel comes back.
  @Test func theLidsPlansSurviveTheRoundTrip() throws {
    let laptop = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1080], primary: "eDP-1")
    let disable = try Config.parse(Array("{defaults: {lid_closed: 'disable'}}".utf8), file: "test.json5")
    let closed = LidPolicy.plan(topology: laptop, config: disable, lid: .closed)
    #expect(!closed.changes.isEmpty)
    PlanRoundTrip.expectSame(closed.plan, laptop, "lid closed")
    let after = laptop.after(closed)
    let opened = LidPolicy.plan(topology: after, config: disable, lid: .open)
    #expect(!opened.changes.isEmpty)
    PlanRoundTrip.expectSame(opened.plan, after, "lid opened")
  }

  /// A custom mode the plan makes comes back under its name and timings.
  @Test func aCustomModeComesBackByNameAndTimings() throws {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1080])
    t.screen.maxWidth = 8192
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, mode: '1600x700', custom: true}]}",
      on: t)
    let made = try #require(plan.customModes.values.first)
    let head = try #require(OutputConfiguration(plan: plan.plan, in: t)?.heads.first { $0.name == "HDMI-1" })
    guard case .custom(let line)? = head.mode else {
      Issue.record("\(String(describing: head.mode))")
      return
    }
    #expect(CustomModes.prefix + (line.name ?? "") == made.name)
  }

  @Test(arguments: 0..<400)
  func aRandomDeskPlannedByTheRulesAProfileAndTheLidSurvivesTheRoundTrip(_ seed: Int) throws {
    var random = SimRandom(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
    let t = RandomDesk.topology(&random)
    let rules = try Config.parse(Array(RandomDesk.rules(t, &random).utf8), file: "rules.json5")
    let settled = Set(t.connectedOutputs.filter { _ in random.chance(20) }.map(\.id))
    // The rules planner gives each output a CRTC of its own: on a desk where one CRTC already
    // drives two outputs it can give that CRTC to one of them, leaving the other dark with no
    // change naming it, or set the CRTC twice. Such plans have no one meaning to carry over.
    // It also takes CRTCs main first and never one the plan turns off, where the backend
    // (as the profile planner) takes them in the configuration's order and may reuse one
    // turned off: the same layout can come back on other CRTCs.
    if !t.crtcs.contains(where: { $0.outputs.count > 1 }) {
      let plan = Planner(topology: t, config: rules).plan(settled: settled)
      PlanRoundTrip.expectSame(plan.plan, t, "seed \(seed): rules", otherCrtcs: true)
    }
    let text = RandomDesk.profile(t, &random)
    let config = try Config.parse(Array(text.utf8), file: "profile.json5")
    let lid: LidState = random.chance(30) ? .closed : .open
    if let profile = config.profiles.first,
      case .success(let assignment) = ProfileMatcher.match(profile, topology: t, lid: lid),
      let plan = try? ProfilePlanner(topology: t, config: config, lid: lid).plan(profile, assignment: assignment)
    {
      PlanRoundTrip.expectSame(plan.plan, t, "seed \(seed): \(text)")
    }
    PlanRoundTrip.expectSame(LidPolicy.plan(topology: t, config: config, lid: lid).plan, t, "seed \(seed): lid \(lid)")
  }
}
