import CXrandr
import DisplayKit
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayModel

/// `profile import autorandr` against autorandr itself: a desk arranged with xrandr on the
/// dummy Xorg, saved by `autorandr --save`, imported, and applied by displayd.
extension XServerTests {
  @Suite struct AutorandrImport {
    /// CRTC rectangles with their outputs, modes and rotations, in a stable order, and the primary.
    static func desk(_ t: Topology) -> [String] {
      let layout = Layout(t)
      return layout.crtcs.sorted() + [
        "primary \(layout.primary ?? "none")", "screen \(t.screen.width)x\(t.screen.height)",
      ]
    }

    /// A dummy server with DUMMY0 and DUMMY1 given real monitors' EDIDs (two of the shared
    /// corpus's, from the project's fixtures, as `EDID` properties) and DUMMY2 none.
    static func server() throws -> TestXServer {
      let server = try TestXServer.dummy()
      try PlanBuilder.lightDummies(server, 2)
      let x = try XConnection(name: server.display)
      let t = try x.readTopology()
      for (name, file) in [("DUMMY0", "asus_aus27d1_0d64f5ca0b43.bin"), ("DUMMY1", "acer_acr001a_34cdf6327a45.bin")] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/" + file)))
        try x.setEDID(bytes, on: try #require(t.output(named: name)).id)
      }
      return server
    }

    @Test func aDeskSavedByAutorandrIsImportedAndAppliedAsItWasSaved() throws {
      let server = try Self.server()
      // DUMMY2 left, DUMMY0 in the middle, DUMMY1 right, lower and primary.
      try server.must(["xrandr", "--output", "DUMMY2", "--mode", "800x600", "--pos", "0x0"])
      try server.must(["xrandr", "--output", "DUMMY0", "--mode", "1024x768", "--pos", "800x0"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "1024x768", "--pos", "1824x100", "--primary"])
      let home = try makeTempDirectory("displayd-autorandr")
      let env = [
        "PATH": "/usr/bin:/bin", "DISPLAY": server.display, "HOME": home, "XDG_CONFIG_HOME": home,
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "XDG_RUNTIME_DIR": home,
      ]
      let save = try runCommand(["autorandr", "--save", "desk"], environment: env)
      #expect(save.status == 0, "\(save.out) \(save.err)")
      let saved = Self.desk(try PlanBuilder.snapshot(server))
      let setup = try String(contentsOfFile: home + "/autorandr/desk/setup", encoding: .utf8)
      #expect(setup.contains("DUMMY2 --CONNECTED-BUT-EDID-UNAVAILABLE--DUMMY2"), "\(setup)")

      try server.must(["xrandr", "--output", "DUMMY0", "--pos", "0x0"])
      try server.must(["xrandr", "--output", "DUMMY2", "--mode", "1024x768", "--pos", "1024x0", "--primary"])
      try server.must(["xrandr", "--output", "DUMMY1", "--pos", "2048x0"])
      #expect(Self.desk(try PlanBuilder.snapshot(server)) != saved)

      let imported = try runCommand([displaydPath, "profile", "import", "autorandr"], environment: env)
      #expect(imported.status == 0, "\(imported.err)")
      #expect(imported.out.hasPrefix("{\n  name: \"desk\",\n") && imported.out.hasSuffix("},\n"), "\(imported.out)")
      #expect(imported.out.contains(#"{ match: { output: "DUMMY2" }, mode: "800x600@"#), "\(imported.out)")
      #expect(imported.out.contains(#"manufacturer: "AUS""#) && imported.out.contains(#"manufacturer: "ACR""#))
      #expect(imported.err.contains("/autorandr/desk/config:") && imported.err.contains("`crtc` ignored"))
      let config = "{ profiles: [\n" + imported.out + "] }\n"
      #expect(try Config.parse(Array(config.utf8), file: "pasted").profiles.map(\.name) == ["desk"])

      let path = home + "/imported.json5"
      try config.write(toFile: path, atomically: true, encoding: .utf8)
      let apply = try runCommand([displaydPath, "apply", "--config", path], environment: env)
      #expect(apply.status == 0 && apply.out == "applied profile 'desk'\n", "\(apply.out) \(apply.err)")
      #expect(Self.desk(try PlanBuilder.snapshot(server)) == saved)
    }

