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
    daemon.settle(quiet: 0.2)
    let after = try #require(Self.statusKB(daemon.child.pid, "RssShmem"))
    // The 1920x1080 picture is 8100 kB: resident here it would show whole.
    #expect(after - before < 1024, "RssShmem \(before) kB before the plug, \(after) kB after")
    #expect(daemon.isRunning)
  }
}
