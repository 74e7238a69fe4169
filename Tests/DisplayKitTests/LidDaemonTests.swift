import DisplayKit
import DisplayModel
import Foundation
import Testing
import XRig

/// `defaults.lid_closed: "disable"` with a mocked logind, on the dummy driver with DUMMY0
/// named as the built-in panel and as main.
extension XServerTests {
  @Suite struct LidDaemon {
    static let config = "{ panel: 'DUMMY0', main: 'DUMMY0', defaults: { lid_closed: 'disable', mode: '1024x768' } }"

    func geometry(_ server: TestXServer, _ name: String) throws -> String? {
      parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == name }?.geometry
    }

    @Test func closingWithAMonitorLitTurnsThePanelOffAndOpeningBringsItBack() throws {
      let logind = try MockLogind()
      let server = try TestXServer.dummy()
      try PlanBuilder.lightDummies(server, 1)
      let panel = try #require(try geometry(server, "DUMMY0"))
      let daemon = try DaemonProcess(display: server.display, config: Self.config, environment: logind.environment)
      let x = try XInspector(server.display)
      #expect(eventually(within: 2) { x.displaydWindows().map(\.output) == ["DUMMY1"] }, "DUMMY1 is external")

      try logind.setLid(closed: true)
      #expect(eventually(within: 2) { (try? geometry(server, "DUMMY0")) == .some(nil) }, "\(daemon.log.suffix(8))")
      #expect(try geometry(server, "DUMMY1") == "1024x768+0+0", "moved to the origin")
      #expect(eventually(within: 2) { x.displaydWindows().isEmpty }, "DUMMY1 is main now: no window on it")
      let t = try PlanBuilder.snapshot(server)
      #expect(t.primary == t.output(named: "DUMMY1")?.id, "main takes over as primary")
      #expect((t.screen.width, t.screen.height) == (1024, 768))

      try logind.setLid(closed: false)
      #expect(eventually(within: 2) { (try? geometry(server, "DUMMY0")) == panel }, "\(daemon.log.suffix(8))")
      let width = try #require(panel.split(separator: "x").first.flatMap { Int($0) })
      #expect(try geometry(server, "DUMMY1") == "1024x768+\(width)+0")
      #expect(eventually(within: 2) { x.displaydWindows().map(\.output) == ["DUMMY1"] }, "its window is back")
      daemon.settle()
      #expect(daemon.log.filter { $0.contains(": lid closed, DUMMY0 off") }.count == 1)
      #expect(daemon.log.filter { $0.contains(": lid open, DUMMY0 on") }.count == 1)
    }

    @Test func closingWithNothingElseLitChangesNothing() throws {
      let logind = try MockLogind()
      let server = try TestXServer.dummy()
      let before = try server.must(["xrandr"])
      let daemon = try DaemonProcess(display: server.display, config: Self.config, environment: logind.environment)
      try logind.setLid(closed: true)
      #expect(daemon.waitFor("(lid closed)") != nil)
      daemon.settle()
      #expect(try server.must(["xrandr"]) == before, "the panel stays on: never a dark desk")
      #expect(daemon.changingReconciles.filter { !$0.contains("nothing to change") && $0.contains("lid") }.isEmpty)
    }
  }
}