    /// Gives an output a property as a driver would: an enum (atoms) or a range (integers).
    static func addProperty(
      _ server: TestXServer, _ output: String, _ name: String, enum values: [String] = [],
      range: (Int, Int)? = nil, value: String
    ) throws {
      guard let d = XOpenDisplay(server.display) else { throw RigError("cannot open \(server.display)") }
      defer { XCloseDisplay(d) }
      let id = try #require(try XConnection(name: server.display).readTopology().output(named: output)).id
      let (xid, property) = (RROutput(id.rawValue), XInternAtom(d, name, 0))
      if let range {
        var bounds = [Int(range.0), Int(range.1)]
        XRRConfigureOutputProperty(d, xid, property, 0, 1, 2, &bounds)
        var v = Int(value) ?? 0
        withUnsafeBytes(of: &v) { raw in
          XRRChangeOutputProperty(
            d, xid, property, XA_INTEGER, 32, PropModeReplace, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
      } else {
        var atoms = values.map { Int(XInternAtom(d, $0, 0)) }
        XRRConfigureOutputProperty(d, xid, property, 0, 0, Int32(atoms.count), &atoms)
        var v = Int(XInternAtom(d, value, 0))
        withUnsafeBytes(of: &v) { raw in
          XRRChangeOutputProperty(
            d, xid, property, XA_ATOM, 32, PropModeReplace, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
      }
      XSync(d, 0)
    }

    /// autorandr saves the properties it knows as `x-prop-*` lines; they come back as the
    /// entry's `properties` with their RandR names and types.
    @Test func theOutputPropertiesAutorandrSavesBecomeTheEntrysProperties() throws {
      let server = try Self.server()
      try Self.addProperty(
        server, "DUMMY0", "Broadcast RGB", enum: ["Automatic", "Full", "Limited 16:235"], value: "Full")
      try Self.addProperty(server, "DUMMY1", "max bpc", range: (6, 16), value: "10")
      let home = try makeTempDirectory("displayd-autorandr")
      let env = ["PATH": "/usr/bin:/bin", "DISPLAY": server.display, "HOME": home, "XDG_CONFIG_HOME": home]
      #expect(try runCommand(["autorandr", "--save", "props"], environment: env).status == 0)
      let config = try String(contentsOfFile: home + "/autorandr/props/config", encoding: .utf8)
      #expect(config.contains("x-prop-broadcast_rgb Full") && config.contains("x-prop-max_bpc 10"), "\(config)")
      let r = try runCommand(
        [displaydPath, "profile", "import", "autorandr", home + "/autorandr/props"], environment: env)
      #expect(r.status == 0, "\(r.err)")
      #expect(r.out.contains(#"primary: true, properties: { "Broadcast RGB": "Full" } },"#), "\(r.out)")
      #expect(r.out.contains(#", properties: { "max bpc": 10 } },"#), "\(r.out)")
      #expect(r.out.hasPrefix("{\n  name: \"props\",\n"), "one profile's folder is imported by itself")
    }

    @Test func writeAppendsEveryProfileToTheConfigOrNothingWhenOneIsBroken() throws {
      let server = try Self.server()
      let home = try makeTempDirectory("displayd-autorandr")
      let env = [
        "PATH": "/usr/bin:/bin", "DISPLAY": server.display, "HOME": home, "XDG_CONFIG_HOME": home,
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "XDG_RUNTIME_DIR": home,
      ]
      #expect(try runCommand(["autorandr", "--save", "row"], environment: env).status == 0)
      try server.must(["xrandr", "--output", "DUMMY1", "--off"])
      #expect(try runCommand(["autorandr", "--save", "two"], environment: env).status == 0)
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "1024x768", "--pos", "0x768"])
      try FileManager.default.createDirectory(atPath: home + "/displayd", withIntermediateDirectories: true)
      let original = "// mine\n{ defaults: { level: 'normal' } }\n"
      let configPath = home + "/displayd/config.json5"
      try original.write(toFile: configPath, atomically: true, encoding: .utf8)

      // A third profile whose config autorandr could not have written: nothing is appended.
      try FileManager.default.createDirectory(atPath: home + "/autorandr/zbroken", withIntermediateDirectories: true)
      try "DUMMY0 \(AutorandrImportTests.noEDID("DUMMY0"))\n".write(
        toFile: home + "/autorandr/zbroken/setup", atomically: true, encoding: .utf8)
      try "output DUMMY0\nmode banana\n".write(
        toFile: home + "/autorandr/zbroken/config", atomically: true, encoding: .utf8)
      let refused = try runCommand([displaydPath, "profile", "import", "autorandr", "--write"], environment: env)
      #expect(refused.status == 1, "\(refused.out)")
      #expect(refused.err.contains("zbroken/config:2: mode 'banana' is not WxH"), "\(refused.err)")
      #expect(try String(contentsOfFile: configPath, encoding: .utf8) == original)

      try FileManager.default.removeItem(atPath: home + "/autorandr/zbroken")
      try "[config]\n".write(toFile: home + "/autorandr/settings.ini", atomically: true, encoding: .utf8)
      let written = try runCommand([displaydPath, "profile", "import", "autorandr", "--write"], environment: env)
      #expect(written.err.contains("autorandr/settings.ini: not a profile"), "\(written.err)")
      #expect(
        written.status == 0 && written.out == "appended profiles 'row', 'two' to \(configPath)\n", "\(written.err)")
      let text = try String(contentsOfFile: configPath, encoding: .utf8)
      #expect(text.hasPrefix("// mine\n{ defaults: { level: 'normal' }"))
      let config = try Config.load(path: configPath)
      #expect(config.profiles.map(\.name) == ["row", "two"])
      // `two` has DUMMY1 off: it is in the monitor set, as an entry that turns it off.
      #expect(config.profiles[1].outputs.count == 3 && config.profiles[1].outputs.contains { $0.enabled == false })
      let apply = try runCommand([displaydPath, "apply", "--profile", "two"], environment: env)
      #expect(apply.status == 0 && apply.out == "applied profile 'two'\n", "\(apply.err)")
      let t = try PlanBuilder.snapshot(server)
      #expect(t.output(named: "DUMMY1").flatMap { t.geometry(of: $0) } == nil)
    }
  }
}

/// The import's reading of autorandr's files, pure.
@Suite struct AutorandrImportTests {
  static func noEDID(_ name: String) -> String { DisplayModel.AutorandrImport.noEDID + "-" + name }

