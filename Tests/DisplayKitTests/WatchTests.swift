import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A running `displayd watch --json`, read line by line.
final class WatchProcess {
  let child: ChildProcess
  init(display: String) throws {
    child = try ChildProcess([displaydPath, "watch", "--json", "--display", display])
    let ready = child.readErrorLine(timeout: 5) ?? ""
    guard ready.contains("watching") else { throw RigError("watch did not start: \(ready)") }
  }

  /// The next event for `output` of kind `event`, skipping others, within `timeout` seconds.
  func next(_ event: String, _ output: String, timeout: Double = 1) throws -> [String: Any]? {
    let deadline = Deadline(seconds: timeout)
    while !deadline.passed {
      guard let line = child.readLine(timeout: Double(deadline.remainingMs) / 1000) else { return nil }
      let obj = try jsonObject(line)
      if obj["event"] as? String == event, obj["output"] as? String == output { return obj }
    }
    return nil
  }

  /// Every event line that arrives until `timeout` passes with nothing new.
  func settle(quiet timeout: Double = 0.5) throws -> [[String: Any]] {
    var result: [[String: Any]] = []
    while let line = child.readLine(timeout: timeout) { result.append(try jsonObject(line)) }
    return result
  }
}

extension XServerTests {
  @Suite struct HotPlug {
    @Test func plugUnplugAndModeChangeAreReportedWithinASecond() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let mainID = try #require(vnc.screens.first?.id)
      let watch = try WatchProcess(display: server.display)

      let plugged = now()
      try vnc.setLayout(VNCClient.row([(mainID, 1920, 1080), (mainID + 1, 1280, 1024)]))
      let connected = try #require(try watch.next("connected", "VNC-1"), "no connected event within 1 s")
      #expect(now() - plugged < 1)
      #expect(connected["crtc"] as? [String: Int] == ["x": 1920, "y": 0, "width": 1280, "height": 1024])
      #expect(connected["connected"] as? Bool == true)
      #expect(connected["time"] is String)

      try server.must(["xrandr", "--output", "VNC-1", "--mode", "1024x768"])
      let changed = try #require(try watch.next("mode-changed", "VNC-1"), "no mode-changed within 1 s")
      #expect((changed["current_mode"] as? [String: Any])?["name"] as? String == "1024x768")

      try vnc.setLayout(VNCClient.row([(mainID, 1920, 1080)]))
      let gone = try #require(try watch.next("disconnected", "VNC-1"), "no disconnected event within 1 s")
      #expect(gone["connected"] as? Bool == false)

      watch.child.signal(SIGTERM)
      #expect(watch.child.wait(timeout: 1) == 0, "SIGTERM ends watch with status 0")
    }

    @Test func burstOfLayoutsEndsInTheServersFinalState() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let watch = try WatchProcess(display: server.display)
      let observer = try XConnection(name: server.display)
      let watcher = try HeadWatcher(server: observer)
      let layouts: [[(UInt32, Int, Int)]] = [
        [(main, 1920, 1080), (main + 1, 1280, 1024)],
        [(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 1024, 768)],
        [(main, 1920, 1080), (main + 2, 800, 600)],
        [(main, 1920, 1080)],
        [(main, 1920, 1080), (main + 1, 1024, 768), (main + 2, 1280, 1024)],
        [(main, 1920, 1080), (main + 1, 1280, 720)],
        [(main, 1920, 1080), (main + 2, 1280, 1024)],
        [(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 640, 480)],
        [(main, 1920, 1080), (main + 2, 1280, 1024)],
        [(main, 1920, 1080), (main + 1, 1280, 1024)],
      ]
      let replayed = xrandrState(try server.must(["xrandr", "--verbose"]))
      for layout in layouts { try vnc.setLayout(VNCClient.row(layout.map { ($0.0, $0.1, $0.2) })) }

      let truth = try XConnection(name: server.display).readTopology()
      let caughtUp = try eventually(within: 2) {
        if !pollFDs([observer.fileDescriptor.rawValue], timeoutMs: 20).isEmpty || observer.queuedEvents > 0 {
          _ = try observer.readAvailable()
          if try observer.takeChanges() > 0 { try watcher.refresh() }
        }
        let reads = (watcher.layout.manager as? RandROutputManager)?.reads
        return reads?.last == truth && watcher.heads == RandROutputManager(observer).snapshot(truth)
      }
      #expect(caughtUp, "the watcher's last read equals the server's final state")

      // Replaying watch's events onto the state before the burst gives the state after it,
      // both as xrandr reads them.
      var state = replayed
      for event in try watch.settle() {
        let name = try #require(event["output"] as? String)
        let connected = event["connected"] as? Bool ?? false
        let crtc = event["crtc"] as? [String: Int]
        state[name] = connected ? crtc.map { "\($0["width"]!)x\($0["height"]!)+\($0["x"]!)+\($0["y"]!)" } ?? "off" : nil
      }
      #expect(state == xrandrState(try server.must(["xrandr", "--verbose"])))
    }
  }
}

/// Connected outputs and their geometry ("off" without a CRTC), as xrandr reads them.
func xrandrState(_ verbose: String) -> [String: String] {
  var state: [String: String] = [:]
  for output in parseXrandrVerbose(verbose) where output.connected { state[output.name] = output.geometry ?? "off" }
  return state
}
