import DisplayModel

/// The service's requests that choose the layout: the layout part decides, the windows follow.
extension Daemon {
  /// Arranges the desk once as at start-up: the profile chosen by the monitors and the lid
  /// (or `profile`, refused when it does not match), else the rules and the lid policy.
  /// Forgets what was settled and applied before, so a layout changed by hand is put back;
  /// a layout already as it would become changes nothing. Windows follow when this daemon
  /// manages them.
  public func applyOnce(profile name: String? = nil) throws(DisplayError) -> ApplyOnceResult {
    let old = heads
    var arranged = false
    let result = try layout.applyOnce(profile: name) { events in
      arranged = true
      report(events, old)
    }
    if arranged { syncSurfaces() }
    return result
  }

  /// Puts the desk in `choice` by hand: refused, with the reason, when the profile does not
  /// match or the layout is not possible with the monitors present. It stays in force until
  /// the set of monitors, the lid or the config changes; then, or on `resumeAutomatic()`,
  /// automatic choice resumes and what the manual choices changed is put back. Returns
  /// whether the layout changed (false: it was in force already).
  public func switchTo(_ choice: LayoutChoice) throws(DisplayError) -> Result<Bool, ProfileSwitchRefusal> {
    let old = heads
    let (result, events) = try layout.switchTo(choice)
    guard let events else { return result }
    // The windows follow the choice in force: after a refused one, the one before it (not
    // the refused profile's, which would take the windows off monitors still lit).
    syncSurfaces()
    report(events, old)
    return result
  }

  /// Puts the desk in the named profile, by hand: refused, with the reason, when there is no
  /// such profile or it does not match the monitors present. It stays in force until the
  /// monitors, the lid or the config change.
  public func switchProfile(_ name: String) throws(DisplayError) -> ProfileSwitchRefusal? {
    if case .failure(let refusal) = try switchTo(.profile(name)) { return refusal }
    return nil
  }

  /// Ends a manual choice at once: the layout automatic choice had is put back, then chosen
  /// again. Returns false when the choice was automatic already (nothing is done).
  public func resumeAutomatic() throws(DisplayError) -> Bool {
    let old = heads
    guard let events = try layout.resumeAutomatic() else { return false }
    syncSurfaces()
    report(events, old)
    return true
  }

  /// Switches to the entry of `cycleOrder` after the one in force (the manual choice, else
  /// the matched profile), wrapping around; the first when neither is in the order.
  public func cycle() throws(DisplayError) -> Result<(choice: LayoutChoice, changed: Bool), ProfileSwitchRefusal> {
    guard let next = layout.nextInCycle else { return .failure(.nothingToCycle) }
    return try switchTo(next).map { (next, $0) }
  }

  /// Takes what the session bus says of the desktop programs. When the manager that had the
  /// layout goes, displayd lays the monitors out again.
  public func setDesktopSignals(_ bus: DesktopSignals, reconcile: Bool = true) throws(DisplayError) {
    let before = desktop
    settings.take(bus)
    guard reconcile, desktop != before else { return }
    let old = heads
    let reason = desktop.manager.map { "desktop manager \($0.rawValue)" } ?? "desktop manager gone"
    report(try self.reconcile(reason: reason), old)
  }
}
