import DisplayModel
import DisplayPorts

/// What one head is told in a `zwlr_output_configuration_v1`: the port's request resolved
/// against the heads the compositor listed. Pure, so that it is tested with values.
struct PlannedHead: Hashable, Sendable {
  enum Mode: Hashable, Sendable {
    /// Index into the head's listed modes.
    case listed(Int)
    /// `set_custom_mode`: size and refresh in mHz (0: the compositor picks).
    case custom(width: Int32, height: Int32, refreshMilliHz: Int32)
  }

  var name: String
  var enabled: Bool
  var mode: Mode?
  var x: Int32
  var y: Int32
  var transform: Transform
  /// wlroots' logical scale, 1/the config's.
  var logicalScale: Double
}

enum ConfigurationPlan {
  /// Every head of `snapshot` (the protocol wants each one enabled or disabled): as
  /// `configuration` asks, or as it is. Refused, sending nothing, when a head is unknown or
  /// a value cannot be said in the protocol.
  static func plan(
    _ configuration: OutputConfiguration, on snapshot: HeadSnapshot
  ) -> Result<[PlannedHead], ApplyRefusal> {
    let known = Set(snapshot.heads.map(\.name))
    if let unknown = configuration.heads.first(where: { !known.contains($0.name) }) {
      return .failure(ApplyRefusal(reason: "no head named '\(unknown.name)'"))
    }
    var wanted: [String: HeadConfiguration] = [:]
    for head in configuration.heads { wanted[head.name] = head }
    var planned: [PlannedHead] = []
    for head in snapshot.heads {
      switch plan(wanted[head.name] ?? HeadConfiguration(current: head), for: head) {
      case .success(let p): planned.append(p)
      case .failure(let refusal): return .failure(refusal)
      }
    }
    return .success(planned)
  }

  static func plan(_ wanted: HeadConfiguration, for head: Head) -> Result<PlannedHead, ApplyRefusal> {
    guard wanted.enabled else {
      return .success(
        PlannedHead(
          name: head.name, enabled: false, mode: nil, x: 0, y: 0, transform: .normal, logicalScale: 1))
    }
    guard wanted.scale.isFinite, wanted.scale >= 1.0 / 16, wanted.scale <= 16 else {
      return .failure(ApplyRefusal(reason: "\(head.name): scale \(wanted.scale) is outside 1/16...16"))
    }
    guard let x = Int32(exactly: wanted.x), let y = Int32(exactly: wanted.y) else {
      return .failure(ApplyRefusal(reason: "\(head.name): position \(wanted.x),\(wanted.y) is out of range"))
    }
    let mode: PlannedHead.Mode?
    switch resolve(wanted.mode, on: head) {
    case .success(let m): mode = m
    case .failure(let refusal): return .failure(refusal)
    }
    return .success(
      PlannedHead(
        name: head.name, enabled: true, mode: mode, x: x, y: y, transform: wanted.transform,
        logicalScale: 1 / wanted.scale))
  }

  /// A listed mode by size and refresh (0: the head's preferred, else first, of that size;
  /// else the nearest refresh within 1 Hz); a custom one as `set_custom_mode`.
  static func resolve(_ request: HeadModeRequest?, on head: Head) -> Result<PlannedHead.Mode?, ApplyRefusal> {
    switch request {
    case nil:
      return .success(head.currentMode.map(PlannedHead.Mode.listed))
    case .listed(let width, let height, let refresh):
      let sized = head.modes.indices.filter { head.modes[$0].width == width && head.modes[$0].height == height }
      let pick: Int?
      if refresh == 0 {
        pick = sized.first { head.modes[$0].preferred } ?? sized.first
      } else {
        pick = sized.min { abs(head.modes[$0].refreshMilliHz - refresh) < abs(head.modes[$1].refreshMilliHz - refresh) }
          .flatMap { abs(head.modes[$0].refreshMilliHz - refresh) <= 1000 ? $0 : nil }
      }
      if let pick { return .success(.listed(pick)) }
      // Headless and virtual heads list no modes and take any size.
      if head.modes.isEmpty { return custom(width: width, height: height, refresh: refresh, head) }
      return .failure(ApplyRefusal(reason: "\(head.name) lists no mode \(width)x\(height)@\(refresh) mHz"))
    case .custom(let line):
      let refresh = line.mode(id: ModeID(rawValue: 0), name: "").refreshHz * 1000
      return custom(
        width: line.hDisplay, height: line.vDisplay, refresh: refresh.isFinite ? Int(refresh.rounded()) : 0, head)
    }
  }

  /// What a refusal adds when the configuration asked for modes no head lists (the likely
  /// cause: a backend that cannot make them, or not at that rate): ` (custom modes asked
  /// for: DP-1 1280x1024@60.000 Hz)`; empty when it asked for none.
  static func customNote(_ planned: [PlannedHead]) -> String {
    let asked = planned.compactMap { p -> String? in
      guard case .custom(let w, let h, let r) = p.mode else { return nil }
      let rate = r == 0 ? "" : "@" + fixed(Double(r) / 1000, places: 3) + " Hz"
      return "\(p.name) \(w)x\(h)\(rate)"
    }
    return asked.isEmpty ? "" : " (custom modes asked for: " + asked.joined(separator: ", ") + ")"
  }

  private static func custom(width: Int, height: Int, refresh: Int, _ head: Head) -> Result<
    PlannedHead.Mode?, ApplyRefusal
  > {
    guard let w = Int32(exactly: width), let h = Int32(exactly: height), w > 0, h > 0,
      let r = Int32(exactly: max(0, refresh))
    else { return .failure(ApplyRefusal(reason: "\(head.name): mode \(width)x\(height) is out of range")) }
    return .success(.custom(width: w, height: h, refreshMilliHz: r))
  }
}
