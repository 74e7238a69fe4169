import DisplayModel
import DisplayPorts
import DisplaySupport

extension DeskLayout {
  /// The heads (by name, sorted) whose disconnect waits for its grace.
  var pendingDisconnects: [String] { grace.pending.keys.sorted() }

  /// The grace timer's descriptor while it is armed, for the event loop.
  var graceTimerDescriptor: FileDescriptor? { grace.timer.flatMap { $0.isArmed ? $0.fileDescriptor : nil } }

  /// The pending disconnects to handle now: those whose grace is over, unless the screen is
  /// blanked (a sleeping desk's monitors drop off one by one, as xfsettingsd knows) and another
  /// monitor is still lit (never a dark desk for longer than the grace).
  func dueDisconnects() -> [String] {
    let now = clock.nanoseconds
    let over = grace.pending.filter { now >= $0.value.deadline }.keys.sorted()
    guard !over.isEmpty else { return [] }
    let lit = heads.heads.contains { $0.connected && grace.pending[$0.name] == nil && $0.rect != nil }
    if lit && power?.screenBlanked() == true {
      log.debug("the screen is blanked (DPMS): disconnects held until it is on again")
      for name in over { grace.pending[name]?.heldByBlank = true }
      return []
    }
    let again = graceDeadline()
    var due: [String] = []
    for name in over {
      if lit && grace.pending[name]?.heldByBlank == true {
        grace.pending[name]?.heldByBlank = false
        grace.pending[name]?.deadline = again
      } else {
        due.append(name)
      }
    }
    return due
  }

  /// The end of a grace starting now.
  func graceDeadline() -> UInt64 {
    // Bounded by the config; a Config made in code may say anything.
    let seconds = config.disconnectGrace > 0 ? min(config.disconnectGrace, Config.graces.upperBound) : 0
    let deadline = clock.nanoseconds.addingReportingOverflow(UInt64(seconds * 1e9))
    return deadline.overflow ? .max : deadline.partialValue
  }

  /// Arms the timer for the earliest deadline (or the next look at a blanked screen), or
  /// disarms it when nothing is pending; false when something is pending and no timer could
  /// be made or armed (descriptors exhausted).
  @discardableResult
  func armGraceTimer() -> Bool {
    let now = clock.nanoseconds
    let recheck = now.addingReportingOverflow(GraceRuntime.blankedRecheck).partialValue
    guard let next = grace.pending.values.map({ $0.heldByBlank ? max($0.deadline, recheck) : $0.deadline }).min()
    else {
      grace.timer?.disarm()
      return true
    }
    if grace.timer == nil { grace.timer = grace.makeTimer() }
    grace.timer?.arm(after: next > now ? next - now : 1)
    return grace.timer?.isArmed == true
  }

  /// A new config's grace: with 0, what waits is handled at once (as 0 means).
  func graceReloaded() {
    guard config.disconnectGrace == 0, !grace.pending.isEmpty else { return }
    for name in grace.pending.keys { grace.pending[name]?.deadline = 0 }
    armGraceTimer()
  }

  /// The disconnects waiting for their grace, as the layout server is told of them: what it
  /// holds while planning and reading (and the primary while it is one of them).
  var held: HeldHeads { HeldHeads(pendingNames, primary: heads.primary) }

  /// The grace's part of adopting a read: settles the monitors that came back, holds new
  /// disconnects, and returns the heads as the daemon treats them (pending monitors still
  /// connected, as the layout server holds them), the events to report for those monitors,
  /// and the heads whose own events from the diff are not to be reported.
  func graceStep(_ real: HeadSnapshot) -> (heads: HeadSnapshot, events: [HeadEvent], quiet: Set<String>) {
    var (swapped, quiet) = settleReturns(real)
    let holding = holdDisconnects(real)
    grace.releasing = []
    if !armGraceTimer() {
      // Without a timer nothing would ever end the grace: the disconnects are handled now.
      log.warning("no timer for the disconnect grace: \(grace.pending.count) disconnect(s) handled at once")
      grace.pending = [:]
    }
    quiet.formUnion(grace.pending.keys)
    let heads = grace.pending.isEmpty ? real : layoutServer.heads(holding: held)
    var events = swapped.flatMap { Self.swapEvents($0, in: heads) }
    events += holding.map { Self.pendingEvent($0, seconds: config.disconnectGrace, in: heads) }
    return (heads, events, quiet)
  }

