import DisplayModel

extension DeskLayout {
  /// The config the windows are made from: with a profile in force, a rule per entry first
  /// (its `content`, `none` when it gives none and for `same-as` monitors; its `level` and
  /// `mirror`, else the monitor's from the config), and main as `LidPolicy.main` says.
  var windowConfig: Config {
    guard let (profile, assignment) = profileRuntime.chosen else { return config }
    let vendors = self.vendors
    var result = config
    var rules: [MonitorRule] = []
    for (entry, name) in zip(profile.outputs, assignment.heads) {
      guard let head = heads.head(named: name) else { continue }
      let base = config.settings(for: head, vendors: vendors) ?? config.defaults
      var rule = MonitorRule()
      rule.match.output = head.name
      if case .sameAs = entry.position { rule.content = ContentKind.none } else { rule.content = entry.content }
      rule.level = entry.level ?? base.level
      rule.mirror = entry.mirror ?? base.mirror
      rules.append(rule)
    }
    result.monitors = rules + config.monitors
    let main = LidPolicy.main(
      snapshot: heads, config: config, profile: profile, assignment: assignment, vendors: vendors)
    result.main = main?.name ?? config.main
    return result
  }

  /// The profile in force and the heads its entries took; nil while none is.
  var chosenProfile: ProfileChoice? { profileRuntime.chosen }

  /// The surfaces the heads and the config want, main as the daemon treats it.
  var wantedWindows: [WindowWanted] {
    windowConfig.wantedWindows(in: heads, vendors: vendors, main: mainOutput)
  }

  /// A reconcile while the desktop has the layout: no profile is in force and nothing is
  /// changed; the windows follow the desktop's layout.
  func leaveLayout(to manager: DesktopManager, _ n: Int, reason: String) -> [HeadEvent] {
    // DPI is the desktop's too: what displayd set in RESOURCE_MANAGER goes back.
    hooks.profileInForce(nil, nil)
    if profileRuntime.active.name != nil { log.info("profile: none in force while \(manager.rawValue) has the layout") }
    profileRuntime.active = ActiveProfile(name: nil, reason: .none)
    (profileRuntime.chosen, profileRuntime.applied, profileRuntime.manual) = (nil, nil, nil)
    profileRuntime.automaticLayout = nil
    (profileRuntime.lidDesk, settled, failures, litByDaemon) = (nil, [:], [:], [])
    log.debug("reconcile \(n) (\(reason)): the layout is \(manager.rawValue)'s; nothing to change")
    return []
  }
}
