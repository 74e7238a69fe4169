import DisplayModel
import DisplayPorts
import DisplaySupport

/// Which monitor is on a head, as far as the daemon tells them apart: by its EDID, else (a
/// compositor gives none) by the make, model and serial the head lists.
struct MonitorKey: Equatable {
  var edid: [UInt8]?
  /// Only without an EDID, and as the head writes them: the same monitor reads the same
  /// strings each time, and the daemon asks at every read, so no identity is made of them.
  var make = "", model = "", serial = ""
  /// A monitor attached again is a new head object on wlroots, though it says the same.
  var instance: UInt64

  init(_ head: Head?) {
    edid = head?.edid
    instance = head?.instance ?? 0
    guard edid == nil, let head else { return }
    (make, model, serial) = (head.make, head.model, head.serial)
  }

  /// Whether `head` shows this monitor: `MonitorKey(head) == self`, without the copy.
  func isOn(_ head: Head) -> Bool {
    guard head.edid == edid, head.instance == instance else { return false }
    return edid != nil || (head.make == make && head.model == model && head.serial == serial)
  }
}
