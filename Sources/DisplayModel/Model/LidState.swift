/// Whether the laptop's lid is open or closed, as logind reports it. Without logind (no
/// system bus, no `org.freedesktop.login1`) the lid counts as open.
public enum LidState: String, Hashable, Sendable, CaseIterable {
  case open
  case closed
}
