import DisplayKit
import DisplayModel
import DisplayX11
import Foundation
import Testing
import XRig

/// Built-in layouts and manual choice through the running daemon's control socket, on
/// Xorg's dummy driver: DUMMY0 (main) at 1280x1024, DUMMY1 and DUMMY2 lit right of it.
extension XServerTests {
  @Suite struct LayoutDummy {
    struct Rig {
      let server: TestXServer
      let runtime: String
      let daemon: DaemonProcess

      /// `config` is the text inside the config's braces; DUMMY1 gets 1024x768 and DUMMY2
      /// 800x600 by their rules.
      init(_ config: String = "") throws {
        server = try TestXServer.dummy()
        try PlanBuilder.lightDummies(server, 2)
        try server.must(["xrandr", "--output", "DUMMY0", "--mode", "1280x1024"])
        runtime = try runtimeDirectory()
        let rules = """
          monitors: [ { match: { output: 'DUMMY1' }, mode: '1024x768' },
                      { match: { output: 'DUMMY2' }, mode: '800x600' } ],
          """
        daemon = try DaemonProcess(
          display: server.display, config: "{ \(rules) \(config) }",
          environment: ["XDG_RUNTIME_DIR": runtime, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"])
        #expect(eventually(within: 2) { (try? self.rects()["DUMMY2"]) == "800x600+2304+0" }, "the rules' layout")
      }

      /// `displayd WORDS --display D`, with the daemon's runtime folder.
      func run(_ words: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCommand(
          [displaydPath] + words + ["--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
      }

      /// A switch that must succeed; its one line of output.
      func must(_ words: [String]) throws -> String {
        let r = try run(words)
        guard r.status == 0 else { throw RigError("\(words): \(r.status) \(r.err)") }
        return r.out
      }

      /// Every connected output's rectangle (`off` when dark), as a fresh connection reads it.
      func rects() throws -> [String: String] {
        let t = try PlanBuilder.snapshot(server)
        return Dictionary(
          uniqueKeysWithValues: t.connectedOutputs.map { ($0.name, t.geometry(of: $0)?.description ?? "off") })
      }

      func screen() throws -> String {
        let t = try PlanBuilder.snapshot(server)
        return "\(t.screen.width)x\(t.screen.height)"
      }

      func primary() throws -> String? {
        let t = try PlanBuilder.snapshot(server)
        return t.primary.flatMap { t.output($0)?.name }
      }

      /// `status --json`'s `layout` record.
      func layout() throws -> [String: Any] {
        let status = try jsonObject(try must(["status", "--json"]))
        return try #require(status["layout"] as? [String: Any])
      }

      func isAutomatic() throws -> Bool { try layout()["by_hand"] as? Bool == false }
    }

    static let automatic = ["DUMMY0": "1280x1024+0+0", "DUMMY1": "1024x768+1280+0", "DUMMY2": "800x600+2304+0"]

    @Test func extendLeftAboveAndRightLayTheRowFromMainThatWay() throws {
      let rig = try Rig()
      #expect(try rig.must(["profile", "switch", "--layout", "extend-left"]) == "switched to layout 'extend-left'\n")
      #expect(try rig.rects() == ["DUMMY2": "800x600+0+0", "DUMMY1": "1024x768+800+0", "DUMMY0": "1280x1024+1824+0"])
      #expect(try rig.screen() == "3104x1024")
      let layout = try rig.layout()
      #expect(layout["by_hand"] as? Bool == true && layout["builtin"] as? String == "extend-left")
      #expect(try rig.must(["status"]).contains("\nlayout: chosen by hand: built-in extend-left\n"))

      #expect(try rig.must(["profile", "switch", "--layout", "extend-above"]) == "switched to layout 'extend-above'\n")
      #expect(try rig.rects() == ["DUMMY2": "800x600+0+0", "DUMMY1": "1024x768+0+600", "DUMMY0": "1280x1024+0+1368"])
      #expect(try rig.screen() == "1280x2392")

      #expect(try rig.must(["profile", "switch", "--layout", "extend-right"]) == "switched to layout 'extend-right'\n")
      #expect(try rig.rects() == Self.automatic)
      #expect(try rig.screen() == "3104x1024")
      #expect(try rig.primary() == "DUMMY0", "no layout moved the primary")
    }

    @Test func externalOnlyTurnsTheConfiguredPanelOffAndAutoBringsItBack() throws {
      let rig = try Rig("panel: 'DUMMY0',")
      #expect(
        try rig.must(["profile", "switch", "--layout", "external-only"]) == "switched to layout 'external-only'\n")
      #expect(try rig.rects() == ["DUMMY0": "off", "DUMMY1": "1024x768+0+0", "DUMMY2": "800x600+1024+0"])
      #expect(try rig.screen() == "1824x768")
      #expect(try rig.primary() == "DUMMY1", "the panel's primary moves to the first external")

      #expect(try rig.must(["profile", "switch", "--auto"]) == "automatic choice resumed (no profile matches)\n")
      #expect(try rig.rects() == Self.automatic)
      #expect(try rig.primary() == "DUMMY0")
      #expect(try rig.isAutomatic())
      #expect(try rig.must(["status"]).contains("\nlayout: automatic\n"))
      #expect(
        try rig.must(["profile", "switch", "--auto"])
          == "the layout is chosen automatically already (no profile matches)\n")
    }

    @Test func externalOnlyWithoutAPanelIsRefusedAndChangesNothing() throws {
      let rig = try Rig()
      let refused = try rig.run(["profile", "switch", "--layout", "external-only"])
      #expect(refused.status == 1 && refused.out.isEmpty)
      #expect(
        refused.err.contains("layout 'external-only' is not possible: no built-in panel is connected"), "\(refused.err)"
      )
      #expect(try rig.rects() == Self.automatic)
      #expect(try rig.isAutomatic())
    }

