/// Whether a monitor is attached to an output, as the X server reports it.
public enum Connection: String, Hashable, Sendable {
  case connected
  case disconnected
  case unknown
}
