/// Which mode a monitor should get; falls back along preferred, then largest.
public enum ModeRequest: Hashable, Sendable, CustomStringConvertible {
  case preferred
  case highest
  /// Leave an active output's mode alone.
  case keep
  /// The highest refresh rate at this size.
  case size(width: Int, height: Int)
  /// The refresh rate closest to `refresh` (within 0.5 Hz) at this size.
  case sizeRate(width: Int, height: Int, refresh: Double)

  /// Sizes the X protocol can carry (CARD16, and the screen is at most 32767 wide).
  public static let sizes = 1...32767
  /// Refresh rates in Hz: above 0, at most this.
  public static let maxRefresh = 1000.0

  /// Parses `preferred`, `highest`, `keep`, `WxH` or `WxH@R`, within `sizes` and `maxRefresh`.
  public init?(_ text: String) {
    switch text {
    case "preferred": self = .preferred
    case "highest": self = .highest
    case "keep": self = .keep
    default:
      let parts = text.split(separator: "@", omittingEmptySubsequences: false)
      guard parts.count <= 2 else { return nil }
      let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
      guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), Self.sizes.contains(w),
        Self.sizes.contains(h)
      else { return nil }
      if parts.count == 2 {
        guard let r = Double(parts[1]), r > 0, r <= Self.maxRefresh else { return nil }
        self = .sizeRate(width: w, height: h, refresh: r)
      } else {
        self = .size(width: w, height: h)
      }
    }
  }

  public var description: String {
    switch self {
    case .preferred: return "preferred"
    case .highest: return "highest"
    case .keep: return "keep"
    case .size(let w, let h): return "\(w)x\(h)"
    case .sizeRate(let w, let h, let r): return "\(w)x\(h)@\(r)"
    }
  }
}

/// Where a monitor goes: beside another output (or the main one), or at a point.
public enum PositionRequest: Hashable, Sendable, CustomStringConvertible {
  public enum Relation: String, Hashable, Sendable, CaseIterable {
    case rightOf = "right-of", leftOf = "left-of", above, below
  }
  /// `target` is an output name, or `main`.
  case relative(Relation, target: String)
  case absolute(x: Int, y: Int)

  /// Coordinates a point may have: the X protocol's are INT16, and a screen is at most 32767.
  public static let coordinates = 0...32767

  /// Parses `right-of main`, `left-of HDMI-1`, `above main`, `below DP-2` or `X,Y` (each in
  /// `coordinates`).
  public init?(_ text: String) {
    let words = text.split(separator: " ").map(String.init)
    if words.count == 2, let relation = Relation(rawValue: words[0]) {
      self = .relative(relation, target: words[1])
      return
    }
    let xy = text.split(separator: ",").map { Int(Self.trimmingSpaces($0)) }
    guard xy.count == 2, let x = xy[0], let y = xy[1], Self.coordinates.contains(x), Self.coordinates.contains(y)
    else { return nil }
    self = .absolute(x: x, y: y)
  }

  /// `part` without its leading and trailing spaces (no Foundation here: importing it links
  /// ICU's 34 MB of data into every binary).
  static func trimmingSpaces(_ part: Substring) -> Substring {
    var part = part
    while part.first == " " { part.removeFirst() }
    while part.last == " " { part.removeLast() }
    return part
  }

  public var description: String {
    switch self {
    case .relative(let r, let t): return "\(r.rawValue) \(t)"
    case .absolute(let x, let y): return "\(x),\(y)"
    }
  }
}

/// What a monitor's window shows.
public enum ContentKind: String, Hashable, Sendable, CaseIterable {
  case placeholder, mirror, none
}

/// What a mirror shows and how.
public struct MirrorOptions: Hashable, Sendable {
  /// `main`, or an output name.
  public var source = "main"
  public var scale = MirrorScale.fit
  /// Draw the pointer into the mirror.
  public var cursor = true
  public var filter = MirrorFilter.auto
  public init() {}
}

/// How a monitor's window stacks.
public enum WindowLevel: String, Hashable, Sendable, CaseIterable {
  /// A managed window, EWMH full-screen on its monitor when a window manager runs.
  case normal
  /// Kept above others by the window manager (`_NET_WM_STATE_ABOVE`).
  case above
  /// Override-redirect: above everything, unmanaged.
  case overlay
}

