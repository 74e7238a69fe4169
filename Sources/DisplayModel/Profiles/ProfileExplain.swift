/// `check-config`'s account of profiles over a snapshot of heads: which one would be chosen
/// now and why the others are not, and what each output would get, from the head matcher
/// and the head profile planner, as `check-config` prints them on either backend. The
/// screen's size and millimetres are the snapshot's (`HeadSnapshot.screen`; a desk that says
/// none shows the lit area and 0 mm). Pure.
public enum ProfileExplain {
  /// The lid, and whether each profile matches: the first that does is chosen, with its
  /// assignment.
  static func matching<Assignment>(
    _ profiles: [Profile], lid: LidState, _ match: (Profile) -> Result<Assignment, ProfileMismatch>
  ) -> ([String], (Profile, Assignment)?) {
    var lines = ["lid: \(lid.rawValue)"]
    var chosen: (Profile, Assignment)?
    for profile in profiles {
      switch match(profile) {
      case .failure(let why): lines.append("profile '\(profile.name)': does not match: \(why)")
      case .success(let a) where chosen == nil:
        chosen = (profile, a)
        lines.append("profile '\(profile.name)': would be chosen")
      case .success: lines.append("profile '\(profile.name)': matches, but '\(chosen?.0.name ?? "")' comes first")
      }
    }
    return (lines, chosen)
  }

  /// What `monitors` and `defaults` give one connected monitor (`nil`: a rule ignores it).
  static func ruleLine(_ name: String, _ s: MonitorSettings?) -> String {
    guard let s else { return "  \(name): ignored" }
    return "  \(name): mode \(s.mode), position \(s.position), content \(s.content.rawValue)"
  }

  /// What `lid_closed: "disable"` does to the panel.
  static func lidLine(_ panel: String) -> String {
    "  lid_closed disable: \(panel) goes off while the lid is closed and another output is lit"
  }

  public static func lines(config: Config, snapshot: HeadSnapshot, lid: LidState, vendors: PNPVendors = .none)
    -> [String]
  {
    let snapshot = snapshot.bounded().snapshot
    let (lines, chosen) = matching(config.profiles, lid: lid) {
      ProfileMatcher.match($0, snapshot: snapshot, lid: lid, vendors: vendors)
    }
    guard let (profile, assignment) = chosen else {
      return lines + ["no profile matches: the monitors rules and defaults apply"]
        + rules(config, snapshot, vendors)
    }
    do {
      let plan = try ProfilePlanner(snapshot: snapshot, config: config, lid: lid).plan(
        profile, assignment: assignment)
      return lines + ExplainedDesk(snapshot: snapshot, plan: plan).lines(profile, assignment)
    } catch {
      return lines + ["  refused: \(error)"]
    }
  }

  /// Without a profile: what each connected head gets from `monitors` and `defaults`.
  static func rules(_ config: Config, _ snapshot: HeadSnapshot, _ vendors: PNPVendors) -> [String] {
    var lines = snapshot.heads.filter(\.connected).map { ruleLine($0.name, config.settings(for: $0, vendors: vendors)) }
    if config.lidClosed == .disable, let panel = LidPolicy.panel(in: snapshot, config: config) {
      lines.append(lidLine(panel.name))
    }
    return lines
  }
}

/// A desk of heads and a profile's plan for it: what each head shows afterwards.
struct ExplainedDesk {
  let snapshot: HeadSnapshot
  let plan: ProfilePlan

  /// Each entry's head, the screen, the warnings and whether the plan changes anything; a
  /// screen larger than the server takes is refused, as the X server would.
  func lines(_ profile: Profile, _ assignment: ProfileAssignment) -> [String] {
    let (width, height) = screenSize()
    if let s = snapshot.screen, !s.holds(width, height) {
      let (maxW, maxH) = s.largest
      let error = ProfilePlanError.tooLarge(
        profile: profile.name, width: width, height: height, maxWidth: maxW, maxHeight: maxH)
      return ["  refused: \(error)"]
    }
    var lines: [String] = []
    for (entry, name) in zip(profile.outputs, assignment.heads) {
      guard let head = snapshot.head(named: name) else { continue }
      lines.append("  \(name): " + describe(head, entry))
    }
    let mm =
      plan.configuration.physicalSize.map { ($0.width, $0.height) }
      ?? snapshot.screen.map { ($0.mmWidth, $0.mmHeight) } ?? (0, 0)
    lines.append("  screen: \(width)x\(height), \(mm.0)x\(mm.1) mm")
    lines += plan.warnings.map { "  warning: \($0)" }
    if changesNothing(screen: (width, height), mm: mm) { lines.append("  already in force: nothing to change") }
    return lines
  }

