import DisplayKit

/// The JSON records of the display's state, shared by the control socket (events for
/// subscribers) and the CLI (`outputs --json`, `edid --json`, `watch --json`).
public enum StateJSON {
  /// `{"x", "y", "width", "height"}`, or null.
  public static func rect(_ rect: Rect?) -> JSON {
    JSON.optional(rect) {
      .object([("x", .int($0.x)), ("y", .int($0.y)), ("width", .int($0.width)), ("height", .int($0.height))])
    }
  }

  public static func mode(_ mode: Mode, current: Bool, preferred: Bool) -> JSON {
    .object([
      ("id", .int(Int(mode.id.rawValue))), ("name", .string(mode.name)),
      ("width", .int(mode.width)), ("height", .int(mode.height)),
      ("refresh_hz", .double(rounded(mode.refreshHz, places: 3))),
      ("current", .bool(current)), ("preferred", .bool(preferred)),
      ("interlaced", .bool(mode.isInterlaced)), ("doublescan", .bool(mode.isDoubleScan)),
      ("dot_clock_hz", .int(Int(mode.dotClock))),
    ])
  }

  /// The state of one output, as `outputs --json` and `watch --json` print it.
  public static func output(_ output: Output, in topology: Topology) -> [(String, JSON)] {
    let current = topology.currentMode(of: output)
    let identity = output.identity
    return [
      ("name", .string(output.name)), ("id", .int(Int(output.id.rawValue))),
      ("connected", .bool(output.isConnected)), ("connection", .string(output.connection.rawValue)),
      ("primary", .bool(topology.primary == output.id)),
      ("main", .bool(topology.mainOutput?.id == output.id)),
      ("crtc", rect(topology.geometry(of: output))),
      ("rotation", JSON.optional(topology.activeCrtc(of: output)) { .string($0.rotation.name) }),
      (
        "current_mode",
        JSON.optional(current) { mode($0, current: true, preferred: output.preferredModes.contains($0.id)) }
      ),
      ("mm", .object([("width", .int(output.mmWidth)), ("height", .int(output.mmHeight))])),
      ("non_desktop", .bool(output.nonDesktop)),
      ("identity", JSON.optional(identity) { .object(edid($0)) }),
    ]
  }

  /// The record of one EDID, with keys named as in the shared corpus's `expected.json`.
  public static func edid(_ e: EDID) -> [(String, JSON)] {
    [
      ("manufacturer", .string(e.manufacturer)),
      ("product_code", .int(e.productCode)),
      ("serial_number", JSON.optional(e.serialNumber) { .int(Int($0)) }),
      ("product_name", JSON.optional(e.productName) { .string($0.text) }),
      ("serial_string", JSON.optional(e.serialString) { .string($0.text) }),
      ("edid_version", .string(e.version)),
      ("extension_count", .int(e.extensionCount)),
      ("checksum_ok", .bool(e.checksumOK)),
      ("max_image_size_cm", JSON.optional(e.maxImageSizeCm) { .array([.int($0.width), .int($0.height)]) }),
      (
        "preferred_mode",
        JSON.optional(e.preferredTiming) {
          .object([
            ("width", .int($0.width)), ("height", .int($0.height)),
            ("refresh_hz", .double(rounded($0.refreshHz, places: 3))),
            ("pixel_clock_khz", .int($0.pixelClockKHz)), ("interlaced", .bool($0.interlaced)),
          ])
        }
      ),
      ("manufacture_year", JSON.optional(e.manufactureYear) { .int($0) }),
      ("manufacture_week", JSON.optional(e.manufactureWeek) { .int($0) }),
      ("model_year", JSON.optional(e.modelYear) { .int($0) }),
      ("input_type", .string(e.isDigital ? "digital" : "analog")),
      ("block_count", .int(e.blockCount)),
      ("extension_block_types", .array(e.extensions.map { .string($0.kind.name) })),
      ("extension_checksums_ok", .array(e.extensions.map { .bool($0.checksumOK) })),
      ("display_id", .string(DisplayID(edid: e).rawValue)),
      ("warnings", .array(e.warnings.map { .string($0.description) })),
    ]
  }

  /// An event record: `{"event", "output", "time", ...the output's new state}`, one line of
  /// `watch --json` and of the control socket's event stream.
  public static func event(_ event: TopologyEvent, in topology: Topology, time: String = timestampNow()) -> JSON {
    let state = output(event.output, in: topology).filter { $0.0 != "name" }
    return .object(
      [("event", .string(event.kind.rawValue)), ("output", .string(event.output.name)), ("time", .string(time))]
        + state)
  }
}
