import DisplayModel

extension DeskLayout {
  /// The server said its outputs may have changed (`count` events): reads the heads,
  /// probing once for outputs lit but disconnected that were not just unplugged, and
  /// arranges what changed. Returns the events seen, nil when the heads are as they were
  /// (nothing waiting for its grace).
  func serverChanged(count: Int) throws(DisplayError) -> [HeadEvent]? {
    var new = try layoutServer.read()
    // Told by this read alone: a probing read after it hears of no disconnect again.
    var reconnected = layoutServer.reconnected
    // Lit by someone while the server calls it disconnected, and not just unplugged (it was
    // not connected before): ask the server to probe it once rather than turn it off.
    let unexplained = layoutServer.litButDisconnected.filter { heads.head(named: $0)?.connected != true }
    if !unexplained.isEmpty {
      log.debug("outputs lit but disconnected: probing connectors")
      new = try layoutServer.read(ReadOptions(probe: true))
      reconnected.formUnion(layoutServer.reconnected)
    }
    // While a disconnect waits, the server's heads may differ from the daemon's only by that
    // monitor's return: always look. Else the heads say every change to react to: their
    // generation moves with every configuration any client sets.
    guard new != heads || !grace.pending.isEmpty else {
      log.debug("\(count) event(s) from the server, heads unchanged")
      return nil
    }
    let events = adopt(new, reconnected: reconnected)
    return events + (try arrange(reason: "the server's events"))
  }

  /// Reads the heads afresh, re-probing the connectors (`XRRGetScreenResources`), and
  /// arranges as on any server event: some drivers send no event for monitors that changed
  /// while the machine slept, and a script may know better than the server (`SIGUSR1`).
  /// Counted in `counters.probes`; `reason` names the cause in the log. Returns the events
  /// seen, nil when the heads are as they were.
  func resync(reason: String) throws(DisplayError) -> [HeadEvent]? {
    counters.probes += 1
    let new = try layoutServer.read(ReadOptions(probe: true))
    // While a disconnect waits, its head is connected in the daemon's heads only: changed.
    guard new != heads else {
      log.info("\(reason): probed the connectors, heads unchanged")
      return nil
    }
    log.info("\(reason): probed the connectors, heads changed")
    let events = adopt(new)
    return events + (try arrange(reason: reason))
  }

  /// The grace timer fired: handles the disconnects whose grace is over, as on any event.
  /// Returns the events seen, nil when none was due (the timer armed again).
  func graceTimerFired() throws(DisplayError) -> [HeadEvent]? {
    grace.timer?.acknowledge()
    let due = dueDisconnects()
    if due.isEmpty {
      armGraceTimer()
      return nil
    }
    for name in due {
      log.info("\(name): not back within the grace; disconnected")
      grace.pending[name] = nil
      grace.releasing.insert(name)
    }
    let events = adopt(try layoutServer.read())
    return events + (try arrange(reason: "disconnect grace over"))
  }

  /// What `reload` changes, to put back when the new config's arrangement throws.
  struct Reloading {
    var config: Config
    var settled: [String: MonitorKey]
    var failures: [String: (monitor: MonitorKey, count: Int)]
    var profileRuntime: ProfileRuntime
  }

  /// Takes a new config: every monitor is planned afresh, and a manual choice ends (the desk
  /// now has another config: the next arrangement restores what it changed). Returns what
  /// to put back with `restore` if that arrangement throws.
  func take(_ new: Config) -> Reloading {
    let previous = Reloading(config: config, settled: settled, failures: failures, profileRuntime: profileRuntime)
    (config, settled, failures) = (new, [:], [:])
    (profileRuntime.applied, profileRuntime.lidDesk) = (nil, nil)
    return previous
  }

  /// Puts back what `take` changed.
  func restore(_ previous: Reloading) {
    (config, settled, failures) = (previous.config, previous.settled, previous.failures)
    profileRuntime = previous.profileRuntime
  }
}
