import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One output as `swaymsg -t get_outputs -r` reports it.
public struct SwayOutput: Equatable {
  public var name: String
  public var active: Bool
  /// Position and logical size in the layout.
  public var rect: XInspector.Rect
  /// The current mode's size and refresh in mHz (0 on headless outputs); nil when off.
  public var currentMode: (width: Int, height: Int, refresh: Int)?
  /// The logical scale: the rect is the (turned) mode divided by it.
  public var scale = 1.0
  /// sway's name of the output transform, turning clockwise as sway's own config does
  /// (`normal`, `90`, ..., `flipped-270`): a wlr-output-management client's (kanshi's,
  /// wlr-randr's) `90`, the protocol's counter-clockwise turn, shows here as `270`.
  public var transform = "normal"

  public static func == (a: SwayOutput, b: SwayOutput) -> Bool {
    a.name == b.name && a.active == b.active && a.rect == b.rect
      && a.currentMode?.width == b.currentMode?.width && a.currentMode?.height == b.currentMode?.height
      && a.currentMode?.refresh == b.currentMode?.refresh && a.scale == b.scale && a.transform == b.transform
  }
}

/// A private sway 1.10 from the Debian 13 rig, headless with the pixman renderer, run as the
/// rig user with its own runtime folder and config. It starts with `HEADLESS-1` (1280x720);
/// `plug()` adds a 1920x1080 head. With `xwayland`, Debian 12's Xwayland serves X clients
/// (root included) on `startXwayland()`'s display. Everything stops on deinit.
public final class SwayCompositor {
  /// The private folder: `config`, `run/` (XDG_RUNTIME_DIR), `out/` (the rig user's to write).
  public let directory: String
  public let runtime: String
  /// A folder the rig user may write (screenshots, files its commands write).
  public let outputDirectory: String
  /// `wayland-N` in `runtime`.
  public let waylandDisplay: String
  public let ipcSocket: String
  /// Seconds from start to sway answering `get_version`.
  public let startSeconds: Double
  private let group: ProcessGroup
  var xKeeper: ProcessGroup?
  private var clients: [ProcessGroup] = []
  public internal(set) var xDisplay: String?

  /// Starts sway; `config` lines go after the rig's own (`xwayland enable|disable`, and with
  /// `background` (`#rrggbb`) a solid background on every output, drawn by the rig's swaybg).
  public init(
    xwayland: Bool = false, background: String? = nil, config: String = "", environment: [String: String] = [:]
  ) throws {
    let started = now()
    directory = try makeTempDirectory("displayd-sway")
    chmod(directory, 0o755)
    runtime = directory + "/run"
    outputDirectory = directory + "/out"
    try WaylandRig.makeUserDirectory(runtime, mode: 0o700)
    try WaylandRig.makeUserDirectory(outputDirectory, mode: 0o755)
    let configPath = try Self.writeConfig(
      in: directory,
      lines: ["xwayland \(xwayland ? "enable" : "disable")"]
        + (background.map { ["output * bg \($0) solid_color"] } ?? []) + [config])
    var env = [
      "PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless",
      "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
    ]
    env.merge(environment) { _, new in new }
    let argv = try Self.asRigUser(env, WaylandRig.command(["sway", "-c", configPath]))
    let group = try ProcessGroup(argv, log: directory + "/sway.log")
    let runtime = runtime
    var found: (wayland: String, ipc: String)?
    let ready = eventually(within: 20) {
      guard !group.hasEnded else { return true }
      found = Self.sockets(in: runtime)
      guard let ipc = found?.ipc else { return false }
      return (try? Self.swaymsg(ipc, ["-t", "get_version"]))?.status == 0
    }
    guard ready, let found, group.isRunning else {
      let log = group.log()
      group.stop()
      try? FileManager.default.removeItem(atPath: directory)
      throw RigError("sway did not start: \(log.suffix(2000))")
    }
    self.group = group
    waylandDisplay = found.wayland
    ipcSocket = found.ipc
    startSeconds = now() - started
  }

  deinit { stop() }

