import DisplayModel
import DisplayX11

/// What the RandR-shaped reference planners make: the plan over RandR's CRTCs, with the
/// warnings beside it and, for a profile, its dpi (`HeadPlan` and `HeadProfilePlan` hold
/// these over heads). Reads and writes the plan's members as its own.
@dynamicMemberLookup
struct ReferencePlan {
  var plan = Plan()
  var warnings: [PlanWarning] = []
  /// A profile's `dpi` (measured for `auto`), whether or not the physical size changes.
  var dpi: Double?

  subscript<T>(dynamicMember path: WritableKeyPath<Plan, T>) -> T {
    get { plan[keyPath: path] }
    set { plan[keyPath: path] = newValue }
  }

  subscript<T>(dynamicMember path: KeyPath<Plan, T>) -> T { plan[keyPath: path] }

  /// A mode the plan names: the topology's, else one it creates.
  func mode(_ id: ModeID, in topology: Topology) -> Mode? { plan.mode(id, in: topology) }
}

extension Topology {
  /// What the server would hold after a reference plan (`after`).
  func applying(_ plan: ReferencePlan) -> Topology { after(plan.plan) }
}

/// The reference plan changes nothing at all (`changesNothing` of its plan).
func changesNothing(_ plan: ReferencePlan) -> Bool { changesNothing(plan.plan) }

extension Topology {
  /// What the server would hold after a reference plan's requests (`after`).
  func after(_ plan: ReferencePlan) -> Topology { after(plan.plan) }
}
