import DisplayModel

extension DeskLayout {
  /// `defaults.lid_closed` when no profile matches: once per desk (monitors, lid, config),
  /// while the lid is closed, the built-in panel goes off if another output is lit; when it
  /// opens again, the panel comes back where it was. Outputs it turns off or on are settled.
  func arrangeLid(_ n: Int, reason: String) throws(DisplayError) -> [HeadEvent] {
    guard config.lidClosed == .disable else { return [] }
    let now = desk
    guard now != profileRuntime.lidDesk, lid == .closed || profileRuntime.lidDesk?.lid == .closed else { return [] }
    let lastDesk = profileRuntime.lidDesk
    profileRuntime.lidDesk = now
    var events: [HeadEvent] = []
    var (before, panelName): (Rect?, String?) = (nil, nil)
    let words = ApplyWording(subject: { "lid \(self.lid.rawValue)" }, unscaled: "scale 1 instead")
    _ = try applyConfigurations(n, reason, words, &events) { _ in
      let panel = LidPolicy.panel(in: heads, config: config)
      (before, panelName) = (panel?.rect, panel?.name)
      return LidPolicy.plan(
        snapshot: heads, config: config, lid: lid, previous: profileRuntime.panelRect,
        vendors: layoutServer.vendors(of: heads))
    } judge: { step in
      guard case .applied(let plan, let report, let errors) = step else {
        // The lid closed, the panel the only monitor lit: nothing to do yet, and done with
        // no desk (not even one before, which the same monitors back would make again): a
        // monitor whose apply failed, lit by the next look on the same desk, turns the panel
        // off then.
        if lid == .closed, LidPolicy.panelAlone(in: heads, config: config) { profileRuntime.lidDesk = nil }
        return true
      }
      guard errors.isEmpty else {
        for problem in errors { log.error("lid \(lid.rawValue): \(problem)") }
        // Not done with this desk: tried again at its next change (at once when dark).
        profileRuntime.lidDesk = lastDesk
        return !deskIsDark
      }
      profileRuntime.lidDesk = now
      if lid == .closed, let before { profileRuntime.panelRect = before }
      for name in plan.configures { settle(name) }
      counters.reconcilesChanged += 1
      let on = panelName.flatMap { heads.head(named: $0)?.rect } != nil
      log.info(
        "reconcile \(n): lid \(lid.rawValue), \(panelName ?? "the panel") \(on ? "on" : "off"): " + describe(report))
      return true
    }
    return events
  }
}
