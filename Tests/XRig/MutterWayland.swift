import Foundation

/// mutter as a headless Wayland compositor (`mutter --headless --wayland`) with virtual
/// monitors, on a private session bus, and the Xwayland it starts: an X server whose
/// RandR the compositor owns (outputs `XWAYLAND0`, ...). Stopped, with Xwayland, when this goes.
public final class MutterWayland {
  public let bus: SessionBus
  /// Xwayland's display, e.g. `:3`.
  public let display: String
  /// The Xauthority file mutter made for it: X clients need it.
  public let xauthority: String
  public let log: String

  /// Starts mutter with one virtual monitor per size (`1280x720`) and waits until Xwayland
  /// answers.
  public init(monitors: [String]) throws {
    let bus = try SessionBus(display: nil)
    let log = bus.home + "/mutter.log"
    self.bus = bus
    self.log = log
    try bus.start(["mutter", "--headless", "--wayland"] + monitors.flatMap { ["--virtual-monitor", $0] }, log: log)
    var found: String?
    _ = eventually(within: 15) {
      found =
        fileLines(log).lazy.compactMap { line in
          line.range(of: "Using public X11 display ").map { String(line[$0.upperBound...].prefix { $0 != "," }) }
        }.first
      return found != nil
    }
    guard let display = found else { throw RigError("mutter started no Xwayland: \(fileLines(log).suffix(20))") }
    self.display = display
    let run = bus.home + "/run"
    let auth = (try? FileManager.default.contentsOfDirectory(atPath: run))?.first {
      $0.hasPrefix(".mutter-Xwaylandauth")
    }
    guard let auth else { throw RigError("no Xauthority file of mutter's in \(run)") }
    xauthority = run + "/" + auth
    let answers = eventually(within: 15) { (try? self.run(["xrandr"]).status) == 0 }
    guard answers else { throw RigError("Xwayland on \(display) does not answer: \(fileLines(log).suffix(20))") }
  }

  /// Runs an X client against Xwayland.
  public func run(_ argv: [String]) throws -> (status: Int32, out: String, err: String) {
    try runCommand(argv, environment: ["DISPLAY": display, "XAUTHORITY": xauthority, "PATH": "/usr/bin:/bin"])
  }
}
