import Foundation

/// labwc 0.8 from the Debian 13 rig, nested in a rig sway (labwc has no command that creates
/// an output): with `WLR_BACKENDS=wayland` each of its outputs (`WL-1`, `WL-2`, ...) is a
/// window of the outer sway, tiled there, and closing that window unplugs the output.
/// Stopped (before its host) on deinit.
public final class LabwcCompositor {
  /// The sway it runs in; the runtime folder is shared.
  public let host: SwayCompositor
  /// labwc's `wayland-N` in the host's runtime folder.
  public let waylandDisplay: String
  /// Seconds from start to its outputs being listed over wlr-output-management.
  public let startSeconds: Double
  private let group: ProcessGroup

  /// Starts labwc with `outputs` outputs in `host` (a new sway without Xwayland if nil).
  public init(outputs: Int = 2, in host: SwayCompositor? = nil) throws {
    let started = now()
    let host = try host ?? SwayCompositor()
    self.host = host
    let config = host.outputDirectory + "/labwc"
    try WaylandRig.makeUserDirectory(config, mode: 0o755)
    let argv = try host.clientCommand(
      ["labwc", "-C", config],
      environment: [
        "WLR_BACKENDS": "wayland", "WLR_WL_OUTPUTS": String(outputs), "WLR_RENDERER": "pixman",
        "WLR_LIBINPUT_NO_DEVICES": "1",
      ])
    let group = try ProcessGroup(argv, log: host.directory + "/labwc.log")
    var socket: String?
    let ready = eventually(within: 20) {
      guard !group.hasEnded else { return true }
      socket = socket ?? Self.newSocket(in: host)
      guard let socket else { return false }
      return (try? Self.heads(host, socket))?.count == outputs
    }
    guard ready, let socket, group.isRunning else {
      let log = group.log()
      group.stop()
      throw RigError("labwc did not start with \(outputs) outputs: \(log.suffix(2000))")
    }
    self.group = group
    waylandDisplay = socket
    startSeconds = now() - started
  }

  deinit { stop() }

  public func stop() { group.stop() }

  public var isRunning: Bool { group.isRunning }

  /// labwc's log so far.
  public var log: String { group.log() }

  /// Runs a Wayland client of labwc's as the rig user (see `SwayCompositor.client`).
  public func client(_ argv: [String], timeout: Double = 10) throws -> (status: Int32, out: String, err: String) {
    try host.client(argv, environment: ["WAYLAND_DISPLAY": waylandDisplay], timeout: timeout)
  }

  /// The names of labwc's outputs, as `wlr-randr` lists them.
  public func outputNames() throws -> [String] { try Self.heads(host, waylandDisplay) }

  /// Unplugs `name` by closing its window in the host sway; waits until labwc no longer lists it.
  public func unplug(_ name: String) throws {
    let r = try host.swaymsg(["[title=\"^labwc - \(name)$\"]", "kill"])
    guard r.status == 0 else { throw RigError("closing \(name)'s window failed: \(r.out) \(r.err)") }
    guard try eventually(within: 5, { try !outputNames().contains(name) }) else {
      throw RigError("labwc still lists \(name) after its window closed")
    }
  }

  private static func newSocket(in host: SwayCompositor) -> String? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: host.runtime)) ?? []
    return names.sorted().first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") && $0 != host.waylandDisplay }
  }

  private static func heads(_ host: SwayCompositor, _ socket: String) throws -> [String] {
    let r = try host.client(["wlr-randr", "--json"], environment: ["WAYLAND_DISPLAY": socket])
    guard r.status == 0 else { throw RigError("wlr-randr on labwc failed: \(r.err)") }
    let list = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] ?? []
    return list.compactMap { $0["name"] as? String }.sorted()
  }
}
