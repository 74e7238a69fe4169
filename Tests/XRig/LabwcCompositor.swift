import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// labwc 0.8 from the Debian 13 rig, nested in a rig sway (labwc has no command that creates
/// an output): with `WLR_BACKENDS=wayland` each of its outputs (`WL-1`, `WL-2`, ...) is a
/// window of the outer sway, tiled there, and closing that window unplugs the output.
/// `plug()` adds a headless output at run time: labwc's `VirtualOutputAdd` action (labwc 0.7
/// and later), bound in the rig's `rc.xml` to a key that Debian 12's `wtype` presses through
/// a virtual keyboard (labwc has no IPC); `VirtualOutputRemove` unplugs it again.
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
    try Self.writeConfig(in: config)
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

  /// Headless outputs added by `plug()` and not yet unplugged, the last one last.
  public private(set) var virtualOutputs: [String] = []

  /// Debian 12's wtype, a client of labwc's virtual keyboard manager.
  static let wtype = "/usr/bin/wtype"

  /// Plugs a headless monitor (1920x1080, `VirtualOutputAdd` through the rig's key); returns
  /// its name once labwc lists it.
  @discardableResult
  public func plug() throws -> String {
    let before = Set(try outputNames())
    try press("F1")
    var added: String?
    _ = try eventually(within: 5) {
      added = try outputNames().first { !before.contains($0) }
      return added != nil
    }
    guard let added else { throw RigError("VirtualOutputAdd added no output: \(log.suffix(1000))") }
    virtualOutputs.append(added)
    return added
  }

  /// Unplugs `name`: a headless output of `plug()` by `VirtualOutputRemove` (which removes
  /// the last one added: `name` must be it), a `WL-N` one by closing its window in the host
  /// sway; waits until labwc no longer lists it.
  public func unplug(_ name: String) throws {
    if virtualOutputs.contains(name) {
      guard virtualOutputs.last == name else { throw RigError("\(name) is not the last virtual output") }
      try press("F2")
      virtualOutputs.removeLast()
    } else {
      let r = try host.swaymsg(["[title=\"^labwc - \(name)$\"]", "kill"])
      guard r.status == 0 else { throw RigError("closing \(name)'s window failed: \(r.out) \(r.err)") }
    }
    guard try eventually(within: 5, { try !outputNames().contains(name) }) else {
      throw RigError("labwc still lists \(name) after its unplug")
    }
  }

  /// Super+`key` on a virtual keyboard (wtype uploads a keymap of the keys it types).
  private func press(_ key: String) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.wtype) else {
      throw RigError("no \(Self.wtype): apt-get install wtype (make test-deps)")
    }
    let r = try client([Self.wtype, "-M", "logo", "-k", key, "-m", "logo"])
    guard r.status == 0 else { throw RigError("wtype on labwc failed: \(r.err)") }
  }

  /// The rig's `rc.xml`: Super+F1 adds a virtual (headless) output, Super+F2 removes the last.
  private static func writeConfig(in folder: String) throws {
    let rc = """
      <?xml version="1.0"?>
      <labwc_config>
        <keyboard>
          <keybind key="W-F1"><action name="VirtualOutputAdd"/></keybind>
          <keybind key="W-F2"><action name="VirtualOutputRemove"/></keybind>
        </keyboard>
      </labwc_config>

      """
    let path = folder + "/rc.xml"
    try rc.write(toFile: path, atomically: true, encoding: .utf8)
    guard chmod(path, 0o644) == 0 else { throw RigError("chmod \(path) failed") }
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
