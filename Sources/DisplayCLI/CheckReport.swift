import DisplayModel
import DisplaySupport

/// What `check-config` prints: the profile that would be chosen (when the config has
/// profiles), and each connected monitor and what the config gives it. Read from the heads
/// the daemon plans over, so that it says what the daemon would do on either backend;
/// `vendors`: the PNP ids of a make, for rules matching a monitor without an EDID.
public enum CheckReport {
  public static func text(config: Config, snapshot: HeadSnapshot, lid: LidState, vendors: PNPVendors = .none)
    -> String
  {
    guard !config.profiles.isEmpty else {
      var text = text(config: config, snapshot: snapshot, vendors: vendors)
      if config.lidClosed == .disable, let panel = LidPolicy.panel(in: snapshot, config: config) {
        text +=
          "lid \(lid.rawValue): lid_closed disable turns \(printable(panel.name)) off while the lid is closed and another output is lit\n"
      }
      return text
    }
    return printableLines(ProfileExplain.lines(config: config, snapshot: snapshot, lid: lid, vendors: vendors))
  }

  /// Without profiles: each connected monitor and what the `monitors` rules give it.
  public static func text(config: Config, snapshot: HeadSnapshot, vendors: PNPVendors = .none) -> String {
    let snapshot = snapshot.bounded().snapshot
    let plan = RulePlanner(snapshot: snapshot, config: config, vendors: vendors).plan()
    let main = config.mainOutput(in: snapshot, vendors: vendors)
    var lines: [String] = []
    for head in snapshot.heads where head.connected {
      let name =
        head.name + (head.edid.flatMap { try? EDID(bytes: $0) }.map { " [" + EDIDReport.identityLine($0) + "]" } ?? "")
      if head.name == main?.name {
        lines.append("\(name): main output, left as it is")
        continue
      }
      guard let settings = config.settings(for: head, vendors: vendors) else {
        lines.append("\(name): ignored by a rule")
        continue
      }
      if !settings.enabled && plan.configures.contains(head.name) {
        lines.append("\(name): off (enabled: false)")
        continue
      }
      let change = plan.configuration.heads.first { $0.name == head.name && $0.enabled }
      let asked = change?.mode.map { snapshot.shownMode($0, on: head)?.label }
      let shown = asked ?? head.mode?.label
      let place = change.map { "\($0.x),\($0.y)" } ?? head.rect.map { "\($0.x),\($0.y)" } ?? "?"
      lines.append(
        "\(name): mode \(shown ?? "none") (\(settings.mode)) at \(place) (\(settings.position)), "
          + "content \(settings.content.rawValue), level \(settings.level.rawValue)" + layout(change, plan, head))
    }
    for warning in plan.warnings { lines.append("warning: \(warning)") }
    return printableLines(lines)
  }

  /// What a rule's layout keys do to the monitor: its rotation, scale and primary, when any.
  static func layout(_ change: HeadConfiguration?, _ plan: RulePlan, _ head: Head) -> String {
    var words: [String] = []
    if let change {
      let (rotate, reflect) = change.transform.words(change.spelling)
      if rotate != .normal { words.append("rotate \(rotate.rawValue)") }
      if reflect != .none { words.append("reflect \(reflect.rawValue)") }
      // The scale as RandR's 16.16 matrix holds it (`xrandr --scale` truncates): what the
      // desk shows, on either backend.
      let fixed = { (s: Double) in Int(exactly: (s * 65536).rounded(.towardZero)) ?? 65536 }
      let (fx, fy) = (fixed(change.scale), fixed(change.verticalScale))
      if fx != 65536 || fy != 65536 { words.append("scale \(Double(fx) / 65536) (\(change.scaleFilter.rawValue))") }
    }
    if plan.configuration.primary == head.name { words.append("primary") }
    return words.map { ", " + $0 }.joined()
  }
}