  /// The lit area from the origin, at least the screen's smallest.
  func screenSize() -> (width: Int, height: Int) {
    let rects = plan.areas.values
    let w = rects.map { $0.x.addingReportingOverflow($0.width).partialValue }.max() ?? 0
    let h = rects.map { $0.y.addingReportingOverflow($0.height).partialValue }.max() ?? 0
    return (max(snapshot.screen?.minWidth ?? 0, w), max(snapshot.screen?.minHeight ?? 0, h))
  }

  /// No head to change, no primary, and the screen's size and millimetres already these.
  /// The head planner sends a `dpi`'s physical size even when in force (heads do not say it).
  func changesNothing(screen: (Int, Int), mm: (Int, Int)) -> Bool {
    let configuration = plan.configuration
    let current = snapshot.screen.map { (($0.width, $0.height), ($0.mmWidth, $0.mmHeight)) }
    let sameScreen = current.map { $0.0 == screen } ?? true
    let sameMillimetres = configuration.physicalSize == nil || current.map { $0.1 == mm } == true
    return configuration.heads.isEmpty && configuration.primary == nil && sameScreen && sameMillimetres
  }

  /// `1920x1080@60.00 at 0,0, rotate left, scale 1.5, primary, content placeholder`, or `off`.
  func describe(_ head: Head, _ entry: ProfileOutput) -> String {
    let change = plan.configuration.heads.first { $0.name == head.name }
    guard let area = plan.areas[head.name], let shown = shownMode(head, change) else { return "off" }
    let (transform, spelling) = change.map { ($0.transform, $0.spelling) } ?? (head.transform, head.spelling)
    let (rotate, reflect) = transform.words(spelling)
    var parts = ["\(shown.label) at \(area.x),\(area.y)"]
    if rotate != .normal { parts.append("rotate \(rotate.rawValue)") }
    if reflect != .none { parts.append("reflect \(reflect.rawValue)") }
    let turned = transform.swapsAxes ? (shown.height, shown.width) : (shown.width, shown.height)
    if (area.width, area.height) != turned {
      parts.append("showing \(area.width)x\(area.height)")
    }
    let others = sharing(head.name, change)
    if !others.isEmpty { parts.append("same CRTC as " + others.joined(separator: ", ")) }
    if (plan.configuration.primary ?? snapshot.primary) == head.name { parts.append("primary") }
    parts.append("content \(entry.content.rawValue)")
    return parts.joined(separator: ", ")
  }

  /// The heads showing one picture with this one (`same-as` sharing it): the one shown
  /// first, then those showing it, in the configuration's order.
  func sharing(_ name: String, _ change: HeadConfiguration?) -> [String] {
    let root = change?.sameAs ?? name
    let group = [root] + plan.configuration.heads.filter { $0.enabled && $0.sameAs == root }.map(\.name)
    return group.count > 1 ? group.filter { $0 != name } : []
  }

  /// The mode the head shows afterwards: the one asked, else the one it shows now.
  func shownMode(_ head: Head, _ change: HeadConfiguration?) -> ShownMode? {
    guard let change, change.enabled, let request = change.mode else { return head.mode.map(ShownMode.init) }
    return snapshot.shownMode(request, on: head)
  }
}

extension HeadSnapshot {
  /// The mode a request gives the head, with its label as the server lists it: the listed
  /// mode of that size and refresh (any refresh for 0, that rate first); for a mode to make,
  /// the one displayd made before with those timings, which X lists beside any head's
  /// modes, else the made mode (`ModeLine.madeLabel`).
  public func shownMode(_ request: HeadModeRequest, on head: Head) -> ShownMode? {
    switch request {
    case .listed(let w, let h, let milli):
      let sized = head.modes.filter { ($0.width, $0.height) == (w, h) }
      let listed = sized.first { $0.refreshMilliHz == milli } ?? (milli == 0 ? sized.first : nil)
      return listed.map(ShownMode.init)
    case .custom(let line):
      let milli = Int(exactly: (line.mode(id: ModeID(rawValue: 0), name: "").refreshHz * 1000).rounded()) ?? 0
      let made = heads.lazy.flatMap(\.modes).first {
        $0.custom
          && ($0.width, $0.height, $0.dotClockHz, $0.refreshMilliHz) == (
            line.hDisplay, line.vDisplay, line.dotClock, milli
          )
          && $0.name?.hasPrefix(CustomModes.prefix) == true
      }
      return made.map(ShownMode.init) ?? ShownMode(width: line.hDisplay, height: line.vDisplay, label: line.madeLabel)
    }
  }
}

/// A mode's size and its label.
public struct ShownMode: Hashable, Sendable {
  public var width: Int
  public var height: Int
  public var label: String

  public init(width: Int, height: Int, label: String) {
    (self.width, self.height, self.label) = (width, height, label)
  }

  public init(_ mode: HeadMode) { self.init(width: mode.width, height: mode.height, label: mode.label) }
}
