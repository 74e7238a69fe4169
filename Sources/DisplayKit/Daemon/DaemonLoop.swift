/// What the daemon's loop should do about a signal.
public enum SignalAction: Sendable {
  case `continue`
  case stop
}

extension Daemon {
  /// Sleeps in `poll()` on the X connection and the signal descriptor, with no timer, and
  /// handles what arrives until `onSignal` says stop.
  public func run(signals: SignalWatch, onSignal: (Int32) throws -> SignalAction) throws {
    let fds = [connection.fileDescriptor, signals.fileDescriptor]
    while true {
      connection.flush()
      if connection.queuedEvents == 0 {
        let ready = try waitReadable(fds)
        if ready.contains(1) {
          while let signal = signals.next() {
            if try onSignal(signal) == .stop { return }
          }
        }
        if ready.contains(0) { _ = try connection.readAvailable() }
      }
      try handleXEvents()
    }
  }
}
