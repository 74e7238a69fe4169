// displayd-bench wayland-rss: the daemon's resident memory with four heads on the rig's sway,
// against the same daemon on Xvnc with the same heads (a 1280x720 main one and four
// 1920x1080 ones) in the same run: with placeholders and with `content: "none"`.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// Resident memory of one daemon with its monitors plugged, kB, by kind (`/proc/PID/status`).
private struct Resident {
  var rss = 0
  var anon = 0
  var file = 0
  var shmem = 0

  init(_ pid: pid_t) {
    rss = statusKB(pid, "VmRSS") ?? 0
    anon = statusKB(pid, "RssAnon") ?? 0
    file = statusKB(pid, "RssFile") ?? 0
    shmem = statusKB(pid, "RssShmem") ?? 0
  }

  init() {}

  static func median(_ all: [Resident]) -> Resident {
    var r = Resident()
    let m = { (k: KeyPath<Resident, Int>) in Int(percentile(all.map { Double($0[keyPath: k]) }, 0.5)) }
    (r.rss, r.anon, r.file, r.shmem) = (m(\.rss), m(\.anon), m(\.file), m(\.shmem))
    return r
  }
}

private let configs = [
  ("placeholders", "{ placeholder: { background: '#204080', foreground: '#ffcc00', text: 'HELLO' } }"),
  ("content none", "{ defaults: { content: 'none' } }"),
]

func waylandRSSBenchmark(monitors: Int, rounds: Int) throws {
  try onTheRig("wayland-rss") {
    var x: [[Resident]] = Array(repeating: [], count: configs.count)
    var wayland = x
    for _ in 0..<rounds {
      for (i, config) in configs.enumerated() {
        x[i].append(try xResident(config.1, monitors: monitors))
        wayland[i].append(try waylandResident(config.1, monitors: monitors))
      }
    }
    print(
      "Daemon RSS with \(monitors) heads of 1920x1080 (and a 1280x720 main one) plugged, \(rounds) starts each, medians:"
    )
    print("  machine: \(machineName())")
    print(pad("", 43) + "VmRSS   (anon  + file  + shmem)   vs X11")
    for (i, config) in configs.enumerated() {
      let (a, b) = (Resident.median(x[i]), Resident.median(wayland[i]))
      for (name, r) in [("X11 (Xvnc), ", a), ("Wayland (sway 1.10.1), ", b)] {
        print(
          pad("  " + name + config.0, 42)
            + String(
              format: "%6.1f MB (%5.1f + %5.1f + %5.1f)   %5.2fx", mb(r.rss), mb(r.anon), mb(r.file), mb(r.shmem),
              Double(r.rss) / Double(max(a.rss, 1))))
      }
      print(String(format: "  goal: Wayland <= X11 with %@: %@", config.0, b.rss <= a.rss ? "met" : "NOT met"))
    }
  }
}

private func mb(_ kb: Int) -> Double { Double(kb) / 1024 }

/// The daemon's memory on a fresh Xvnc once it manages `monitors` plugged monitors.
private func xResident(_ config: String, monitors: Int) throws -> Resident {
  let server = try TestXServer.vnc()
  defer { server.stop() }
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let runtime = try makeTempDirectory("displayd-bench-run")
  let daemon = try DaemonProcess(
    display: server.display, config: config, environment: ["XDG_RUNTIME_DIR": runtime], logLevel: "info")
  defer { stop(daemon) }
  try vnc.setLayout(VNCClient.row([(main, 1280, 720)] + (1...monitors).map { (main + UInt32($0), 1920, 1080) }))
  return try settled(daemon, display: server.display, runtime: runtime, monitors: monitors)
}

/// The same on a fresh sway, its heads plugged with `create_output`.
private func waylandResident(_ config: String, monitors: Int) throws -> Resident {
  let sway = try SwayCompositor()
  defer { sway.stop() }
  let runtime = try makeTempDirectory("displayd-bench-run")
  let daemon = try sway.daemon(config: config, runtime: runtime)
  defer { stop(daemon) }
  for _ in 0..<monitors { try sway.plug() }
  return try settled(daemon, display: sway.socketPath, runtime: runtime, monitors: monitors)
}

/// Waits until the daemon has seen `monitors` monitors connected and, where they get a
/// surface, manages them all; then until its log is quiet; then reads its memory.
private func settled(_ daemon: DaemonProcess, display: String, runtime: String, monitors: Int) throws -> Resident {
  let surfaces = !(daemon.configPath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "")
    .contains("'none'")
  let done = eventually(within: 10) {
    daemon.drain()
    let connected = daemon.log.filter { $0.contains("info]: connected ") }.count
    return connected >= monitors && (!surfaces || managedMonitors(display, runtime) == monitors)
  }
  guard done else {
    throw RigError("the daemon did not take \(monitors) monitors: \(daemon.log.suffix(10))")
  }
  daemon.settle(quiet: 0.3)
  return Resident(daemon.child.pid)
}
