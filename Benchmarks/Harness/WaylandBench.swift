// What the Wayland benchmarks share: the rig check (skipped, saying why, where it cannot run),
// the sway pid to charge the compositor's CPU to, the benchmark's own wl_shm client, and the
// daemon on a sway socket.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` when the rig can run here; otherwise prints that `name` was skipped and why.
func onTheRig(_ name: String, _ body: () throws -> Void) throws {
  guard WaylandRig.isAvailable else {
    print("\(name): skipped: \(WaylandRig.skipReason)")
    return
  }
  try body()
}

/// The process of a group that runs the program itself (through the rig's loader), not
/// `runuser` or the guard shell around it.
func rigProgramPid(_ pids: [pid_t]) -> pid_t? {
  pids.first { pid in
    let comm = readProcFile("/proc/\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    return comm.hasPrefix("ld-linux")
  }
}

extension SwayCompositor {
  /// sway's own process, whose CPU a mirror's compositing adds to.
  func swayPid() throws -> pid_t {
    guard let pid = rigProgramPid(processes()) else { throw RigError("no sway process") }
    return pid
  }

  /// The socket's path, as `displayd --display` takes it.
  var socketPath: String { runtime + "/" + waylandDisplay }

  /// displayd on this sway with `config`, its control socket in `runtime`.
  func daemon(config: String, runtime: String, logLevel: String = "info") throws -> DaemonProcess {
    try DaemonProcess(
      display: socketPath, config: config, extra: ["--backend", "wayland"], environment: ["XDG_RUNTIME_DIR": runtime],
      logLevel: logLevel)
  }
}

/// `displayd status --json` of the daemon on `display` with its control socket in `runtime`.
func daemonStatus(_ display: String, _ runtime: String) throws -> [String: Any] {
  let r = try runCommand(
    [displaydPath, "status", "--json", "--display", display],
    environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
  guard r.status == 0, let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any] else {
    throw RigError("displayd status failed: \(r.err)")
  }
  return object
}

/// How many monitors the daemon manages, from its status.
func managedMonitors(_ display: String, _ runtime: String) -> Int {
  ((try? daemonStatus(display, runtime))?["monitors"] as? [Any])?.count ?? -1
}

/// Stops a daemon and waits for it.
func stop(_ daemon: DaemonProcess) {
  guard daemon.child.exitStatus == nil else { return }
  daemon.child.signal(SIGTERM)
  if daemon.child.wait(timeout: 5) == nil {
    daemon.child.signal(SIGKILL)
    daemon.child.wait()
  }
}

/// `Benchmarks/c/NAME.c` built with the glue of `protocols` (their XMLs' names), which
/// wayland-scanner makes here from the XMLs the daemon is built from: the build's own glue
/// is somewhere under SwiftPM's build directory, for its targets only.
func buildWaylandTool(_ name: String, protocols: [String], into dir: String) throws -> String {
  let glue = dir + "/\(name)-glue"
  try FileManager.default.createDirectory(atPath: glue, withIntermediateDirectories: true)
  for proto in protocols {
    let xml = protocolXML(proto)
    for (kind, file) in [("private-code", "\(proto)-protocol.c"), ("client-header", "\(proto)-client-protocol.h")] {
      let r = try runCommand(["wayland-scanner", kind, xml, glue + "/" + file], timeout: 60)
      guard r.status == 0 else {
        throw RigError("wayland-scanner \(kind) \(xml) failed (make bench-deps installs it and the XMLs): \(r.err)")
      }
    }
  }
  let out = dir + "/" + name
  let r = try runCommand(
    ["gcc", "-O2", "-Wall", "-I", glue, "-o", out, benchmarksDirectory + "/c/\(name).c"]
      + protocols.map { glue + "/\($0)-protocol.c" } + ["-lwayland-client"], timeout: 60)
  guard r.status == 0 else { throw RigError("gcc \(name).c failed: \(r.err)") }
  return out
}

/// Where the WaylandGlue plugin finds a protocol's XML: a wlr protocol in WLR_PROTOCOLS, any
/// other a stable one in WAYLAND_PROTOCOLS (Debian's directories when they are not set).
func protocolXML(_ name: String) -> String {
  func directory(_ variable: String, _ debian: String) -> String {
    guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return debian }
    return value
  }
  if name.hasPrefix("wlr-") {
    return directory("WLR_PROTOCOLS", "/usr/share/cargo/registry/wayland-protocols-0.29.4/wlr-protocols/unstable")
      + "/\(name).xml"
  }
  return directory("WAYLAND_PROTOCOLS", "/usr/share/wayland-protocols") + "/stable/\(name)/\(name).xml"
}

/// The benchmark's live source: a layer surface over `output` filled anew at each of the
/// compositor's frame callbacks.
final class Animator {
  let child: ChildProcess
  private var last: (frames: Int, at: Double) = (0, 0)

  init(_ program: String, on sway: SwayCompositor, output: String) throws {
    child = try ChildProcess(
      [program, output], environment: sway.waylandEnvironment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    guard child.readLine(timeout: 5)?.hasPrefix("ready") == true else {
      throw RigError("wl-animate did not start: \(child.drainOutput().err)")
    }
  }

  /// The latest report: frames drawn and when (it reports every 30 frames).
  func mark() -> (frames: Int, at: Double) {
    while let line = child.readLine(timeout: 0) {
      let parts = line.split(separator: " ")
      if parts.count == 3, parts[0] == "frames", let n = Int(parts[1]), let t = Double(parts[2]) { last = (n, t) }
    }
    return last
  }

  /// Frames per second between two marks.
  static func rate(_ a: (frames: Int, at: Double), _ b: (frames: Int, at: Double)) -> Double {
    b.at > a.at ? Double(b.frames - a.frames) / (b.at - a.at) : 0
  }

  /// Stops it, once: a reaped pid may be another process's by a second call.
  func stop() {
    guard child.exitStatus == nil else { return }
    child.signal(SIGKILL)
    child.wait()
  }
}
