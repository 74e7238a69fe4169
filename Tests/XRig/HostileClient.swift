import CXrandr
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What any other client on the desktop may do to displayd's windows and to RandR: the
/// fault suite's hostile side, straight through Xlib.
extension XInspector {
  /// Sends a ClientMessage of `format` (8, 16 or 32) to `window`, as `XSendEvent` with no
  /// event mask does: the window's creator receives it. `longs` fill the 20 data bytes.
  public func sendClientMessage(to window: UInt, type: Atom, format: Int32, longs: [Int]) {
    var event = XEvent()
    event.xclient.type = ClientMessage
    event.xclient.window = Window(window)
    event.xclient.message_type = type
    event.xclient.format = format
    let l = (longs + [0, 0, 0, 0, 0]).prefix(5).map { CLong($0) }
    event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
    XSendEvent(display, Window(window), 0, 0, &event)
  }

  /// Sends a DestroyNotify about a live window to its creator, as a forged event.
  public func sendDestroyNotify(about window: UInt) {
    var event = XEvent()
    event.xdestroywindow.type = DestroyNotify
    event.xdestroywindow.event = Window(window)
    event.xdestroywindow.window = Window(window)
    XSendEvent(display, Window(window), 0, StructureNotifyMask, &event)
  }

  /// The atom for `name`, created if needed.
  public func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

  /// Destroys another client's window, as `xkill -id` or any client may.
  public func destroy(_ window: UInt) { XDestroyWindow(display, Window(window)) }

  /// Replaces a window property with bytes (format 8).
  public func setProperty(_ window: UInt, _ name: String, type: String = "STRING", bytes: [UInt8]) {
    XChangeProperty(display, Window(window), atom(name), atom(type), 8, PropModeReplace, bytes, Int32(bytes.count))
  }

  /// Sends what is buffered and waits until the server processed it.
  public func sync() { XSync(display, 0) }

  /// Sends what is buffered without waiting.
  public func flush() { XFlush(display) }

  /// The RandR id of the output called `name`.
  public func outputID(named name: String) -> RROutput? {
    guard let res = XRRGetScreenResourcesCurrent(display, root) else { return nil }
    defer { XRRFreeScreenResources(res) }
    for i in 0..<Int(res.pointee.noutput) {
      let id = res.pointee.outputs[i]
      guard let info = XRRGetOutputInfo(display, res, id) else { continue }
      defer { XRRFreeOutputInfo(info) }
      let n = String(
        decoding: UnsafeRawBufferPointer(start: info.pointee.name, count: Int(info.pointee.nameLen)), as: UTF8.self)
      if n == name { return id }
    }
    return nil
  }

  /// Sets an output property (format 8, type INTEGER) without waiting: `EDID` as a monitor's
  /// driver would, or any other name, as a backlight slider does many times a second.
  public func setOutputProperty(_ output: RROutput, _ name: String, _ bytes: [UInt8]) {
    XRRChangeOutputProperty(
      display, output, atom(name), XA_INTEGER, 8, PropModeReplace, bytes, Int32(bytes.count))
  }
}

/// CPU time a process has used (user + system), in clock ticks, from `/proc/PID/stat`.
public func cpuTicks(_ pid: pid_t) -> Int? {
  guard let f = fopen("/proc/\(pid)/stat", "r") else { return nil }
  defer { fclose(f) }
  var buffer = [CChar](repeating: 0, count: 4096)
  guard fgets(&buffer, Int32(buffer.count), f) != nil else { return nil }
  let line = String(cString: buffer)
  // Fields after the command name (which may hold spaces) start after the last ')'.
  guard let close = line.lastIndex(of: ")") else { return nil }
  let fields = line[line.index(after: close)...].split(separator: " ")
  // state is field 3; utime and stime are fields 14 and 15.
  guard fields.count > 13, let u = Int(fields[11]), let s = Int(fields[12]) else { return nil }
  return u + s
}

/// A `/proc/PID/status` value in kB (e.g. `VmHWM`, `VmRSS`).
public func procStatusKB(_ pid: pid_t, _ key: String) -> Int? {
  guard let f = fopen("/proc/\(pid)/status", "r") else { return nil }
  defer { fclose(f) }
  var buffer = [CChar](repeating: 0, count: 512)
  while fgets(&buffer, Int32(buffer.count), f) != nil {
    let line = String(cString: buffer)
    guard line.hasPrefix(key + ":") else { continue }
    return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
  }
  return nil
}

/// The number of open file descriptors of a process.
public func openDescriptors(_ pid: pid_t) -> Int? {
  guard let dir = opendir("/proc/\(pid)/fd") else { return nil }
  defer { closedir(dir) }
  var n = 0
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if name != "." && name != ".." { n += 1 }
  }
  return n
}

/// The timerfds of a process that are armed (`it_value` not zero), from `/proc/PID/fdinfo`:
/// a daemon that is idle by design has none, so nothing can wake it.
public func armedTimers(_ pid: pid_t) -> [String] {
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fdinfo") else { return [] }
  return names.compactMap { fd in
    guard let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8),
      info.contains("clockid:"), let value = info.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") })
    else { return nil }
    return value.contains("(0, 0)") ? nil : "fd \(fd) \(value)"
  }
}

/// Whether every thread of `pid` sleeps in the kernel (no thread running or runnable).
public func allThreadsIdle(_ pid: pid_t) -> Bool {
  guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return false }
  return tasks.allSatisfy { tid in
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)...].first == "S"
  }
}

/// What each open descriptor of a process is (`/proc/PID/fd` links), for messages.
public func descriptorTargets(_ pid: pid_t) -> [String] {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
  return names.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { fd in
    "\(fd) → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?")
  }
}