  /// Pending monitors connected again: the same one is left as it was (quiet, unless the
  /// server changed its scanout meanwhile); another one is the old one's disconnect and a
  /// new monitor, with a new window. Returns those swapped and the names of those quiet.
  private func settleReturns(_ real: HeadSnapshot) -> (swapped: [PendingDisconnect], quiet: Set<String>) {
    var swapped: [PendingDisconnect] = []
    var quiet: Set<String> = []
    for (name, held) in grace.pending {
      guard let now = real.head(named: name), now.connected else { continue }
      grace.pending[name] = nil
      if MonitorKey(now) == MonitorKey(held.head) {
        if now.rect == held.geometry && now.shownMode == held.mode {
          log.info("\(name): back within the grace; left as it was")
          quiet.insert(name)
        } else {
          serverReset(name, "back within the grace, as the server set it")
        }
        continue
      }
      log.info("\(name): another monitor came back within the grace; the old one is disconnected")
      swapped.append(held)
      quiet.insert(name)
      hooks.monitorSwapped(name)
    }
    return (swapped, quiet)
  }

  /// The server set a monitor the daemon manages while it was away (back within the grace,
  /// or gone and back between two reads): not a user's choice, as a later `xrandr` is, so
  /// what the daemon settled for it is forgotten and the rules or the profile in force plan
  /// it again, once: what they want is applied, and settled again.
  func serverReset(_ name: String, _ why: String) {
    log.info("\(name): \(why); the config's layout is applied again")
    settled[name] = nil
    failures[name] = nil
    // Lit by the server, not a user: main too is planned for its rule's mode.
    litByDaemon.insert(name)
    if profileRuntime.applied != nil { profileRuntime.serverReset = true }
    // The panel may have been lit meanwhile, the server having darkened the others: the lid
    // policy looks at the desk again.
    if lid == .closed { profileRuntime.lidDesk = nil }
  }

  /// Monitors the server's events said went and came back (`reconnected`: their going and
  /// their return two changes apart) between the last read and `new`, now in their preferred
  /// mode and shown otherwise than before: reset by the server, which lights a monitor back
  /// in its preferred mode where it likes. Anything else is left as it is: the same monitor
  /// shown as before, and a user's `xrandr` in another mode. (On Xvnc, whose outputs count as
  /// disconnected while their CRTC is off, an `xrandr` that turns a CRTC off to shrink the
  /// screen before setting it again looks like a monitor gone and back too.)
  func noteResetsBetweenReads(_ new: HeadSnapshot, _ reconnected: Set<String>) {
    for name in reconnected.sorted() where grace.pending[name] == nil {
      guard let before = heads.head(named: name), before.connected, let now = new.head(named: name), now.connected,
        MonitorKey(before) == MonitorKey(now), now.shownMode?.preferred == true,
        now.shownMode != before.shownMode || now.rect != before.rect
      else { continue }
      serverReset(name, "disconnected and back between two reads, as the server set it")
    }
  }

  /// Another monitor back on a pending head: the old one's disconnect (dark), then the new
  /// one's connect as `heads` show it.
  private static func swapEvents(_ held: PendingDisconnect, in heads: HeadSnapshot) -> [HeadEvent] {
    let gone = HeadEvent(kind: .disconnected, head: unplugged(held.head))
    guard let now = heads.head(named: held.head.name) else { return [gone] }
    return [gone, HeadEvent(.connected, showing: now)]
  }

  /// A disconnect held for the grace: the monitor as it was, no longer connected, showing
  /// what its head shows in `heads` (the server keeps it lit until someone turns it off).
  private static func pendingEvent(_ held: PendingDisconnect, seconds: Double, in heads: HeadSnapshot) -> HeadEvent {
    let now = heads.head(named: held.head.name)
    let rect = now?.rect
    return HeadEvent(
      kind: .disconnectPending, head: unplugged(held.head), rect: rect, mode: rect == nil ? nil : now?.shownMode,
      graceSeconds: seconds)
  }

  /// `head` with its monitor gone.
  private static func unplugged(_ head: Head) -> Head {
    var gone = head
    (gone.connected, gone.connectionUnknown) = (false, false)
    return gone
  }

  /// Heads connected in the daemon's view and disconnected in `real`: held for the grace
  /// (none with a grace of 0, nor those whose grace just ended); returns those held now.
  private func holdDisconnects(_ real: HeadSnapshot) -> [PendingDisconnect] {
    let seconds = config.disconnectGrace
    guard seconds > 0 else { return [] }
    let deadline = graceDeadline()
    var holding: [PendingDisconnect] = []
    for head in heads.heads
    where head.connected && grace.pending[head.name] == nil && !grace.releasing.contains(head.name) {
      guard let now = real.head(named: head.name), !now.connected else { continue }
      let pending = PendingDisconnect(head: head, geometry: head.rect, mode: head.shownMode, deadline: deadline)
      grace.pending[head.name] = pending
      holding.append(pending)
      log.info("\(head.name): disconnected; waiting \(seconds) s for it to come back")
    }
    return holding
  }
}
