/// The layouts `profile switch --layout` offers, like the Super+P menu of other systems:
/// computed from the monitors present, not written in the config.
public enum BuiltinLayout: String, CaseIterable, Hashable, Sendable {
  /// Every monitor lit, in a row going right from main.
  case extendRight = "extend-right"
  /// Every monitor lit, in a row going left from main.
  case extendLeft = "extend-left"
  /// Every monitor lit, in a column going up from main.
  case extendAbove = "extend-above"
  /// Every monitor shows main's area.
  case mirror
  /// The built-in panel off, the external monitors in a row.
  case externalOnly = "external-only"
  /// Every monitor but main off.
  case mainOnly = "main-only"

  /// `extend-right, extend-left, ...`, for messages.
  public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Why a built-in layout cannot be had with the monitors present.
public enum LayoutRefusal: Error, Hashable, Sendable, CustomStringConvertible {
  case noMonitors
  /// `external-only` without a built-in panel (`eDP*`, `LVDS*`, `DSI*` or `panel`).
  case noPanel
  /// `external-only` with nothing connected but the panel.
  case noExternal(panel: String)

  public var description: String {
    switch self {
    case .noMonitors: return "no monitor is connected"
    case .noPanel: return "no built-in panel is connected (eDP*, LVDS*, DSI*, or the one `panel` names)"
    case .noExternal(let panel): return "no external monitor is connected (only the panel \(panel))"
    }
  }
}
