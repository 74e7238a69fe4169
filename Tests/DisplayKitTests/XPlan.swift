import DisplayModel
import Testing

@testable import DisplayX11

/// A plan as the daemon makes it on an X server: the product's rule or profile planner on the
/// desk's heads, then the plan over CRTCs the X backend makes of its configuration
/// (`RandRConfigurationPlanner`). Reads the plan's members as its own.
@dynamicMemberLookup
struct XPlan {
  var plan: Plan
  /// The planner's warnings, then the backend's.
  var warnings: [PlanWarning]
  /// The heads the planner configures.
  var configures: Set<String> = []
  /// A profile's `dpi` (measured for `auto`).
  var dpi: Double?

  subscript<T>(dynamicMember path: KeyPath<Plan, T>) -> T { plan[keyPath: path] }

  /// A mode the plan names: the topology's, else one it creates.
  func mode(_ id: ModeID, in topology: Topology) -> Mode? { plan.mode(id, in: topology) }
}

/// Plans a profile (given as JSON5) on a topology, CRTCs in `noTransform` refusing scales;
/// throws when it does not match, the planner refuses it or the backend cannot send it.
func planProfile(
  _ text: String, on t: Topology, config: String = "", lid: LidState = .open, noTransform: Set<CrtcID> = []
) throws -> XPlan {
  let c = try Config.parse(Array("{\(config) profiles: [\(text)]}".utf8), file: "test.json5")
  let profile = try #require(c.profiles.first)
  let snapshot = XPlan.heads(t, noTransform: noTransform)
  let assignment = try ProfileMatcher.match(profile, snapshot: snapshot, lid: lid).get()
  let planned = try ProfilePlanner(snapshot: snapshot, config: c, lid: lid).plan(profile, assignment: assignment)
  let crtcs = try RandRConfigurationPlanner(t, refusing: noTransform).plan(planned.configuration).get()
  return XPlan(
    plan: crtcs.plan, warnings: planned.warnings + crtcs.warnings, configures: planned.configures, dpi: planned.dpi)
}

/// Plans the `monitors` rules on a topology, `settled` heads left as they are; throws when
/// the backend cannot send the configuration.
func planRules(_ t: Topology, _ config: Config, settled: Set<String> = []) throws -> XPlan {
  let planned = RulePlanner(snapshot: XPlan.heads(t), config: config).plan(settled: settled)
  let crtcs = try RandRConfigurationPlanner(t).plan(planned.configuration).get()
  return XPlan(plan: crtcs.plan, warnings: planned.warnings + crtcs.warnings, configures: planned.configures)
}

extension XPlan {
  /// The heads the X backend reports of the desk, CRTCs in `noTransform` refusing scales.
  static func heads(_ t: Topology, noTransform: Set<CrtcID> = []) -> HeadSnapshot {
    var snapshot = HeadSnapshot(topology: t, noTransform: noTransform)
    snapshot.screen = t.screen
    return snapshot
  }
}

/// The plan changes nothing at all: no CRTC, screen size, primary or physical size.
func changesNothing(_ plan: Plan) -> Bool {
  plan.changes.isEmpty && plan.screen == nil && plan.primary == nil && plan.screenMillimetres == nil
}

func changesNothing(_ plan: XPlan) -> Bool { changesNothing(plan.plan) }

extension Topology {
  /// What a server would hold after the plan.
  func applying(_ plan: Plan) -> Topology { after(plan) }
  func applying(_ plan: XPlan) -> Topology { after(plan.plan) }
  func after(_ plan: XPlan) -> Topology { after(plan.plan) }
}
