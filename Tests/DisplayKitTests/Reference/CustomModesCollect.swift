@testable import DisplayModel

extension CustomModes {
  /// Every custom mode a plan of the RandR-shaped reference planners (`Planner`,
  /// `ProfilePlanner`) asks the apply to create, by virtual id.
  static func collect(_ chains: [[Mode]]) -> [ModeID: Mode] {
    var result: [ModeID: Mode] = [:]
    for mode in chains.joined() where isVirtual(mode.id) { result[mode.id] = mode }
    return result
  }
}
