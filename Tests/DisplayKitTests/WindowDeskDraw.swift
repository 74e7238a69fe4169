import DisplayModel

/// What varies on a random desk for the window policy: main, the panel, the details line,
/// and each rule's (and the defaults') content, level and mirror.
enum WindowDeskDraw {
  /// Varies what the answers read of a config: `main`, `panel`, the details line, and each
  /// rule's (and the defaults') content, level and mirror; sometimes a mirror rule more.
  static func vary(_ config: inout Config, names: [String], _ r: inout SimRandom) {
    let some = names + ["VGA-9"]
    if r.chance(20) { config.main = r.pick(some) }
    if r.chance(20) { config.panel = r.pick(some) }
    if r.chance(20) { config.placeholder.details = false }
    if r.chance(15) { config.defaults.content = r.pick(ContentKind.allCases) }
    if r.chance(20) { config.defaults.mirror = mirror(some, &r) }
    for i in config.monitors.indices where r.chance(40) {
      config.monitors[i].content = r.pick([.mirror, .mirror, .placeholder, .none])
      if r.chance(70) { config.monitors[i].mirror = mirror(some, &r) }
      if r.chance(20) { config.monitors[i].level = r.pick(WindowLevel.allCases) }
    }
    for _ in 0..<(r.chance(40) ? 1 + r.below(3) : 0) {
      var rule = MonitorRule()
      rule.match.output = r.pick(some)
      rule.content = .mirror
      rule.mirror = mirror(some, &r)
      config.monitors.insert(rule, at: r.below(config.monitors.count + 1))
    }
  }

  static func mirror(_ names: [String], _ r: inout SimRandom) -> MirrorOptions {
    var options = MirrorOptions()
    options.source = r.chance(40) ? "main" : r.pick(names)
    options.scale = r.pick(MirrorScale.allCases)
    options.filter = r.pick(MirrorFilter.allCases)
    options.cursor = r.chance(70)
    return options
  }
}