  static func hex(_ file: String) throws -> String {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/" + file)))
    return bytes.map { String(format: "%02x", $0) }.joined()
  }

  func read(_ setup: String, _ config: String) -> Result<(ImportedProfile, [ImportNote]), ImportNote> {
    DisplayModel.AutorandrImport.profile(name: "p", setup: setup, setupFile: "S", config: config, configFile: "C")
  }

  @Test func everyKindOfLineBecomesAnEntryKeyOrANoteWithItsLine() throws {
    let setup = "HDMI-1 \(try Self.hex("asus_aus27d1_0d64f5ca0b43.bin"))\neDP-1 \(Self.noEDID("eDP-1"))\n"
    let config = """
      output DP-9
      off
      output HDMI-1
      crtc 1
      mode 1920x1080
      pos 1080x0
      rate 60.00
      transform 1.500000,0.000000,0.000000,0.000000,1.500000,0.000000,0.000000,0.000000,1.000000
      filter bilinear
      x-prop-broadcast_rgb Full
      x-prop-max_bpc 8
      x-prop-non_desktop 0
      x-prop-frobnicate 3
      panning 0x0
      gamma 1.0:1.0:1.0
      dpi 96
      output eDP-1
      mode 1920x1080
      rotate left
      reflect xy
      primary
      """
    let (profile, notes) = try read(setup, config).get()
    #expect(
      profile.text == """
        {
          name: "p",
          outputs: [
            { match: { output: "eDP-1" }, mode: "1920x1080", position: "0,0", rotate: "left", reflect: "xy", primary: true },
            { match: { manufacturer: "AUS", product_name: "VA279", serial: "N6LMQS126401" }, mode: "1920x1080@60.00", position: "1080,0", scale: 1.5, properties: { "Broadcast RGB": "Full", "max bpc": 8 } },
          ],
        },
        """)
    #expect(
      notes.map(\.description).sorted() == [
        "C:12: `non-desktop` is the monitor's, not a setting: ignored", "C:13: unknown property `frobnicate`: ignored",
        "C:14: `panning` ignored: displayd does no panning", "C:15: `gamma` ignored: displayd sets no gamma",
        "C:16: unknown option `dpi`: ignored", "C:4: `crtc` ignored: displayd picks the CRTCs",
        "C:9: `filter` ignored: displayd's scale filter is `scale_filter`",
      ])
  }

  @Test func theMonitorSetIsTheSetupFileAndAConnectedOutputThatIsOffIsInIt() throws {
    let setup = "DP-1 \(Self.noEDID("DP-1"))\nDP-2 \(Self.noEDID("DP-2"))\n"
    let config = "output DP-1\noff\noutput DP-3\noff\noutput DP-2\nmode 800x600\npos 0x0\noutput DP-4\noff\n"
    let (profile, notes) = try read(setup, config).get()
    #expect(
      profile.outputs.map(\.text) == [
        #"{ match: { output: "DP-2" }, mode: "800x600", position: "0,0" }"#,
        #"{ match: { output: "DP-1" }, enabled: false }"#,
      ])
    #expect(notes.isEmpty)
  }

  @Test func twoMonitorsWithOneEDIDAreToldApartByConnector() throws {
    let edid = try Self.hex("acer_acr001a_34cdf6327a45.bin")
    let (profile, _) = try read(
      "DP-1 \(edid)\nDP-2 \(edid)\n", "output DP-1\nmode 800x600\npos 0x0\noutput DP-2\nmode 800x600\npos 800x0\n"
    ).get()
    #expect(
      profile.outputs.allSatisfy { $0.match.hasPrefix("{ output: ") && $0.match.contains("manufacturer: \"ACR\"") })
  }

  @Test(arguments: [
    ("DP-1", "output DP-1\nmode 1x1\n", "S:1: expected `CONNECTOR EDID`"),
    ("DP-1 zz", "output DP-1\nmode 1x1\n", "S:1: the EDID is not hex"),
    ("DP-1 -", "output DP-1\nmode banana\n", "C:2: mode 'banana' is not WxH"),
    ("DP-1 -", "output DP-1\nmode 1x1\npos 5\n", "C:3: pos '5' is not XxY"),
    // Int.min has no magnitude in Int: a check by abs() trapped here.
    (
      "DP-1 -", "output DP-1\nmode 1x1\npos -9223372036854775808x0\n",
      "C:3: pos '-9223372036854775808x0' is not XxY"
    ),
    ("DP-1 -", "output DP-1\nmode 1x1\nrate fast\n", "C:3: rate 'fast' is not a refresh rate"),
    (
      "DP-1 -", "output DP-1\nmode 1x1\nrotate sideways\n",
      "C:3: rotate 'sideways' is not normal, left, right or inverted"
    ),
    ("DP-1 -", "output DP-1\npos 0x0\n", "C:1: DP-1 is lit but has no `mode`"),
    (
      "DP-1 -", "output DP-1\nmode 1x1\noutput DP-2\nmode 1x1\n",
      "C:3: DP-2 is lit but has no line in setup (no EDID to match)"
    ),
    ("", "", "S: no output: the profile matches no monitors"),
    ("DP-1 -", "output\n", "C:1: `output` without a connector"),
  ])
  func aBrokenProfileIsAnErrorWithItsFileAndLine(_ setup: String, _ config: String, _ message: String) {
    let fixed = setup.replacingOccurrences(of: " -", with: " " + Self.noEDID("DP-1"))
    guard case .failure(let error) = read(fixed, config) else {
      Issue.record("read: \(setup) \(config)")
      return
    }
    #expect(error.description == message)
  }

  /// An interlaced mode or one made by hand keeps its size, and the note says what was not
  /// kept: never dropped in silence.
  @Test func aModeNameBeyondItsSizeIsImportedAsTheSizeWithANote() throws {
    let (profile, notes) = try read(
      "DP-1 -".replacingOccurrences(of: " -", with: " " + Self.noEDID("DP-1")),
      "output DP-1\nmode 1920x1080i\npos 0x0\n"
    ).get()
    #expect(profile.outputs.first?.text.contains(#"mode: "1920x1080""#) == true)
    #expect(notes.map(\.description).contains("C:2: mode '1920x1080i': 'i' dropped, imported as the size 1920x1080"))
  }

  @Test func anEDIDThatIsAnOldMD5SumOrAPatternIsMatchedByConnectorWithANote() throws {
    let (profile, notes) = try read(
      "DP-1 0123456789abcdef0123456789abcdef\nDP-2 00ffffff*\n",
      "output DP-1\nmode 800x600\npos 0x0\noutput DP-2\nmode 800x600\npos 800x0\n"
    ).get()
    #expect(profile.outputs.map(\.match) == [#"{ output: "DP-1" }"#, #"{ output: "DP-2" }"#])
    #expect(
      notes.map(\.description) == [
        "S:1: the EDID is an MD5 sum (older autorandr): matched by connector",
        "S:2: the EDID is a pattern: matched by connector",
      ])
  }
}
