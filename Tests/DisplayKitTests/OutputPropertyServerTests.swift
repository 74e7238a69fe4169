import DisplayX11
import Foundation
import Testing
import XRig

extension XServerTests {
  /// Output properties on the dummy Xorg, made there by the test as a driver makes them (an
  /// enum and a range), set by the daemon and read back with `xrandr --prop`.
  @Suite struct OutputPropertiesOnDummy {
    func desk() throws -> (TestXServer, PropertyRig) {
      let server = try TestXServer.dummy()
      let rig = try PropertyRig(server.display)
      try rig.createEnum(
        "DUMMY0", "Broadcast RGB", values: ["Automatic", "Full", "Limited 16:235"], initial: "Automatic")
      try rig.createRange("DUMMY0", "max bpc", range: 6...16, initial: 12)
      try rig.createEnum("DUMMY0", "TearFree", values: ["off", "on", "auto"], initial: "off")
      return (server, rig)
    }

    /// Whether the daemon logged `text`, at start-up or within a few seconds.
    func seen(_ daemon: DaemonProcess, _ text: String) -> Bool {
      daemon.log.contains { $0.contains(text) } || daemon.waitFor(text, timeout: 5) != nil
    }

    func prop(_ server: TestXServer, _ name: String) throws -> String? {
      xrandrProperty(try server.must(["xrandr", "--prop"]), output: "DUMMY0", property: name)
    }

    /// One unsupported property, one refused value: warnings naming both, and the rest applied
    /// (autorandr#381: one bad property must not fail the whole layout).
    @Test func theGoodPropertiesAreSetAndEachBadOneIsAWarningNamingIt() throws {
      let (server, _) = try desk()
      #expect(try prop(server, "Broadcast RGB") == "Automatic")
      let daemon = try DaemonProcess(
        display: server.display,
        config: """
          { monitors: [ { match: { output: 'DUMMY0' }, properties: { 'Broadcast RGB': 'Full', 'max bpc': 8,
            TearFree: 'sometimes', underscan: 'off' } } ] }
          """)
      #expect(seen(daemon, "DUMMY0: 0 of 4 properties in force, 2 to set"))
      #expect(try prop(server, "Broadcast RGB") == "Full")
      #expect(try prop(server, "max bpc") == "8")
      #expect(try prop(server, "TearFree") == "off", "a value outside the enum is not sent")
      let log = daemon.log.joined(separator: "\n")
      #expect(
        log.contains(
          "DUMMY0: property 'TearFree' 'sometimes' is not allowed (expected one of off, on, auto); left at 'off'"),
        "\(log)")
      #expect(log.contains("DUMMY0: property 'underscan' 'off': the output has no such property"), "\(log)")
    }

    @Test func aValueOutOfRangeIsAWarningAndTheOtherPropertyIsStillSet() throws {
      let (server, _) = try desk()
      let daemon = try DaemonProcess(
        display: server.display,
        config: """
          { profiles: [ { name: 'one', outputs: [ { match: { output: 'DUMMY0' },
            properties: { 'max bpc': 17, 'Broadcast RGB': 'Limited 16:235' } } ] } ] }
          """)
      #expect(seen(daemon, "DUMMY0: 0 of 2 properties in force, 1 to set"))
      #expect(try prop(server, "Broadcast RGB") == "Limited 16:235", "a profile entry's properties apply too")
      #expect(try prop(server, "max bpc") == "12")
      #expect(
        daemon.log.contains {
          $0.contains("DUMMY0: property 'max bpc' 17 is not allowed (expected an integer 6...16)")
        },
        "\(daemon.log.joined(separator: "\n"))")
    }

    /// Properties that hold already are not set again: the server announces no change of
    /// them (it announces every set, even of the same value) when the layout changes later.
    @Test func propertiesInForceAreNotSetAgain() throws {
      let (server, rig) = try desk()
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ monitors: [ { match: { output: 'DUMMY0' }, properties: { 'Broadcast RGB': 'Full', 'max bpc': 12 } } ] }"
      )
      #expect(seen(daemon, "DUMMY0: 1 of 2 properties in force, 1 to set"), "max bpc held already")
      rig.watchChanges()
      try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
      #expect(daemon.waitFor("DUMMY0: 2 of 2 properties in force, 0 to set", timeout: 5) != nil)
      let changed = rig.changes()
      #expect(!changed.contains("Broadcast RGB") && !changed.contains("max bpc"), "\(changed)")
      #expect(daemon.log.filter { $0.contains("property 'Broadcast RGB' set to") }.count == 1)
      #expect(try prop(server, "Broadcast RGB") == "Full")
      // The watch does see a property set to the value it has.
      try server.must(["xrandr", "--output", "DUMMY0", "--set", "max bpc", "12"])
      #expect(rig.changes() == ["max bpc"])
    }

    /// Properties the user can change go into `profile save`; applying the saved profile to
    /// the same desk sets nothing.
    @Test func profileSaveWritesChangeablePropertiesAndApplyingItChangesNothing() throws {
      let (server, rig) = try desk()
      try server.must(["xrandr", "--output", "DUMMY0", "--set", "Broadcast RGB", "Full"])
      let saved = try displayd(["profile", "save", "here", "--display", server.display])
      #expect(saved.status == 0, "\(saved.err)")
      // The dummy driver's own WIDTH_MM and HEIGHT_MM can be set too, so they are saved.
      #expect(
        saved.out.contains(
          "properties: { \"Broadcast RGB\": \"Full\", \"HEIGHT_MM\": 0, \"TearFree\": \"off\", \"WIDTH_MM\": 0, \"max bpc\": 12 }"
        ), "\(saved.out)")
      #expect(
        !saved.out.contains("EDID") && !saved.out.contains("non-desktop"), "what the monitor reports is not saved")
      let daemon = try DaemonProcess(display: server.display, config: "{ profiles: [ \(saved.out) ] }")
      #expect(seen(daemon, "DUMMY0: 5 of 5 properties in force, 0 to set"), "\(daemon.log)")
    }
  }
}
