// The head planner's rules for main, `rotate`/`reflect`, `scale`, `enabled`, `primary`, and
// what it sends for the heads it does not plan.
extension RulePlanner {
  /// The transform a rule asks (`rotate`, `reflect`); nil when it asks none. The one place
  /// the head planner reads the rule's rotation.
  static func wantedTransform(_ settings: MonitorSettings) -> Transform? { settings.transform }

  /// The transform a head gets: the rule's when the head can show it, else the nearest it
  /// can (the turn without the flip, the flip without the turn, none) with a warning; the
  /// head's own when the rule asks none; none for a head in `noRotation`.
  func transform(_ head: Head, _ settings: MonitorSettings, _ warnings: inout [PlanWarning]) -> Transform {
    guard !noRotation.contains(head.name) else { return .normal }
    guard let wanted = Self.wantedTransform(settings) else { return head.enabled ? head.transform : .normal }
    let can = head.capabilities.transforms
    guard !can.contains(wanted) else { return wanted }
    let instead = head.capabilities.nearest(wanted)
    let offered = Transform.allCases.filter(can.contains)
    warnings.append(.headCannot(output: head.name, transform: wanted, can: offered, instead: instead))
    return instead
  }

  /// The rule's scale; 1 where it gives none, and (with a warning) where the head cannot scale.
  func scale(_ head: Head, _ settings: MonitorSettings, _ warnings: inout [PlanWarning]) -> Double {
    guard let scale = settings.scale else { return 1 }
    guard head.scaledArea.sameScale(scale, 1) || head.capabilities.scaling else {
      warnings.append(.cannotScale(output: head.name, scale: scale))
      return 1
    }
    return scale
  }

  /// The configurations of the planned heads that change, and of the lit heads the layout
  /// moves (as they are, at their new place).
  func changes(_ layout: Layout) -> [HeadConfiguration] {
    heads.compactMap { head -> HeadConfiguration? in
      guard let rect = layout.rects[head.name] else { return nil }
      guard let t = layout.targets[head.name] else {
        guard head.x != rect.x || head.y != rect.y, let mode = head.mode else { return nil }
        return HeadConfiguration(
          name: head.name, enabled: true, mode: PlannedMode(mode).request, x: rect.x, y: rect.y,
          transform: head.transform, spelling: head.spelling, scale: head.scale)
      }
      let same =
        head.enabled && t.mode.listed != nil && head.mode == t.mode.listed && (head.x, head.y) == (rect.x, rect.y)
        && head.transform == t.transform
        && (!t.scaled || head.rect.map { ($0.width, $0.height) == (rect.width, rect.height) } == true)
      guard !same else { return nil }
      return HeadConfiguration(
        name: head.name, enabled: true, mode: t.mode.request, fallbackModes: t.fallbacks.map(\.request), x: rect.x,
        y: rect.y, transform: t.transform, spelling: t.spelling, scale: t.scale, scaleFilter: t.filter,
        modeIsDefault: t.modeIsDefault)
    }
  }

  /// The lit heads in `disabled`, turned off.
  func turningOff(_ disabled: Set<String>) -> [HeadConfiguration] {
    heads.filter { disabled.contains($0.name) && $0.enabled }.map { .off($0.name) }
  }

  /// Lit heads whose monitor is gone: turned off.
  func releases() -> [HeadConfiguration] {
    heads.filter { !$0.connected && $0.enabled }.map { .off($0.name) }
  }