/// A colour from `#rgb`, `#rrggbb` or a basic name.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  public init?(_ text: String) {
    if let named = RGBColor.names[text.lowercased()] {
      self = named
      return
    }
    guard text.hasPrefix("#"), text.count == 4 || text.count == 7,
      let v = UInt32(text.dropFirst(), radix: 16)
    else { return nil }
    if text.count == 7 {
      self.init(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF))
    } else {
      self.init(red: UInt8(v >> 8 & 0xF) * 17, green: UInt8(v >> 4 & 0xF) * 17, blue: UInt8(v & 0xF) * 17)
    }
  }

  /// `0x00RRGGBB`, an X pixel value on a 24-bit TrueColor visual.
  public var pixel: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

  public var description: String {
    "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  static let names: [String: RGBColor] = [
    "white": RGBColor(red: 255, green: 255, blue: 255), "black": RGBColor(red: 0, green: 0, blue: 0),
    "red": RGBColor(red: 255, green: 0, blue: 0), "green": RGBColor(red: 0, green: 128, blue: 0),
    "blue": RGBColor(red: 0, green: 0, blue: 255), "gray": RGBColor(red: 128, green: 128, blue: 128),
    "grey": RGBColor(red: 128, green: 128, blue: 128), "yellow": RGBColor(red: 255, green: 255, blue: 0),
  ]
}

/// How the placeholder looks.
public struct PlaceholderStyle: Hashable, Sendable {
  public var text = "<no content>"
  public var background = RGBColor(red: 255, green: 255, blue: 255)
  public var foreground = RGBColor(red: 0, green: 0, blue: 0)
  /// A PNG, scaled to fit behind the text.
  public var image: String?
  /// A line with the output name, monitor name and mode.
  public var details = true
  public init() {}
}

/// What a monitor gets: from `defaults`, overridden field by field by the first matching rule.
public struct MonitorSettings: Hashable, Sendable {
  public var mode: ModeRequest = .preferred
  public var position: PositionRequest = .relative(.rightOf, target: "main")
  public var content: ContentKind = .placeholder
  public var level: WindowLevel = .normal
  public var mirror = MirrorOptions()
  /// From a rule's `enabled`: false turns the output off.
  public var enabled = true
  /// From a rule's `rotate` and `reflect`; nil when it gives neither (the head's stays).
  public var transform: Transform?
  /// How the rule spelled `transform` (X sets, and shows, the spelling written).
  public var transformSpelling = TransformSpelling.turned
  /// From a rule's `scale` and `scale_filter`; nil when it gives none (the transform stays
  /// until the monitor is set anew).
  public var scale: Double?
  public var scaleFilter = ScaleFilter.bilinear
  /// From a rule's `primary`.
  public var primary = false
  /// From a rule's `custom` (and `reduced`) or `modeline`: a mode displayd makes when the
  /// output lacks it.
  public var custom: CustomModeRequest?
  public init() {}
}

/// Which monitors a rule is for: every given field must match.
public struct MonitorMatch: Hashable, Sendable {
  /// A glob over the connector name (`HDMI-*`).
  public var output: String?
  public var manufacturer: String?
  public var productName: String?
  /// The EDID's 16-bit product code.
  public var productCode: Int?
  /// Matches the serial string, or the serial number written in decimal.
  public var serial: String?
  public init() {}
}

/// One entry of `monitors`.
public struct MonitorRule: Hashable, Sendable {
  public var match = MonitorMatch()
  public var mode: ModeRequest?
  public var position: PositionRequest?
  public var content: ContentKind?
  public var level: WindowLevel?
  public var mirror: MirrorOptions?
  /// The daemon leaves a matching monitor alone entirely.
  public var ignore = false
  public var enabled: Bool?
  public var rotate: RotateRequest?
  public var reflect: ReflectRequest?
  public var scale: Double?
  public var scaleFilter: ScaleFilter?
  public var primary: Bool?
  /// `properties` and `touch`.
  public var extras = OutputExtras()
  /// `custom`, `reduced`, `modeline`.
  public var custom: CustomModeRequest?
  public init() {}
}

/// Programs run when monitors come and go: argv lists, run without a shell.
public struct HookConfig: Hashable, Sendable {
  public var connected: [[String]] = []
  public var disconnected: [[String]] = []
  /// A hook still running after this long is killed; within `timeouts`.
  public var timeoutSeconds = 10.0
  /// The time limits a config may give, in seconds (above 0).
  public static let timeouts = 0.0...3600.0
  public init() {}
}

