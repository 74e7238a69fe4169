import Foundation
import Testing
import XRig

/// What the daemon keeps resident on the rig's sway: a placeholder's pixels live in the
/// `wl_shm` file the compositor reads them from, not in the daemon's memory as well (as on X
/// a window's pixels are the server's).
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandMemoryTests {
  typealias D = WaylandDaemonTests

  /// A `kB` line of `/proc/PID/status`.
  static func statusKB(_ pid: pid_t, _ key: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
    return line.flatMap { $0.split(separator: " ").dropFirst().compactMap { Int($0) }.first }
  }

  @Test func aShownPlaceholderKeepsNoneOfItsPixelsResidentInTheDaemon() throws {
    let sway = try SwayCompositor(background: D.desktop)
    let runtime = try runtimeDirectory()
    let daemon = try D.start(sway, config: D.config, runtime: runtime)
    let before = try #require(Self.statusKB(daemon.child.pid, "RssShmem"))
    let name = try sway.plug()
    // The compositor shows the whole picture: its pixels are intact in the shared file.
    let shown = try eventually(within: 5) {
      let image = try sway.screenshot(name)
      return image.pixel(x: 0, y: 0) == D.placeholder && image.pixel(x: 1919, y: 1079) == D.placeholder
    }
    #expect(shown, "\(daemon.log)")
    // Shown means drawn and handed over: read at once, and again until a deadline, so that
    // pages the kernel has yet to account are not taken for pixels kept.
    var after = Int.max
    let released = eventually(within: 5) {
      after = Self.statusKB(daemon.child.pid, "RssShmem") ?? Int.max
      return after - before < 1024
    }
    daemon.drain()
    // The 1920x1080 picture is 8100 kB: resident here it would show whole.
    #expect(released, "RssShmem \(before) kB before the plug, \(after) kB after")
    #expect(daemon.isRunning)
  }
}
