import DisplayX11

@testable import DisplayModel

// What a CRTC can do of a rotation asked, for the RandR-shaped reference planners (`Planner`,
// `ProfilePlanner`).
extension Crtc {
  /// The rotation and reflection this CRTC can do of those asked (its `rotations`), and what
  /// it cannot ("rotate left (it can: normal)", "reflect x").
  func fit(_ wanted: Rotation) -> (rotation: Rotation, problems: [TransformRefusal]) {
    let turn = wanted.subtracting([.reflectX, .reflectY])
    let reflect = wanted.intersection([.reflectX, .reflectY])
    var problems: [TransformRefusal] = []
    var result = Rotation.normal
    if !turn.isEmpty, rotations.isSuperset(of: turn) {
      result = turn
    } else if !turn.isEmpty {
      let names = [Rotation.normal, .left, .inverted, .right].filter { rotations.contains($0) }.map(\.name)
      problems.append(.rotate(RotateRequest(rawValue: turn.name) ?? .normal, can: names))
    }
    if rotations.isSuperset(of: reflect) {
      result.formUnion(reflect)
    } else {
      problems.append(.reflect(reflect == [.reflectX, .reflectY] ? "xy" : reflect.contains(.reflectX) ? "x" : "y"))
    }
    return (result, problems)
  }

  /// The warnings for what `fit` could not do on the output's CRTC, naming the output.
  static func fitWarnings(_ output: String, _ problems: [TransformRefusal]) -> [PlanWarning] {
    problems.map { .transformRefused(output: output, $0) }
  }
}
