import CWayland
import DisplayModel
import DisplayPorts

/// The compositor's answer to one configuration.
final class ConfigurationAnswer {
  enum Outcome { case succeeded, failed, cancelled }
  var outcome: Outcome?
}

extension WaylandOutputManager {
  /// Sends `configuration` as one `zwlr_output_configuration_v1` from its generation's
  /// serial, tests or applies it, and waits for the answer.
  func run(_ configuration: OutputConfiguration, test: Bool) throws(DisplayError) -> ApplyResult {
    try connection.dispatchReady()
    // A generation that is no serial of this compositor's is from another snapshot.
    guard let serial = UInt32(exactly: configuration.generation) else { return .stale }
    let planned: [PlannedHead]
    switch ConfigurationPlan.plan(configuration, on: outputHeads.committed) {
    case .success(let p): planned = p
    case .failure(let refusal): return .refused(refusal)
    }
    guard let config = zwlr_output_manager_v1_create_configuration(outputHeads.manager, serial) else {
      throw .compositor(display: connection.socketName, problem: "cannot create a configuration")
    }
    let answer = ConfigurationAnswer()
    let retained = Unmanaged.passRetained(answer)
    defer { retained.release() }
    zwlr_output_configuration_v1_add_listener(config, &configurationListener, retained.toOpaque())
    let heads = send(planned, into: config)
    if test { zwlr_output_configuration_v1_test(config) } else { zwlr_output_configuration_v1_apply(config) }
    let answered = try connection.wait(seconds: answerSeconds) { answer.outcome != nil }
    heads.forEach { zwlr_output_configuration_head_v1_destroy($0) }
    zwlr_output_configuration_v1_destroy(config)
    guard answered, let outcome = answer.outcome else {
      throw .compositor(
        display: connection.socketName, problem: "no answer to a configuration within \(answerSeconds) s")
    }
    switch outcome {
    case .succeeded:
      // The new state and its `done` come before the roundtrip's answer; sway sends them
      // before `succeeded`, and then nothing is left to wait for.
      if !test, outputHeads.committed.generation == configuration.generation { try connection.roundtrip() }
      return .applied
    case .cancelled:
      return .stale
    case .failed:
      let reason = "the compositor \(test ? "would not accept" : "refused") the configuration"
      return .refused(ApplyRefusal(reason: reason + ConfigurationPlan.customNote(planned)))
    }
  }

  /// The heads' requests; returns the configuration heads to destroy afterwards.
  private func send(_ planned: [PlannedHead], into config: OpaquePointer) -> [OpaquePointer] {
    var made: [OpaquePointer] = []
    for p in planned {
      guard let head = outputHeads.head(named: p.name) else { continue }
      guard p.enabled else {
        zwlr_output_configuration_v1_disable_head(config, head.proxy)
        continue
      }
      guard let ch = zwlr_output_configuration_v1_enable_head(config, head.proxy) else { continue }
      made.append(ch)
      switch p.mode {
      case .listed(let index) where head.modes.indices.contains(index):
        zwlr_output_configuration_head_v1_set_mode(ch, head.modes[index].proxy)
      case .custom(let w, let h, let r):
        zwlr_output_configuration_head_v1_set_custom_mode(ch, w, h, r)
      default:
        break
      }
      zwlr_output_configuration_head_v1_set_position(ch, p.x, p.y)
      zwlr_output_configuration_head_v1_set_transform(ch, Int32(p.transform.rawValue))
      zwlr_output_configuration_head_v1_set_scale(ch, wl_fixed_from_double(p.logicalScale))
    }
    return made
  }
}

private func answer(_ data: UnsafeMutableRawPointer?) -> ConfigurationAnswer? {
  data.map { Unmanaged<ConfigurationAnswer>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var configurationListener = zwlr_output_configuration_v1_listener(
  succeeded: { data, _ in answer(data)?.outcome = .succeeded },
  failed: { data, _ in answer(data)?.outcome = .failed },
  cancelled: { data, _ in answer(data)?.outcome = .cancelled })
