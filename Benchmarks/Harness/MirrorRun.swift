import CXrandr
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// Counts the frames drawn into a window: a DAMAGE object reporting once until subtracted,
/// subtracted at each report; a report whose area covers a quarter of the window or more is
/// part of a frame (a small one is a pointer drawn after a frame, reported apart when the
/// subtract fell in between), and parts less than 5 ms apart are one frame (one frame's
/// composites, a frame's upload in bands): a 60 fps frame takes 16.7 ms.
final class FrameCounter {
  let x: XInspector
  let damage: Damage
  var eventBase: Int32 = 0
  var lastFrame = 0.0

  init(_ x: XInspector, window: UInt) throws {
    var error: Int32 = 0
    guard XDamageQueryExtension(x.display, &eventBase, &error) != 0 else { throw RigError("no DAMAGE") }
    self.x = x
    damage = XDamageCreate(x.display, Window(window), Int32(XDamageReportNonEmpty))
    XSync(x.display, 0)
  }

  deinit {
    XDamageDestroy(x.display, damage)
    XSync(x.display, 0)
  }

  /// Frames drawn during `seconds`, while the caller's other measurements run.
  func count(seconds: Double) -> Int {
    drain()
    var frames = 0
    let deadline = now() + seconds
    while now() < deadline {
      _ = pollFDs([cx_connection_number(x.display)], timeoutMs: Int32(max(1, (deadline - now()) * 1000)))
      frames += drain()
    }
    return frames
  }

  @discardableResult
  private func drain() -> Int {
    var n = 0
    var event = XEvent()
    while XPending(x.display) > 0 {
      XNextEvent(x.display, &event)
      guard event.type == eventBase + XDamageNotify else { continue }
      let (area, window) = withUnsafePointer(to: &event) {
        $0.withMemoryRebound(to: XDamageNotifyEvent.self, capacity: 1) { ($0.pointee.area, $0.pointee.geometry) }
      }
      if Int(area.width) * Int(area.height) * 4 >= Int(window.width) * Int(window.height), now() - lastFrame > 0.005 {
        n += 1
        lastFrame = now()
      }
      XDamageSubtract(x.display, damage, 0, 0)
    }
    XFlush(x.display)
    return n
  }
}

/// One way of showing the animated main monitor on the second one.
struct CopyFigures {
  var name: String
  /// CPU of the client doing it and the X server's extra over the bare animation, in cores.
  var client: Double
  var serverExtra: Double
  var framesPerSecond: Double
  var total: Double { client + serverExtra }
}

/// The machine, for the report: the CPU model and how many cores run the benchmark.
func machineName() -> String {
  let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
  let model =
    info.split(separator: "\n").first { $0.hasPrefix("model name") }.map {
      $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    } ?? "unknown CPU"
  return "\(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores, \(model)"
}

/// Waits for a top-level window other than displayd's to show on the second monitor.
func foreignWindow(_ x: XInspector, minX: Int) -> UInt? {
  var root: Window = 0
  var parent: Window = 0
  var children: UnsafeMutablePointer<Window>?
  var n: UInt32 = 0
  guard XQueryTree(x.display, x.root, &root, &parent, &children, &n) != 0, let children else { return nil }
  defer { XFree(children) }
  let ours = Set(x.displaydWindows().map(\.id))
  for i in 0..<Int(n) where !ours.contains(UInt(children[i])) {
    var a = XWindowAttributes()
    XGetWindowAttributes(x.display, children[i], &a)
    if a.map_state == IsViewable, Int(a.x) >= minX, a.width >= 640 { return UInt(children[i]) }
  }
  return nil
}
