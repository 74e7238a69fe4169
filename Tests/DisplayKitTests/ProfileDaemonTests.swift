import DisplayKit
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayModel

/// Profiles in the running daemon on Xvnc: monitors plugged through the VNC client and told
/// apart by EDIDs set on the `EDID` output property, which Xvnc takes.
extension XServerTests {
  @Suite struct ProfileDaemon {
    /// Xvnc with VNC-0, a daemon with `config` (`HOOKS` in it is replaced by a file the
    /// hooks append to) and its control socket.
    struct Rig {
      let server: TestXServer
      let vnc: VNCClient
      let main: UInt32
      let runtime: String
      let hookFile: String
      let daemon: DaemonProcess
      let x: XConnection

      init(_ config: String) throws {
        server = try TestXServer.vnc()
        vnc = try VNCClient(socketPath: server.vncSocket)
        main = try #require(vnc.screens.first?.id)
        runtime = try runtimeDirectory()
        hookFile = runtime + "/hooks.log"
        daemon = try DaemonProcess(
          display: server.display, config: config.replacingOccurrences(of: "HOOKS", with: hookFile),
          environment: ["XDG_RUNTIME_DIR": runtime])
        x = try XConnection(name: server.display)
      }

      /// Plugs monitors of these sizes right of VNC-0 (VNC-1, VNC-2, ...).
      func plug(_ sizes: [(Int, Int)]) throws {
        let screens = [(main, 1920, 1080)] + sizes.enumerated().map { (main + UInt32($0 + 1), $1.0, $1.1) }
        try vnc.setLayout(VNCClient.row(screens))
      }

      /// Sets an EDID from the fixtures on an output.
      func setEDID(_ file: String, on name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/" + file)))
        let output = try #require(try x.readTopology().output(named: name))
        try x.setEDID(bytes, on: output.id)
      }