    @Test func mainOnlyTurnsTheOthersOffAndAutoLightsThemAgain() throws {
      let rig = try Rig()
      #expect(try rig.must(["profile", "switch", "--layout", "main-only"]) == "switched to layout 'main-only'\n")
      #expect(try rig.rects() == ["DUMMY0": "1280x1024+0+0", "DUMMY1": "off", "DUMMY2": "off"])
      #expect(try rig.screen() == "1280x1024")
      _ = try rig.must(["profile", "switch", "--auto"])
      #expect(try rig.rects() == Self.automatic)
      #expect(try rig.screen() == "3104x1024")
    }

    @Test func mirrorGivesMainTheCommonModeAndAutoGivesBackItsModeAndPlace() throws {
      let rig = try Rig()
      #expect(try rig.must(["profile", "switch", "--layout", "mirror"]) == "switched to layout 'mirror'\n")
      // Every dummy output lists the same modes once connected: the largest is common.
      let all = "2048x1536+0+0"
      #expect(try rig.rects() == ["DUMMY0": all, "DUMMY1": all, "DUMMY2": all])
      #expect(try rig.screen() == "2048x1536")
      // The next layout gives main the mode it had under automatic choice, not mirror's.
      _ = try rig.must(["profile", "switch", "--layout", "extend-left"])
      #expect(try rig.rects()["DUMMY0"] == "1280x1024+1824+0")
      _ = try rig.must(["profile", "switch", "--layout", "mirror"])
      #expect(try rig.must(["profile", "switch", "--auto"]) == "automatic choice resumed (no profile matches)\n")
      #expect(try rig.rects() == Self.automatic, "main's 1280x1024 at 0,0 again, the others in their places")
      #expect(try rig.screen() == "3104x1024")
      rig.daemon.settle()
      #expect(rig.daemon.log.contains { $0.contains("manual layout 'mirror' ends (automatic choice)") })
    }

    @Test func aSecondIdenticalSwitchChangesNothing() throws {
      let rig = try Rig()
      _ = try rig.must(["profile", "switch", "--layout", "mirror"])
      rig.daemon.settle()
      let before = try XConnection(name: rig.server.display).readTopology()
      let counters = { try jsonObject(try rig.must(["status", "--json"]))["counters"] as? [String: Any] }
      let changed = try counters()?["reconciles_changed"] as? Int
      #expect(try rig.must(["profile", "switch", "--layout", "mirror"]) == "layout 'mirror' already in force\n")
      rig.daemon.settle()
      let after = try XConnection(name: rig.server.display).readTopology()
      #expect(after.configTimestamp == before.configTimestamp && after.timestamp == before.timestamp, "no request sent")
      #expect(try counters()?["reconciles_changed"] as? Int == changed)
      #expect(try rig.layout()["builtin"] as? String == "mirror")
    }

    @Test func aManualLayoutIsDroppedWhenAMonitorIsAdded() throws {
      let rig = try Rig()
      _ = try rig.must(["profile", "switch", "--layout", "extend-left"])
      #expect(try rig.rects()["DUMMY0"] == "1280x1024+1824+0")
      try rig.server.must(["xrandr", "--addmode", "DUMMY3", "1024x768"])
      try rig.server.must(["xrandr", "--output", "DUMMY3", "--mode", "1024x768", "--pos", "3104x0"])
      #expect(eventually(within: 3) { (try? rig.isAutomatic()) == true }, "\(rig.daemon.log.suffix(10))")
      #expect(eventually(within: 3) { (try? rig.rects()["DUMMY0"]) == "1280x1024+0+0" }, "main back in its place")
      let rects = try rig.rects()
      #expect(rects["DUMMY1"] == "1024x768+1280+0" && rects["DUMMY2"] == "800x600+2304+0", "\(rects)")
      #expect(rects["DUMMY3"]?.hasPrefix("2048x1536+") == true, "the new one arranged by the rules: \(rects)")
      rig.daemon.settle()
      #expect(rig.daemon.log.contains { $0.contains("manual layout 'extend-left' ends (the server's events)") })
    }

    @Test func cycleGoesThroughTheMatchingProfilesThenTheLayoutsAndWrapsAround() throws {
      let rig = try Rig(
        """
        profiles: [
          { name: 'solo', outputs: [ { match: { output: 'DUMMY0' } } ] },
          { name: 'desk', outputs: [ { match: { output: 'DUMMY0' }, mode: 'keep' },
              { match: { output: 'DUMMY1' }, mode: '1024x768' }, { match: { output: 'DUMMY2' }, mode: '800x600' } ] },
        ],
        """)
      #expect(
        try jsonObject(try rig.must(["status", "--json"]))["profile"] as? [String: String] == [
          "name": "desk", "reason": "matched",
        ])
      // From the matched 'desk' (the same layout as extend-right): every possible built-in
      // layout in order (no panel: no external-only; 'solo' does not match), then 'desk' again.
      var steps: [String] = []
      for _ in 0..<7 { steps.append(try rig.must(["profile", "cycle"])) }
      #expect(
        steps == [
          "layout 'extend-right' already in force\n", "switched to layout 'extend-left'\n",
          "switched to layout 'extend-above'\n", "switched to layout 'mirror'\n", "switched to layout 'main-only'\n",
          "switched to profile 'desk'\n", "layout 'extend-right' already in force\n",
        ], "\(steps)")
      #expect(try rig.layout()["builtin"] as? String == "extend-right")
    }
  }
}
