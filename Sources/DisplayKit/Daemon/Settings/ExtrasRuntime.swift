import DisplayModel
import DisplayPorts

/// What the daemon remembers of properties and touch devices between reconciles.
struct ExtrasRuntime {
  /// The config the memory below is for: a new one warns and maps afresh.
  var config: Config?
  /// Warnings given once for this config (an unsupported property, a glob matching nothing).
  var warned: Set<String> = []
  /// The matrix last set on each device, so an unchanged layout sets nothing.
  var matrices: [Int: [Double]] = [:]
  /// Whether XI2 hierarchy events are selected.
  var hierarchy = false
}