      /// `status --json`.
      func status() throws -> [String: Any] {
        let r = try runCommand(
          [displaydPath, "status", "--json", "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        guard r.status == 0 else { throw RigError("status: \(r.err)") }
        return try jsonObject(r.out)
      }

      /// The active profile's name and reason ("-" for a null name).
      func profile() -> String? {
        guard let p = (try? status())?["profile"] as? [String: Any] else { return nil }
        return "\(p["name"] as? String ?? "-") \(p["reason"] as? String ?? "?")"
      }

      func shows(_ profile: String, within seconds: Double = 2) -> Bool {
        eventually(within: seconds) { self.profile() == profile }
      }

      /// One control request's answer.
      func request(_ json: String) throws -> [String: Any] {
        let socket = try UnixClient(runtime + "/displayd/\(server.display).sock")
        try socket.send(Array((json + "\n").utf8))
        return try jsonObject(try #require(socket.line(timeout: 3)))
      }

      /// `xrandr`'s geometry of an output, e.g. `1280x1024+0+0`, nil when off.
      func geometry(_ name: String) throws -> String? {
        parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == name }?.geometry
      }

      func hookLines() -> [String] {
        ((try? String(contentsOfFile: hookFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      }
    }

    static let twoProfiles = """
      { profiles: [
          { name: 'aus', outputs: [ { match: { manufacturer: 'AUS' } }, { match: { output: 'VNC-0' } } ],
            hooks: { applied: [['sh', '-c', 'echo applied $DISPLAYD_PROFILE >> HOOKS']] } },
          { name: 'acer', outputs: [ { match: { output: 'VNC-0' } }, { match: { manufacturer: 'ACR' } } ] },
        ],
        hooks: { connected: [['sh', '-c', 'echo connected $DISPLAYD_OUTPUT profile=$DISPLAYD_PROFILE >> HOOKS']] } }
      """

    @Test func theSetOfMonitorsChoosesTheProfileAndNoneMeansPerMonitorRules() throws {
      let rig = try Rig(Self.twoProfiles)
      #expect(rig.profile() == "- none")
      let status = try runCommand(
        [displaydPath, "status", "--json", "--display", rig.server.display],
        environment: ["XDG_RUNTIME_DIR": rig.runtime, "PATH": "/usr/bin:/bin"]
      ).out
      #expect(status.contains(#""profile":{"name":null,"reason":"none"}"#), "\(status)")
      // A monitor without an EDID matches neither profile: today's rule, right of main, a window.
      try rig.plug([(1280, 1024)])
      let x = try XInspector(rig.server.display)
      #expect(eventually(within: 2) { x.displaydWindows().count == 1 })
      #expect(try rig.geometry("VNC-1") == "1280x1024+1920+0")
      #expect(rig.profile() == "- none")
      #expect(eventually(within: 2) { rig.hookLines().contains("connected VNC-1 profile=") }, "\(rig.hookLines())")

      // An ASUS EDID: 'aus' lays it out first in a row, VNC-0 after it; no window (no content).
      try rig.setEDID("asus_aus27d1_0d64f5ca0b43.bin", on: "VNC-1")
      #expect(rig.shows("aus matched"), "\(rig.daemon.log.suffix(8))")
      #expect(eventually(within: 2) { (try? rig.geometry("VNC-1")) == "1280x1024+0+0" })
      #expect(try rig.geometry("VNC-0") == "1920x1080+1280+0")
      #expect(eventually(within: 2) { x.displaydWindows().isEmpty }, "a profile entry without content has no window")
      #expect(eventually(within: 2) { rig.hookLines().contains("applied aus") }, "\(rig.hookLines())")
      let env = ["XDG_RUNTIME_DIR": rig.runtime, "PATH": "/usr/bin:/bin"]
      let text = try runCommand([displaydPath, "status", "--display", rig.server.display], environment: env).out
      #expect(text.contains("\nprofile: aus (matched)\n"), "\(text)")
      let json = try runCommand([displaydPath, "status", "--json", "--display", rig.server.display], environment: env)
        .out
      #expect(json.contains(#""lid":"open","profile":{"name":"aus","reason":"matched"}"#), "\(json)")

      // An Acer EDID on the same connector: the other profile.
      try rig.setEDID("acer_acr001a_34cdf6327a45.bin", on: "VNC-1")
      #expect(rig.shows("acer matched"))
      #expect(eventually(within: 2) { (try? rig.geometry("VNC-1")) == "1280x1024+1920+0" })
      #expect(try rig.geometry("VNC-0") == "1920x1080+0+0")
      #expect(rig.hookLines().filter { $0.hasPrefix("applied") } == ["applied aus"], "acer has no applied hook")
    }

    @Test func itsOwnEventsAndALaterXrandrCauseNoReapply() throws {
      let rig = try Rig(Self.twoProfiles)
      try rig.plug([(1280, 1024)])
      try rig.setEDID("asus_aus27d1_0d64f5ca0b43.bin", on: "VNC-1")
      #expect(rig.shows("aus matched"))
      #expect(eventually(within: 2) { (try? rig.geometry("VNC-0")) == "1920x1080+1280+0" })
      rig.daemon.settle()
      let applies = rig.daemon.log.filter { $0.contains("profile 'aus':") }
      #expect(applies.count == 1, "applied once, its own events apply nothing: \(applies)")
      let counters = { (try? rig.status())?["counters"] as? [String: Any] }
      let changed = try #require(counters()?["reconciles_changed"] as? Int)
      let timestamp = try rig.x.readTopology().configTimestamp

      // The user moves VNC-0 down: left alone while the desk stays the same.
      try rig.server.must(["xrandr", "--output", "VNC-0", "--pos", "1280x200"])
      rig.daemon.settle()
      #expect(try rig.geometry("VNC-0") == "1920x1080+1280+200")
      #expect(counters()?["reconciles_changed"] as? Int == changed)
      #expect(try rig.x.readTopology().configTimestamp != timestamp, "xrandr did change the server")
      #expect(rig.daemon.log.filter { $0.contains("profile 'aus':") }.count == 1)
      #expect(rig.hookLines().filter { $0.hasPrefix("applied") }.count == 1)
    }

    @Test func twoIdenticalMonitorsAreToldApartByConnector() throws {
      let rig = try Rig(
        """
        { profiles: [ { name: 'twins', outputs: [
            { match: { output: 'VNC-0' }, position: 'right-of a' },
            { match: { manufacturer: 'AUS' }, alias: 'a', position: '0,0' },
            { match: { manufacturer: 'AUS' }, position: 'right-of VNC-0' },
        ] } ] }
        """)
      try rig.plug([(1280, 1024), (1024, 768)])
      try rig.setEDID("asus_aus27d1_0d64f5ca0b43.bin", on: "VNC-1")
      try rig.setEDID("asus_aus27d1_0d64f5ca0b43.bin", on: "VNC-2")
      #expect(rig.shows("twins matched"), "\(rig.daemon.log.suffix(10))")
      // The same identity twice: the entries take the connectors in name order.
      #expect(eventually(within: 2) { (try? rig.geometry("VNC-1")) == "1280x1024+0+0" }, "\(rig.daemon.log.suffix(10))")
      #expect(try rig.geometry("VNC-0") == "1920x1080+1280+0")
      #expect(try rig.geometry("VNC-2") == "1024x768+3200+0")
    }

    @Test func aProfileIsSwitchedByHandAndOneThatDoesNotMatchIsRefusedWithTheReason() throws {
      let rig = try Rig(
        """
        { profiles: [
            { name: 'right', outputs: [ { match: { output: 'VNC-0' } }, { match: { output: 'VNC-1' } } ] },
            { name: 'left', outputs: [ { match: { output: 'VNC-1' } }, { match: { output: 'VNC-0' } } ],
              hooks: { applied: [['sh', '-c', 'echo applied $DISPLAYD_PROFILE >> HOOKS']] } },
            { name: 'trio', outputs: [ { match: { output: 'VNC-0' } }, { match: { output: 'VNC-1' } },
                                       { match: { output: 'VNC-2' } } ] },
        ] }
        """)
      try rig.plug([(1280, 1024)])
      #expect(rig.shows("right matched"))
      #expect(eventually(within: 2) { (try? rig.geometry("VNC-1")) == "1280x1024+1920+0" })

      let list = try rig.request(#"{"request": "profile-list"}"#)
      let profiles = try #require(list["profiles"] as? [[String: Any]])
      #expect(profiles.map { $0["name"] as? String } == ["right", "left", "trio"])
      #expect(profiles.map { $0["matches"] as? Bool } == [true, true, false])
      #expect(profiles.map { $0["active"] as? Bool } == [true, false, false])
      #expect(
        (profiles[2]["reason"] as? String)?.contains("no connected output matches entry 3") == true, "\(profiles)")

      let switched = try rig.request(#"{"request": "profile-switch", "name": "left"}"#)
      #expect(switched["ok"] as? Bool == true, "\(switched)")
      #expect(rig.profile() == "left switched")
      #expect(try rig.geometry("VNC-1") == "1280x1024+0+0")
      #expect(try rig.geometry("VNC-0") == "1920x1080+1280+0")
      #expect(eventually(within: 2) { rig.hookLines() == ["applied left"] })

      let refused = try rig.request(#"{"request": "profile-switch", "name": "trio"}"#)
      #expect(refused["ok"] as? Bool == false)
      #expect(
        (refused["error"] as? String)?.contains(
          "profile 'trio' does not match the monitors present: no connected output matches entry 3 (output VNC-2)")
          == true, "\(refused)")
      let unknown = try rig.request(#"{"request": "profile-switch", "name": "nope"}"#)
      #expect((unknown["error"] as? String)?.contains("no profile named 'nope' (profiles: right, left, trio)") == true)
      #expect(rig.profile() == "left switched", "a refusal changes nothing")
      #expect(try rig.geometry("VNC-1") == "1280x1024+0+0")

      // A new monitor ends the switch: the profiles are matched again.
      try rig.plug([(1280, 1024), (1024, 768)])
      #expect(rig.shows("trio matched"))
      let path = try rig.request(#"{"request": "config-path"}"#)
      #expect(path["config"] as? String == rig.daemon.configPath)
    }
  }
}

/// What makes a plan empty: a plan changing only the primary or the physical size is not.
@Suite struct PlanEmptinessFromTheDaemonSideTests {
  @Test func primaryAndMillimetresCount() {
    var plan = Plan()
    #expect(plan.isEmpty)
    plan.primary = OutputID(rawValue: 7)
    #expect(!plan.isEmpty, "a primary to set is something to apply")
    plan.primary = nil
    plan.screenMillimetres = (500, 300)
    #expect(!plan.isEmpty, "a physical size to set is something to apply")
  }
}
