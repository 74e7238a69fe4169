import DisplayModel
import DisplayPorts
import DisplayService
import DisplayWayland
import DisplayX11
import Foundation
import Testing
import XRig

/// Identity and custom modes against the rig's real sway 1.10. Its headless heads report no
/// make, model or serial (the empty case; so do labwc's outputs nested in it, wlroots'
/// Wayland backend); on wlroots' X11 backend (sway's outputs are
/// windows of a private Xvnc) every head reports the X server's vendor as its make (`The
/// X.Org Foundation`) and protocol version as its model (`11.0`), no serial: the one rig
/// compositor whose heads say who they are (no rig compositor reports an EDID's make or a
/// serial: those are shown with values in `WaylandIdentityTests`). The X11 backend also
/// refuses a custom mode with a refresh ("refresh rates are not supported"), a real refusal.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandIdentityRigTests {
  static let make = "The X.Org Foundation"
  static let model = "11.0"

  /// sway on wlroots' X11 backend with `outputs` windows (X11-1, X11-2, ... of 1024x768).
  static func x11Sway(outputs: Int) throws -> (x: TestXServer, sway: SwayCompositor) {
    let x = try TestXServer.vnc(width: 2560, height: 1080)
    let sway = try SwayCompositor(
      environment: ["WLR_BACKENDS": "x11", "DISPLAY": x.display, "WLR_X11_OUTPUTS": String(outputs)])
    return (x, sway)
  }

  static func socket(_ sway: SwayCompositor) -> String { sway.runtime + "/" + sway.waylandDisplay }

  static func heads(_ sway: SwayCompositor) throws -> HeadSnapshot {
    try WaylandOutputManager(socket: socket(sway)).heads(probe: false)
  }

  /// Whether the profile matches the compositor's heads, with the system's pnp.ids, as the
  /// daemon matches it.
  static func matches(_ profile: String, _ sway: SwayCompositor) throws -> Bool {
    let config = try Config.parse(Array("{ profiles: [\(profile)] }".utf8), file: "saved")
    let snapshot = try heads(sway)
    let vendors = PNPVendorTable().vendors(for: snapshot.heads.map(\.make))
    let profile = try #require(config.profiles.first)
    return (try? ProfileMatcher.match(profile, snapshot: snapshot, lid: .open, vendors: vendors).get()) != nil
  }

  /// sway's headless heads say nothing: no identity, so only `output` globs match them.
  @Test func headlessHeadsHaveNoMakeModelOrSerialAndNoIdentity() throws {
    let sway = try SwayCompositor()
    let head = try #require(try Self.heads(sway).heads.first)
    #expect(head.make.isEmpty && head.model.isEmpty && head.serial.isEmpty, "\(head)")
    #expect(
      HeadIdentity(
        make: head.make, model: head.model, serial: head.serial, vendors: PNPVendorTable().vendors(for: [""])) == nil)
  }

  /// labwc nested in sway (wlroots' Wayland backend) says nothing about its outputs either.
  @Test func nestedLabwcHeadsHaveNoMakeModelOrSerial() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let manager = try WaylandOutputManager(socket: labwc.host.runtime + "/" + labwc.waylandDisplay)
    let heads = try manager.heads(probe: false).heads
    #expect(heads.count == 2 && heads.allSatisfy { $0.make.isEmpty && $0.model.isEmpty && $0.serial.isEmpty })
    let vendors = PNPVendorTable().vendors(for: heads.map(\.make))
    #expect(
      heads.allSatisfy { HeadIdentity(make: $0.make, model: $0.model, serial: $0.serial, vendors: vendors) == nil })
  }

  /// A profile whose entries name only the make and model matches the two X11 heads (told
  /// apart by name order), turns the second off and places the first; a profile for
  /// another make listed before it does not match.
  @Test func aProfileMatchedByMakeAndModelArrangesTheHeads() throws {
    let (x, sway) = try Self.x11Sway(outputs: 2)
    defer { withExtendedLifetime(x) {} }
    let before = try Self.heads(sway)
    #expect(before.heads.map(\.make) == [Self.make, Self.make], "\(before.heads)")
    #expect(before.heads.map(\.model) == [Self.model, Self.model])
    let id = "{ manufacturer: \"The X.Org*\", product_name: \"\(Self.model)\" }"
    let config = """
      {
        profiles: [
          { name: "dell", outputs: [{ match: { manufacturer: "DEL" } }, { match: { manufacturer: "DEL" } }] },
          { name: "xorg", outputs: [{ match: \(id), position: "0,0" }, { match: \(id), enabled: false }] },
        ],
      }
      """
    let runtime = try runtimeDirectory()
    let daemon = try DaemonProcess(
      display: Self.socket(sway), config: config, extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
    var outputs: [SwayOutput] = []
    let arranged = try eventually(within: 5) {
      outputs = try sway.outputs()
      let first = outputs.first { $0.name == "X11-1" }
      return first?.active == true && first?.rect.x == 0 && outputs.first { $0.name == "X11-2" }?.active == false
    }
    daemon.drain()
    #expect(arranged, "\(outputs) \(daemon.log)")
    #expect(daemon.log.contains { $0.contains("xorg") }, "\(daemon.log)")
  }

  /// `profile save` on Wayland (chosen by `$WAYLAND_DISPLAY`) writes the make and model, and
  /// the connector for two heads alike; the saved profile matches the compositor's heads.
  @Test func profileSaveWritesTheMakeAndModelAndTheSavedProfileMatchesAgain() throws {
    let (x, sway) = try Self.x11Sway(outputs: 2)
    defer { withExtendedLifetime(x) {} }
    let r = try runCommand(
      [displaydPath, "profile", "save", "here"],
      environment: ["XDG_RUNTIME_DIR": sway.runtime, "WAYLAND_DISPLAY": sway.waylandDisplay, "PATH": "/usr/bin:/bin"])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      r.out.contains(#"match: { output: "X11-1", manufacturer: "The X.Org Foundation", product_name: "11.0" }"#),
      "\(r.out)")
    #expect(try Self.matches(r.out, sway), "\(r.out)")
    // Without a daemon, `profile list` matches the config's profiles against the same heads.
    let home = try makeTempDirectory("displayd-home")
    try FileManager.default.createDirectory(atPath: home + "/displayd", withIntermediateDirectories: true)
    let config = "{ profiles: [{ name: 'dell', outputs: [{ match: { manufacturer: 'DEL' } }] }, \(r.out)] }"
    try config.write(toFile: home + "/displayd/config.json5", atomically: true, encoding: .utf8)
    let list = try runCommand(
      [displaydPath, "profile", "list"],
      environment: [
        "XDG_RUNTIME_DIR": sway.runtime, "WAYLAND_DISPLAY": sway.waylandDisplay, "XDG_CONFIG_HOME": home,
        "PATH": "/usr/bin:/bin",
      ])
    #expect(list.status == 0, "\(list.err)")
    #expect(list.out.contains("no daemon runs: 'here' would be chosen"), "\(list.out)")
  }

  /// The daemon asks for a size the head does not list (1280x1024 on a 1920x1080 headless
  /// head) with `set_custom_mode`, and sway shows it.
  @Test func aRulesSizeTheHeadDoesNotListIsShownAsACustomMode() throws {
    let sway = try SwayCompositor()
    let runtime = try runtimeDirectory()
    let config = "{ monitors: [{ match: { output: \"HEADLESS-2\" }, mode: \"1280x1024@60\" }] }"
    let daemon = try DaemonProcess(
      display: Self.socket(sway), config: config, extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
    let name = try sway.plug()
    var shown: SwayOutput?
    let applied = try eventually(within: 5) {
      shown = try sway.outputs().first { $0.name == name }
      return shown?.currentMode?.width == 1280 && shown?.currentMode?.height == 1024
    }
    daemon.drain()
    #expect(applied, "\(String(describing: shown)) \(daemon.log)")
    #expect(shown?.currentMode?.refresh == 60000)
    #expect(shown?.rect.width == 1280 && shown?.rect.height == 1024)
    // Shown, the mode is listed: the daemon, watched over two seconds, asks nothing again.
    let changes = daemon.changingReconciles.count
    #expect(changes >= 1, "\(daemon.log)")
    _ = daemon.waitFor("a line never logged", timeout: 2)
    #expect(daemon.changingReconciles.count == changes, "\(daemon.log)")
  }

  /// The X11 backend lists one mode per head and makes any size, but not at a given rate: a
  /// configuration asking for 800x600 at 60 Hz is refused, naming the custom mode, and the
  /// desk is as it was.
  @Test func aCustomModeTheCompositorRefusesIsNamedAndLeavesTheDeskAsItWas() throws {
    let (x, sway) = try Self.x11Sway(outputs: 1)
    defer { withExtendedLifetime(x) {} }
    let manager = try WaylandOutputManager(socket: Self.socket(sway))
    let snapshot = try manager.heads(probe: false)
    let head = try #require(snapshot.head(named: "X11-1"))
    #expect(head.modes.count == 1 && head.modes.first?.width == 1024, "\(head.modes)")
    let before = try sway.outputs()
    // 48.00 MHz over 1000 x 800 totals: 60 Hz.
    let wanted = try ModeLine.parse("48.00 800 840 920 1000 600 700 750 800").get()
    let configuration = OutputConfiguration(
      generation: snapshot.generation,
      heads: [HeadConfiguration(name: "X11-1", enabled: true, mode: .custom(wanted), x: 0, y: 0)])
    for result in [try manager.test(configuration), try manager.apply(configuration)] {
      guard case .refused(let refusal) = result else {
        Issue.record("\(result)")
        continue
      }
      #expect(refusal.reason.contains("(custom modes asked for: X11-1 800x600@60.000 Hz)"), "\(refusal.reason)")
    }
    #expect(try sway.outputs() == before)
  }

  /// The daemon's rule: `800x600` (no rate: the compositor's choice) is applied to the head
  /// that lists only 1024x768; `800x600@60` is refused, logged with the mode, the desk as it
  /// was.
  @Test(arguments: [("800x600", true), ("800x600@60", false)])
  func theDaemonAsksTheX11BackendForASizeItDoesNotList(mode: String, taken: Bool) throws {
    let (x, sway) = try Self.x11Sway(outputs: 2)
    defer { withExtendedLifetime(x) {} }
    let before = try sway.outputs()
    let runtime = try runtimeDirectory()
    let daemon = try DaemonProcess(
      display: Self.socket(sway), config: "{ monitors: [{ match: { output: \"X11-2\" }, mode: \"\(mode)\" }] }",
      extra: ["--backend", "wayland"], environment: ["XDG_RUNTIME_DIR": runtime])
    if taken {
      var shown: SwayOutput?
      let applied = try eventually(within: 5) {
        shown = try sway.outputs().first { $0.name == "X11-2" }
        return shown?.currentMode?.width == 800 && shown?.currentMode?.height == 600
      }
      daemon.drain()
      #expect(applied, "\(String(describing: shown)) \(daemon.log)")
    } else {
      // Logged before the daemon says it is ready, so in the log its start waited for.
      let refusal = "the compositor refused the configuration: the compositor would not accept the configuration"
      daemon.drain()
      #expect(
        daemon.log.contains { $0.contains(refusal + " (custom modes asked for: X11-2 800x600@60.000 Hz)") },
        "\(daemon.log)")
      #expect(try sway.outputs() == before, "\(daemon.log)")
      #expect(daemon.isRunning)
    }
  }

  /// kanshi names the X11 head `The X.Org Foundation 11.0 Unknown`; `profile import kanshi`
  /// makes a profile of it (the make is no company of pnp.ids: matched by its first word and
  /// the model) that the daemon matches on this compositor and applies (800x600, a size the
  /// head does not list).
  @Test func anImportedKanshiProfileMatchesTheHeadsOfTheCompositor() throws {
    let (x, sway) = try Self.x11Sway(outputs: 1)
    defer { withExtendedLifetime(x) {} }
    let kanshi = try makeTempDirectory("displayd-kanshi") + "/config"
    try "profile xorg {\n  output \"The X.Org Foundation 11.0 Unknown\" mode 800x600 position 0,0\n}\n".write(
      toFile: kanshi, atomically: true, encoding: .utf8)
    let imported = try runCommand([displaydPath, "profile", "import", "kanshi", kanshi])
    #expect(imported.status == 0, "\(imported.err)")
    #expect(imported.out.contains(#"manufacturer: "The*", product_name: "*11.0""#), "\(imported.out)")
    let runtime = try runtimeDirectory()
    let daemon = try DaemonProcess(
      display: Self.socket(sway), config: "{ profiles: [\(imported.out)] }", extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
    var shown: SwayOutput?
    let applied = try eventually(within: 5) {
      shown = try sway.outputs().first { $0.name == "X11-1" }
      return shown?.currentMode?.width == 800 && shown?.currentMode?.height == 600
    }
    daemon.drain()
    #expect(applied, "\(String(describing: shown)) \(daemon.log)")
    #expect(daemon.log.contains { $0.contains("xorg") }, "\(daemon.log)")
  }
}
