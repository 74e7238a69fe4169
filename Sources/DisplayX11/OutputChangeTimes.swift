import CXrandr
import Synchronization

/// Which outputs went and came back as two changes of the server, told apart from one change
/// that turned an output off and on again, by the time RandR's output-change events carry on
/// the wire (Xlib's converted event leaves it out).
///
/// A monitor unplugged and plugged back between two of the daemon's reads shows connected in
/// both; only its events say it went, and the server may have set it otherwise on its return.
/// But Xvnc carries out a client's `xrandr --mode` by turning the output off and on again
/// within that one request, which its events tell as disconnected then connected too: those
/// two share the request's time, where a replug's do not.
struct OutputChangeTimes {
  /// Xlib's converter this one wraps (libXrandr's).
  var next: cx_wire_to_event?
  /// By output: the time of its last disconnected event while no connected one followed.
  var disconnectedAt: [UInt32: UInt32] = [:]
  /// Outputs connected again at another time than they were disconnected.
  var reconnected: Set<UInt32> = []

  /// By the Display's address: Xlib's hook is a C function pointer with no context.
  private static let byDisplay = Mutex<[UInt: OutputChangeTimes]>([:])

  /// Wraps `display`'s converter of RandR's notify events (`event`), once.
  static func watch(_ display: OpaquePointer, event: Int32) {
    let key = address(display)
    guard byDisplay.withLock({ $0[key] == nil }) else { return }
    let next = XESetWireToEvent(display, event, convert)
    byDisplay.withLock { $0[key] = OutputChangeTimes(next: next) }
  }

  /// The outputs reconnected since the last call.
  static func takeReconnected(_ display: OpaquePointer) -> [UInt] {
    byDisplay.withLock { tables in
      let taken = tables[address(display)]?.reconnected ?? []
      tables[address(display)]?.reconnected = []
      return taken.map { UInt($0) }
    }
  }

  /// Before the display closes: its address may be reused by the next one opened.
  static func forget(_ display: OpaquePointer) {
    _ = byDisplay.withLock { $0.removeValue(forKey: address(display)) }
  }

  /// Notes an output change's time, then converts as before. The wire event's fields
  /// (`xRROutputChangeNotifyEvent`): the subtype at byte 1, the time at 4, the output at 16,
  /// the connection at 30 (0: connected), in the client's byte order.
  private static let convert: cx_wire_to_event = { display, event, wire in
    guard let display else { return 0 }
    let next = byDisplay.withLock { tables -> cx_wire_to_event? in
      guard var times = tables[address(display)] else { return nil }
      if let wire, wire.load(fromByteOffset: 1, as: UInt8.self) == UInt8(RRNotify_OutputChange) {
        times.note(
          output: wire.loadUnaligned(fromByteOffset: 16, as: UInt32.self),
          time: wire.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
          connected: wire.load(fromByteOffset: 30, as: UInt8.self) == UInt8(RR_Connected))
        tables[address(display)] = times
      }
      return times.next
    }
    return next?(display, event, wire) ?? 0
  }

  mutating func note(output: UInt32, time: UInt32, connected: Bool) {
    guard connected else {
      disconnectedAt[output] = time
      return
    }
    if let at = disconnectedAt.removeValue(forKey: output), at != time { reconnected.insert(output) }
  }
}
