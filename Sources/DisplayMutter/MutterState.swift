import DisplayModel

/// mutter's displays as `org.gnome.Mutter.DisplayConfig.GetCurrentState` gives them: the
/// monitors (a connector with its monitor's vendor, product and serial, and its modes), the
/// logical monitors (a place, a scale, a transform and the monitors that show it) and the
/// serial a configuration must name. Read from an untrusted reply: anything of another
/// shape is a typed problem, and odd numbers (a negative size, a scale of 0) are made sane.
public struct MutterState: Sendable {
  /// One mode of a monitor.
  public struct Mode: Sendable, Equatable {
    /// mutter's id for it (`1920x1080@60.000`), what a configuration names.
    public var id: String
    public var width: Int
    public var height: Int
    public var refreshHz: Double
    /// The scale mutter would give the monitor in this mode.
    public var preferredScale: Double
    /// The scales mutter takes in this mode.
    public var supportedScales: [Double]
    public var current: Bool
    public var preferred: Bool
    public var interlaced: Bool
  }

  /// One monitor: a connector and what is attached to it.
  public struct Monitor: Sendable, Equatable {
    public var connector: String
    /// The PNP vendor id (`DEL`), or what mutter says when the EDID has none (`MetaVendor`).
    public var vendor: String
    public var product: String
    public var serial: String
    public var displayName: String
    public var builtin: Bool
    public var modes: [Mode]
    /// Millimetres; 0 when unknown.
    public var mmWidth: Int
    public var mmHeight: Int
  }

  /// A rectangle of the desk shown by one or more monitors.
  public struct LogicalMonitor: Sendable, Equatable {
    public var x: Int
    public var y: Int
    /// mutter's scale: the monitor's pixels per logical pixel.
    public var scale: Double
    public var transform: Transform
    public var primary: Bool
    public var connectors: [String]
  }

  /// How logical monitors are sized: by their mode divided by the scale (`logical`, mutter's
  /// Wayland default with fractional scaling) or by the mode alone (`physical`).
  public enum LayoutMode: Int, Sendable {
    case logical = 1
    case physical = 2
  }

  public var serial: UInt32
  public var monitors: [Monitor]
  public var logicalMonitors: [LogicalMonitor]
  public var layoutMode: LayoutMode

  /// Why a reply could not be read.
  public struct Malformed: Error, CustomStringConvertible {
    public let description: String
  }


  public init(serial: UInt32, monitors: [Monitor], logicalMonitors: [LogicalMonitor], layoutMode: LayoutMode) {
    (self.serial, self.monitors, self.logicalMonitors, self.layoutMode) = (
      serial, monitors, logicalMonitors, layoutMode
    )
  }

  /// The state in `reply`, the values of `GetCurrentState`'s answer
  /// `(u a((ssss)a(siiddada{sv})a{sv}) a(iiduba(ssss)a{sv}) a{sv})`.
  public init(reply: [BusValue]) throws(Malformed) {
    guard reply.count == 4, case .uint32(let serial) = reply[0], let monitors = reply[1].elements,
      let logical = reply[2].elements, let properties = reply[3].namedValues
    else { throw Malformed(description: "GetCurrentState answered \(reply.map(\.signature).joined())") }
    self.serial = serial
    self.monitors = try monitors.map { value throws(Malformed) in try Self.monitor(value) }
    self.logicalMonitors = try logical.map { value throws(Malformed) in try Self.logicalMonitor(value) }
    let mode = properties["layout-mode"]?.int.flatMap(LayoutMode.init(rawValue:))
    layoutMode = mode ?? .physical
  }

  private static func monitor(_ value: BusValue) throws(Malformed) -> Monitor {
    guard let fields = value.elements, fields.count == 3, let spec = fields[0].elements, spec.count == 4,
      let names = Optional(spec.compactMap(\.string)), names.count == 4, let modes = fields[1].elements,
      let properties = fields[2].namedValues
    else { throw Malformed(description: "a monitor of another shape (\(value.signature))") }
    return Monitor(
      connector: names[0], vendor: names[1], product: names[2], serial: names[3],
      displayName: properties["display-name"]?.string ?? "", builtin: properties["is-builtin"]?.bool ?? false,
      modes: try modes.map { value throws(Malformed) in try mode(value, of: names[0]) },
      mmWidth: max(0, properties["width-mm"]?.int ?? 0), mmHeight: max(0, properties["height-mm"]?.int ?? 0))
  }

  private static func mode(_ value: BusValue, of connector: String) throws(Malformed) -> Mode {
    guard let f = value.elements, f.count == 7, let id = f[0].string, let width = f[1].int, let height = f[2].int,
      let refresh = f[3].double, let properties = f[6].namedValues
    else { throw Malformed(description: "\(connector): a mode of another shape (\(value.signature))") }
    return Mode(
      id: id, width: max(0, width), height: max(0, height), refreshHz: refresh.isFinite ? max(0, refresh) : 0,
      preferredScale: f[4].double.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1,
      supportedScales: (f[5].elements ?? []).compactMap(\.double).filter { $0.isFinite && $0 > 0 },
      current: properties["is-current"]?.bool ?? false, preferred: properties["is-preferred"]?.bool ?? false,
      interlaced: properties["is-interlaced"]?.bool ?? false)
  }

  private static func logicalMonitor(_ value: BusValue) throws(Malformed) -> LogicalMonitor {
    guard let f = value.elements, f.count == 7, let x = f[0].int, let y = f[1].int, let scale = f[2].double,
      let transform = f[3].int, let primary = f[4].bool, let monitors = f[5].elements
    else { throw Malformed(description: "a logical monitor of another shape (\(value.signature))") }
    let connectors = monitors.compactMap { $0.elements?.first?.string }
    return LogicalMonitor(
      x: x, y: y, scale: scale.isFinite && scale > 0 ? scale : 1, transform: Transform(rawValue: transform) ?? .normal,
      primary: primary, connectors: connectors)
  }
}