  /// The config, and a `swaybg` that runs the rig's through its loader (sway runs
  /// `swaybg_command` with the output and colour appended).
  private static func writeConfig(in directory: String, lines: [String]) throws -> String {
    let swaybg = directory + "/swaybg"
    let command = try WaylandRig.command(["swaybg"]).map { "'\($0)'" }.joined(separator: " ")
    try "#!/bin/sh\nexec \(command) \"$@\"\n".write(toFile: swaybg, atomically: true, encoding: .utf8)
    let path = directory + "/config"
    try (["swaybg_command \(swaybg)"] + lines).joined(separator: "\n").appending("\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    guard chmod(swaybg, 0o755) == 0, chmod(path, 0o644) == 0 else { throw RigError("chmod in \(directory) failed") }
    return path
  }

  /// Stops sway, its Xwayland and the rig's X client, and removes the private folder.
  public func stop() {
    clients.forEach { $0.stop() }
    xKeeper?.stop()
    group.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The pids of sway, what it started (Xwayland) and the rig's clients of it, now.
  public func processes() -> [pid_t] {
    ([group] + clients + (xKeeper.map { [$0] } ?? [])).flatMap { $0.members() }
  }

  /// Whether sway still runs.
  public var isRunning: Bool { group.isRunning }

  /// sway's log so far.
  public var log: String { group.log() }

  /// `swaymsg ARGS` on this sway (as root: the IPC socket does not check the peer).
  @discardableResult
  public func swaymsg(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
    try Self.swaymsg(ipcSocket, args)
  }

  /// The outputs sway holds, in its order.
  public func outputs() throws -> [SwayOutput] {
    let r = try swaymsg(["-t", "get_outputs", "-r"])
    guard r.status == 0 else { throw RigError("get_outputs failed: \(r.err)") }
    return try parseSwayOutputs(r.out)
  }

  /// Plugs a 1920x1080 headless monitor (`create_output`); returns its name.
  @discardableResult
  public func plug() throws -> String {
    let before = Set(try outputs().map(\.name))
    let r = try swaymsg(["create_output"])
    guard r.status == 0 else { throw RigError("create_output failed: \(r.out) \(r.err)") }
    var added: String?
    _ = try eventually(within: 5) {
      added = try outputs().map(\.name).first { !before.contains($0) }
      return added != nil
    }
    guard let added else { throw RigError("create_output added no output") }
    return added
  }

  /// Unplugs `name` (`output NAME unplug`) and waits until sway no longer lists it.
  public func unplug(_ name: String) throws {
    let r = try swaymsg(["output", name, "unplug"])
    guard r.status == 0 else { throw RigError("unplug \(name) failed: \(r.out) \(r.err)") }
    guard try eventually(within: 5, { try !outputs().contains { $0.name == name } }) else {
      throw RigError("\(name) still listed after unplug")
    }
  }

  /// Runs a Wayland client as the rig user with `WAYLAND_DISPLAY` set: a bare name is one of
  /// the rig's programs (`wlr-randr`, `grim`, ...), an absolute path a system one.
  public func client(
    _ argv: [String], environment: [String: String] = [:], timeout: Double = 10
  ) throws -> (status: Int32, out: String, err: String) {
    try runCommand(clientCommand(argv, environment: environment), timeout: timeout)
  }

  /// What a client run as root (displayd itself, say) needs to reach this compositor: root
  /// passes the runtime folder's permissions, and sway does not check who connects.
  public var waylandEnvironment: [String: String] { ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": waylandDisplay] }

  /// Starts a long-running client (kanshi, wl-mirror) as the rig user in a process group
  /// of its own, its output in `name`.log in the private folder; it stops on the returned
  /// group's deinit or `stop()`, and at the latest with this compositor.
  public func startClient(
    _ argv: [String], name: String, environment: [String: String] = [:]
  ) throws -> ProcessGroup {
    let group = try ProcessGroup(clientCommand(argv, environment: environment), log: directory + "/\(name).log")
    clients.append(group)
    return group
  }

  /// What Mesa needs to find its drivers in the rig's folder (wl-mirror draws with EGL).
  public static func mesaEnvironment() throws -> [String: String] {
    let root = try WaylandRig.root()
    let lib = root + "/usr/lib/x86_64-linux-gnu"
    return [
      "__EGL_VENDOR_LIBRARY_DIRS": root + "/usr/share/glvnd/egl_vendor.d", "LIBGL_DRIVERS_PATH": lib + "/dri",
      "GBM_BACKENDS_PATH": lib + "/gbm", "LIBGL_ALWAYS_SOFTWARE": "1",
    ]
  }

  /// The argv that runs `argv` as the rig user on this compositor (for long-running clients).
  public func clientCommand(_ argv: [String], environment: [String: String] = [:]) throws -> [String] {
    var env = [
      "PATH": "/usr/bin:/bin", "HOME": outputDirectory, "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": waylandDisplay,
    ]
    if let xDisplay { env["DISPLAY"] = xDisplay }
    env.merge(environment) { _, new in new }
    let program = argv.first?.hasPrefix("/") == true ? argv : try WaylandRig.command(argv)
    return Self.asRigUser(env, program)
  }

  static func asRigUser(_ env: [String: String], _ argv: [String]) -> [String] {
    ["runuser", "-u", WaylandRig.user, "--", "env", "-i"]
      + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      + argv
  }

  static func swaymsg(_ socket: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
    try runCommand(WaylandRig.command(["swaymsg", "-s", socket] + args), environment: ["PATH": "/usr/bin:/bin"])
  }

  static func sockets(in runtime: String) -> (wayland: String, ipc: String)? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
    guard let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
      let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") })
    else { return nil }
    return (wayland, runtime + "/" + ipc)
  }
}

/// Parses `swaymsg -t get_outputs -r`.
public func parseSwayOutputs(_ json: String) throws -> [SwayOutput] {
  guard let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
    throw RigError("get_outputs is not a list: \(json.prefix(200))")
  }
  return list.map { o in
    let r = o["rect"] as? [String: Any] ?? [:]
    let int = { (d: [String: Any], k: String) in (d[k] as? NSNumber)?.intValue ?? 0 }
    let mode = (o["current_mode"] as? [String: Any]).map { (int($0, "width"), int($0, "height"), int($0, "refresh")) }
    return SwayOutput(
      name: o["name"] as? String ?? "", active: o["active"] as? Bool ?? false,
      rect: XInspector.Rect(x: int(r, "x"), y: int(r, "y"), width: int(r, "width"), height: int(r, "height")),
      currentMode: mode, scale: (o["scale"] as? NSNumber)?.doubleValue ?? 1,
      transform: o["transform"] as? String ?? "normal")
  }
}

/// A window (a view) in sway's tree.
public struct SwayWindow: Equatable {
  public var title: String
  /// `xdg_shell` or `xwayland`.
  public var shell: String
  /// The output whose workspace holds it.
  public var output: String
  public var rect: XInspector.Rect
  public var floating: Bool
}

extension SwayCompositor {
  /// Every window sway manages (tiled and floating), with the output it is on.
  public func windows() throws -> [SwayWindow] {
    let r = try swaymsg(["-t", "get_tree", "-r"])
    guard r.status == 0, let tree = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any] else {
      throw RigError("get_tree failed: \(r.err)")
    }
    var found: [SwayWindow] = []
    collectWindows(tree, output: "", floating: false, into: &found)
    return found
  }

  private func collectWindows(_ node: [String: Any], output: String, floating: Bool, into found: inout [SwayWindow]) {
    let type = node["type"] as? String ?? ""
    let output = type == "output" ? node["name"] as? String ?? "" : output
    if let shell = node["shell"] as? String {
      let r = node["rect"] as? [String: Any] ?? [:]
      let int = { (k: String) in (r[k] as? NSNumber)?.intValue ?? 0 }
      found.append(
        SwayWindow(
          title: node["name"] as? String ?? "", shell: shell, output: output,
          rect: XInspector.Rect(x: int("x"), y: int("y"), width: int("width"), height: int("height")),
          floating: floating))
    }
    for child in node["nodes"] as? [[String: Any]] ?? [] {
      collectWindows(child, output: output, floating: floating, into: &found)
    }
    for child in node["floating_nodes"] as? [[String: Any]] ?? [] {
      collectWindows(child, output: output, floating: true, into: &found)
    }
  }
}
