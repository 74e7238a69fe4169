import Foundation

extension SwayCompositor {
  /// Brings up sway's Xwayland (sway started with `xwayland: true`) and returns its X display
  /// (`:N`), which root's X clients (the inspector, displayd) may then use.
  ///
  /// sway sets `DISPLAY` for the commands it runs, so one of them tells the number. Xwayland
  /// itself starts on the first X client and lets only its own user in (`Authorization
  /// required` for root), and with `-terminate` it ends when its last client goes: a client of
  /// the rig user's adds root (`xhost +si:localuser:root`) and stays connected meanwhile.
  @discardableResult
  public func startXwayland(timeout: Double = 20) throws -> String {
    if let xDisplay { return xDisplay }
    let file = outputDirectory + "/display"
    let r = try swaymsg(["exec", "echo \"$DISPLAY\" > \(file).tmp && mv \(file).tmp \(file)"])
    guard r.status == 0 else { throw RigError("swaymsg exec failed: \(r.out) \(r.err)") }
    var display = ""
    let told = eventually(within: timeout) {
      display = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").trimmingCharacters(
        in: .whitespacesAndNewlines)
      return !display.isEmpty
    }
    guard told, display.hasPrefix(":"), let number = Int(display.dropFirst()) else {
      throw RigError("sway gave its commands no X DISPLAY (\(display)); is xwayland enabled? \(log.suffix(1000))")
    }
    let socket = "/tmp/.X11-unix/X\(number)"
    guard eventually(within: timeout, { FileManager.default.fileExists(atPath: socket) }) else {
      throw RigError("no X socket \(socket) for sway's Xwayland")
    }
    let keep = "xhost +si:localuser:root && exec xprop -root -spy _DISPLAYD_RIG_KEEPER"
    xKeeper = try ProcessGroup(
      Self.asRigUser(["PATH": "/usr/bin:/bin", "DISPLAY": display], ["/bin/sh", "-c", keep]),
      log: directory + "/xkeeper.log")
    let env = ["PATH": "/usr/bin:/bin", "DISPLAY": display]
    guard eventually(within: timeout, { (try? runCommand(["xrandr", "--query"], environment: env))?.status == 0 })
    else {
      throw RigError("root cannot reach Xwayland on \(display): \(xKeeper?.log() ?? "") \(log.suffix(1000))")
    }
    xDisplay = display
    return display
  }

  /// Runs an X client (root's, e.g. `xrandr`) on sway's Xwayland.
  public func xClient(_ argv: [String], timeout: Double = 10) throws -> (status: Int32, out: String, err: String) {
    let display = try startXwayland()
    return try runCommand(argv, environment: ["PATH": "/usr/bin:/bin", "DISPLAY": display], timeout: timeout)
  }
}
