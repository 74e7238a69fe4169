import DisplayModel

extension Daemon {
  /// Reads the heads afresh, re-probing the connectors (`XRRGetScreenResources`), and
  /// reconciles as on any RandR event: some drivers send no event for monitors that changed
  /// while the machine slept, and a script may know better than the server (`SIGUSR1`).
  /// Counted in `counters.probes`; `reason` names the cause in the log.
  public func resync(reason: String) throws(DisplayError) {
    counters.probes += 1
    let old = heads
    let new = try layoutServer.read(ReadOptions(probe: true))
    // While a disconnect waits, its head is connected in the daemon's heads only: changed.
    guard new != heads else {
      log.info("\(reason): probed the connectors, topology unchanged")
      return
    }
    log.info("\(reason): probed the connectors, topology changed")
    var events = adopt(new)
    events += try arrange(reason: reason)
    // Hooks start as soon as modes and places are final; the windows follow.
    report(events, old)
    syncWindows()
  }
}