  /// The head a rule makes primary (`primary: true`; the first such when several ask), nil
  /// when it already is. When the primary head is turned off and none asks, main takes its
  /// place.
  func primary(
    _ pending: [(head: Head, settings: MonitorSettings)], lit: Set<String>, disabled: Set<String>, main: Head?,
    _ warnings: inout [PlanWarning]
  ) -> String? {
    let asking = pending.filter(\.settings.primary).map(\.head.name)
    var wanted: String?
    if let first = asking.first {
      if asking.count > 1 { warnings.append(.primaryContested(outputs: asking, chosen: first)) }
      if lit.contains(first) {
        wanted = first
      } else {
        warnings.append(.primaryOff(output: first))
      }
    } else if let current = snapshot.primary, disabled.contains(current), let main, isLit(main) {
      wanted = main.name
    }
    return wanted == snapshot.primary ? nil : wanted
  }

  /// What the rule matching main asks that the planner never does to main.
  func mainWarnings(_ main: Head?) -> [PlanWarning] {
    guard let main, let settings = settings[main.name] else { return [] }
    var asked: [String] = []
    if !settings.enabled { asked.append("enabled: false") }
    if Self.wantedTransform(settings) != nil { asked.append("rotate/reflect") }
    if settings.scale != nil { asked.append("scale") }
    if settings.primary && snapshot.primary != main.name { asked.append("primary") }
    guard !asked.isEmpty else { return [] }
    return [.mainLeftAsIs(output: main.name, asked: asked)]
  }

  /// Whether the plan would leave no connected desktop head lit where one is connected.
  func leavesDark(_ plan: RulePlan) -> Bool {
    var lit = Set(heads.filter(\.enabled).map(\.name))
    for change in plan.configuration.heads {
      if change.enabled { lit.insert(change.name) } else { lit.remove(change.name) }
    }
    let desk = Set(connected.filter { !$0.nonDesktop }.map(\.name))
    return !desk.isEmpty && desk.isDisjoint(with: lit)
  }
}

extension RulePlanner {
  /// Main: `main` from the config when that head is connected and lit, else the snapshot's
  /// (primary, built-in panel, first connected) when lit, else the first lit head. A head a
  /// rule makes primary is a monitor to arrange, not main, unless `main` names it (as
  /// `Config.mainOutput`).
  func mainHead() -> Head? { main }

  func madePrimary(_ head: Head) -> Bool { settings[head.name]?.primary == true }
}

extension HeadCapabilities {
  /// `wanted` where the head can show it, else the nearest it can: the turn without the
  /// flip, the flip without the turn, or none.
  func nearest(_ wanted: Transform) -> Transform {
    guard !transforms.contains(wanted) else { return wanted }
    let turn = Transform(rawValue: wanted.rawValue % 4) ?? .normal
    let flip: Transform = wanted.isFlipped ? .flipped : .normal
    return [turn, flip].first { transforms.contains($0) } ?? .normal
  }
}

extension Config {
  /// The first `monitors` rule matching the head: by its connector name and its EDID, else
  /// the make, model and serial it says (`HeadIdentity`, `vendors` for the PNP ids of a make).
  public func rule(for head: Head, vendors: PNPVendors = .none) -> MonitorRule? {
    // Asked of every head several times per event: no rules, no EDID to parse.
    guard !monitors.isEmpty else { return nil }
    let edid = head.edid.flatMap { try? EDID(bytes: $0) }
    let identity =
      edid == nil ? HeadIdentity(make: head.make, model: head.model, serial: head.serial, vendors: vendors) : nil
    return monitors.first { $0.match.matches(name: head.name, edid, identity: identity) }
  }

  /// The settings for a head (the defaults overridden by its first rule, `rule(for:vendors:)`):
  /// nil when a rule says to ignore it.
  public func settings(for head: Head, vendors: PNPVendors = .none) -> MonitorSettings? {
    settings(by: rule(for: head, vendors: vendors))
  }

  /// Whether the head's settings make it primary (`settings(for:vendors:)?.primary`), without
  /// making them: main is found several times per event.
  func makesPrimary(_ head: Head, vendors: PNPVendors) -> Bool {
    guard let rule = rule(for: head, vendors: vendors) else { return defaults.primary }
    return !rule.ignore && (rule.primary ?? defaults.primary)
  }
}
