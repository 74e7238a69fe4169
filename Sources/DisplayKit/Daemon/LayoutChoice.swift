import DisplayModel

/// A layout chosen by hand: a profile of the config, or a built-in layout.
public enum LayoutChoice: Hashable, Sendable, CustomStringConvertible {
  case profile(String)
  case layout(BuiltinLayout)

  /// `profile 'desk'`, `layout 'mirror'`.
  public var description: String {
    switch self {
    case .profile(let name): return "profile '\(name)'"
    case .layout(let layout): return "layout '\(layout.rawValue)'"
    }
  }
}