/// The daemon's configuration (`config.json5`).
public struct Config: Hashable, Sendable {
  /// The output to treat as main, overriding the X server's primary.
  public var main: String?
  public var defaults = MonitorSettings()
  public var placeholder = PlaceholderStyle()
  public var monitors: [MonitorRule] = []
  public var hooks = HookConfig()
  /// Layouts for the whole desk, tried in order.
  public var profiles: [Profile] = []
  /// The built-in panel, where its connector's name does not tell (`eDP*`, `LVDS*`, `DSI*`).
  public var panel: String?
  /// `defaults.lid_closed`, used when no profile matches.
  public var lidClosed = LidClosedAction.ignore
  /// Whether a desktop's display manager, when one runs, lays the monitors out (`auto`).
  public var desktop = DesktopPolicy.auto
  /// Seconds a disconnected monitor has to come back before its disconnect is handled (a
  /// monitor going to sleep, a dock's hiccup); 0 handles it at once. Within `graces`.
  public var disconnectGrace = 1.5
  /// The graces a config may give, in seconds.
  public static let graces = 0.0...60.0
  public init() {}

  /// Whether the lid can change what the config lays out: a profile with a `lid` condition, or
  /// `lid_closed: "disable"` (which also governs panel entries of profiles). Otherwise the
  /// daemon does not watch the lid (nor load libsystemd for it) and it counts as open.
  public var usesLid: Bool { lidClosed == .disable || profiles.contains { $0.lid != .any } }

  /// Whether a monitor may show the placeholder by this config (`content: "placeholder"` in
  /// the defaults, a rule or a profile entry). Otherwise the daemon loads no renderer (cairo,
  /// pango) until a picture is drawn: a mirror whose source is gone shows the placeholder.
  public var showsPlaceholders: Bool {
    defaults.content == .placeholder || monitors.contains { $0.content == .placeholder }
      || profiles.contains { $0.outputs.contains { $0.content == .placeholder } }
  }

  /// Whether a monitor may get a surface by its settings (`settings(by:)`): content other
  /// than `none` in the defaults or a rule (a profile's entries are rules of the config the
  /// daemon's windows are made from).
  var showsContent: Bool {
    defaults.content != .none || monitors.contains { ($0.content ?? .none) != .none }
  }

  /// The lid as the daemon counts it for this config: `read()` when the config uses the lid,
  /// else open without reading it.
  public func lid(reading read: () -> LidState) -> LidState { usesLid ? read() : .open }

  /// The settings a rule gives (the defaults for none): nil when it says to ignore the monitor.
  public func settings(by rule: MonitorRule?) -> MonitorSettings? {
    var result = defaults
    guard let rule else { return result }
    if rule.ignore { return nil }
    if let m = rule.mode { result.mode = m }
    if let p = rule.position { result.position = p }
    if let c = rule.content { result.content = c }
    if let l = rule.level { result.level = l }
    if let m = rule.mirror { result.mirror = m }
    if let e = rule.enabled { result.enabled = e }
    if rule.rotate != nil || rule.reflect != nil {
      (result.transform, result.transformSpelling) = Transform.requested(
        rule.rotate ?? .normal, rule.reflect ?? .none)
    }
    if let s = rule.scale { result.scale = s }
    if let f = rule.scaleFilter { result.scaleFilter = f }
    if let p = rule.primary { result.primary = p }
    result.custom = rule.custom
    return result
  }
}

extension MonitorMatch {
  /// Whether the connector `name` (and its EDID, else what the monitor says of itself: its
  /// make, model and serial, `HeadIdentity`) has every field given; string fields are globs.
  public func matches(name: String, _ edid: EDID?, identity: HeadIdentity?) -> Bool {
    if let glob = self.output, !globMatch(glob, name) { return false }
    guard manufacturer != nil || productName != nil || productCode != nil || serial != nil else { return true }
    guard let edid else { return identity?.matches(self) ?? false }
    if let m = manufacturer, !globMatch(m, edid.manufacturer) { return false }
    if let p = productName, !(edid.productName.map { globMatch(p, $0.text) } ?? false) { return false }
    if let c = productCode, c != edid.productCode { return false }
    if let s = serial {
      let texts = [edid.serialString?.text, edid.serialNumber.map { String($0) }].compactMap { $0 }
      if !texts.contains(where: { globMatch(s, $0) }) { return false }
    }
    return true
  }
}
