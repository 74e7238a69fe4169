import DisplayModel
import DisplayPorts
import DisplaySupport

/// What the daemon tells the service, each from the part that knows it.
extension Daemon {
  /// The configuration in force.
  public var config: Config { layout.config }
  /// The latest read's heads, as the output-management port describes them and the daemon
  /// treats them (the disconnects waiting for their grace still connected).
  public var heads: HeadSnapshot { layout.heads }
  /// The laptop lid as the service last heard it (open without logind).
  public var lid: LidState { layout.lid }
  /// The monitors covered with a surface, by head name.
  public var monitors: [String: ManagedMonitor] { shown?.monitors ?? [:] }
  /// Whether this daemon makes windows (false for `displayd apply`, which has no surface
  /// host: no renderer loaded).
  public var managesWindows: Bool { shown != nil }
  /// What the daemon did, for tests and `status`: the layout's counts and the surfaces'.
  public var counters: DaemonCounters {
    var counters = layout.counters
    let surfaces = shown?.counters ?? DaemonCounters()
    (counters.windowsCreated, counters.windowsDestroyed) = (surfaces.windowsCreated, surfaces.windowsDestroyed)
    (counters.redraws, counters.composites) = (surfaces.redraws, surfaces.composites)
    return counters
  }
  /// One line for systemd's STATUS=: "2 external monitors: HDMI-1 placeholder, DP-2 placeholder".
  public var summary: String { shown?.summary ?? "0 external monitors" }
  /// The main output as the daemon treats it: with a profile in force, `LidPolicy.main`.
  public var mainOutput: Head? { layout.mainOutput }
  /// The profile in force and why.
  public var activeProfile: ActiveProfile { layout.activeProfile }
  /// Every profile of the config: whether it matches the monitors present now, and which is active.
  public var profileListings: [ProfileListing] { layout.profileListings }
  /// Why `profile` does not match the monitors present and the lid; nil when it matches.
  public func mismatch(_ profile: Profile) -> ProfileMismatch? { layout.mismatch(profile, vendors: layout.vendors) }
  /// The layout chosen by hand and still in force; nil while the choice is automatic.
  public var layoutChoice: LayoutChoice? { layout.layoutChoice }
  /// What `profile cycle` steps through: the profiles that match the monitors present, in
  /// config order, then the built-in layouts possible now, in `BuiltinLayout` order.
  public var cycleOrder: [LayoutChoice] { layout.cycleOrder }
  /// The heads (by name, sorted) whose disconnect waits for its grace.
  public var pendingDisconnects: [String] { layout.pendingDisconnects }
  /// `Xft.dpi` as displayd set it, while a profile with `dpi` is in force.
  public var xftDPI: Int? { settings.xftDPI }
  /// The XSETTINGS manager (owner of `_XSETTINGS_S0`) seen when displayd last set `Xft.dpi`.
  public var xsettingsManager: String? { settings.xsettingsManager }
  /// The desktop's display manager seen now, and the policy in force.
  public var desktop: DesktopState { settings.desktop(heads) }
}

/// The service's event loop over the server's connection and the daemon's timers.
extension Daemon {
  /// The server's connection, for the event loop to poll.
  public var serverDescriptor: FileDescriptor { changeSource.fileDescriptor }
  /// Whether requests wait for room in the server's socket.
  public var serverHasUnsent: Bool { changeSource.hasUnsent }
  /// Whether the server's events wait in the queue already (the poll then only looks).
  public var serverEventsQueued: Bool { changeSource.queuedEvents > 0 }
  /// Sends the requests that wait.
  public func flushServer() { changeSource.flush() }
  /// Reads what the server sent, into the queue `handleServerEvents` drains.
  public func readServer() throws(DisplayError) { _ = try changeSource.readAvailable() }
  /// The grace timer's descriptor while it is armed.
  public var graceTimerDescriptor: FileDescriptor? { layout.graceTimerDescriptor }
  /// The frame timer's descriptor while it is armed.
  public var frameTimerDescriptor: FileDescriptor? { shown?.frameTimerDescriptor }
}
