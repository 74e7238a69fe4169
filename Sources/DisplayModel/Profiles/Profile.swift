/// Which way up a monitor's picture is (`rotate`), as xrandr names it.
public enum RotateRequest: String, Hashable, Sendable, CaseIterable {
  case normal, left, right, inverted
}

/// Which axes a monitor's picture is mirrored along (`reflect`).
public enum ReflectRequest: String, Hashable, Sendable, CaseIterable {
  case none, x, y, xy
}

/// A profile's `lid` condition.
public enum LidCondition: String, Hashable, Sendable, CaseIterable {
  case open, closed, any

  public func holds(_ lid: LidState) -> Bool { self == .any || rawValue == lid.rawValue }
}

/// `defaults.lid_closed`: what happens to the built-in panel when no profile matches.
public enum LidClosedAction: String, Hashable, Sendable, CaseIterable {
  /// Leave the panel as it is.
  case ignore
  /// Turn the panel off while the lid is closed and another output is lit.
  case disable
}

/// How a profile lays out the entries without a `position`.
public enum Arrangement: String, Hashable, Sendable, CaseIterable {
  /// Left to right.
  case row
  /// Top to bottom.
  case column
}

/// Where entries of a row (top, middle, bottom) or a column (left, middle, right) line up.
public enum Alignment: String, Hashable, Sendable, CaseIterable {
  case start, center, end
}

/// A profile's `dpi`: the screen's physical size is set so X reports this resolution.
public enum DPISetting: Hashable, Sendable {
  /// From the primary (else first enabled) monitor's physical size.
  case auto
  case fixed(Double)

  /// The values a number may take.
  public static let range = 24.0...2400.0
}

/// Where a profile entry goes: today's positions (whose target may also be an alias of the
/// profile), or `same-as X`, xrandr's clone: the same area of the screen as X.
public enum ProfilePosition: Hashable, Sendable, CustomStringConvertible {
  case at(PositionRequest)
  /// `target` is an alias, an output name, or `main`.
  case sameAs(String)

  /// Parses `same-as <output|alias|main>` or a `PositionRequest`.
  public init?(_ text: String) {
    let words = text.split(separator: " ").map(String.init)
    if words.count == 2, words[0] == "same-as" {
      self = .sameAs(words[1])
    } else if let p = PositionRequest(text) {
      self = .at(p)
    } else {
      return nil
    }
  }

  /// The entry this position depends on, nil for a point.
  public var target: String? {
    switch self {
    case .at(.relative(_, let target)), .sameAs(let target): return target
    case .at(.absolute): return nil
    }
  }

  public var description: String {
    switch self {
    case .at(let p): return p.description
    case .sameAs(let t): return "same-as \(t)"
    }
  }
}

/// One entry of a profile's `outputs`: which monitor, and what it gets.
public struct ProfileOutput: Hashable, Sendable {
  public var match = MonitorMatch()
  /// A name other entries' positions may refer to.
  public var alias: String?
  /// nil: on, unless `lid_closed: "disable"` turns the built-in panel off.
  public var enabled: Bool?
  public var mode = ModeRequest.preferred
  /// nil: laid out by the profile's `arrange`.
  public var position: ProfilePosition?
  /// From `rotate` and `reflect`.
  public var transform = Transform.normal
  /// How the entry spelled `transform` (X sets, and shows, the spelling written).
  public var transformSpelling = TransformSpelling.turned
  /// `xrandr --scale`: the monitor shows an area of its mode size times this.
  public var scale = 1.0
  public var scaleFilter = ScaleFilter.bilinear
  public var primary = false
  /// A profile describes a desk whose monitors extend the desktop: no window by default.
  public var content = ContentKind.none
  /// nil: from the `monitors` rules and `defaults`.
  public var level: WindowLevel?
  public var mirror: MirrorOptions?
  /// `properties` and `touch`.
  public var extras = OutputExtras()
  /// `custom`, `reduced`, `modeline`: a mode displayd makes when the output lacks it.
  public var custom: CustomModeRequest?
  public init() {}

  /// The scales an entry may ask for.
  public static let scales = 0.25...8.0

  /// How messages name this entry: its alias, else its match.
  public var label: String { alias ?? match.summary }
}

/// A layout for the whole desk, chosen when its entries match the connected monitors.
public struct Profile: Hashable, Sendable {
  /// Unique among the config's profiles.
  public var name: String
  public var lid = LidCondition.any
  public var outputs: [ProfileOutput] = []
  public var arrange = Arrangement.row
  public var align = Alignment.start
  /// nil: leave the screen's physical size.
  public var dpi: DPISetting?
  /// Programs run after the profile is applied (`hooks.applied`).
  public var appliedHooks: [[String]] = []

  public init(name: String, outputs: [ProfileOutput] = []) {
    self.name = name
    self.outputs = outputs
  }
}

extension MonitorMatch {
  /// `manufacturer DEL, serial 7MT0186F0X1L`: the fields given, for messages.
  public var summary: String {
    var parts: [String] = []
    if let output { parts.append("output \(output)") }
    if let manufacturer { parts.append("manufacturer \(manufacturer)") }
    if let productName { parts.append("product_name \(productName)") }
    if let productCode { parts.append("product_code \(productCode)") }
    if let serial { parts.append("serial \(serial)") }
    return parts.isEmpty ? "any output" : parts.joined(separator: ", ")
  }

  /// Whether a field holds a glob pattern (or none is given, which matches anything).
  public var hasWildcards: Bool {
    let texts = [output, manufacturer, productName, serial].compactMap { $0 }
    if texts.isEmpty && productCode == nil { return true }
    return texts.contains { $0.contains { "*?[".contains($0) } }
  }
}
