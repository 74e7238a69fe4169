import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import Testing
import XRig

@testable import DisplayX11

extension XServerTests {
  /// The records from heads against a real server: what `outputs --json` says of each output
  /// is the same whether it is made from the heads the RandR backend reads or from the
  /// topology the connection reads.
  @Suite struct HeadRecordsServer {
    typealias B = PlanBuilder

    /// The dummy with three lit outputs, one primary, one at a mode displayd made (its name,
    /// id and dot clock the server's), and one asked to show a double-scanned mode (the
    /// driver may refuse it; the dark output is compared then), beside dark ones.
    @Test func theRandRBackendsHeadsGiveTodaysOutputRecordsOnTheDummy() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let custom = CustomModes.prefix + "1600x700_60.00"
      let line = ["1600", "1680", "1840", "2080", "700", "703", "713", "741", "-hsync", "+vsync"]
      try server.must(["xrandr", "--newmode", custom, "92.25"] + line)
      try server.must(["xrandr", "--addmode", "DUMMY2", custom])
      try server.must(["xrandr", "--output", "DUMMY2", "--mode", custom, "--output", "DUMMY1", "--primary"])
      let scanned = ["320", "336", "384", "400", "240", "245", "246", "262", "doublescan"]
      try server.must(["xrandr", "--newmode", "320x240d", "12.59"] + scanned)
      try server.must(["xrandr", "--addmode", "DUMMY3", "320x240d"])
      let doubled = try server.run(["xrandr", "--output", "DUMMY3", "--mode", "320x240d", "--right-of", "DUMMY2"])

      let connection = try XConnection(name: server.display)
      let topology = try connection.readTopology()
      let snapshot = try RandROutputManager(connection).heads(probe: false)
      let today = topology.outputs.map { JSON.record(OutputRecord($0, in: topology)).serialized() }
      let heads = snapshot.heads.map { JSON.record(OutputRecord($0, in: snapshot)).serialized() }
      print("dummy: \(today.count) outputs, double scan lit: \(doubled.status == 0)")
      #expect(heads == today)
      #expect(today.count > 3 && today.filter { $0.contains(#""crtc":{"#) }.count >= 3)
      let dummy2 = try #require(snapshot.head(named: "DUMMY2"))
      let shown = try #require(OutputRecord(dummy2, in: snapshot).state.currentMode)
      let mode = try #require(topology.modes.values.first { $0.name == custom })
      #expect((shown.name, shown.id, shown.dotClockHz) == (custom, Int(mode.id.rawValue), 92_250_000))
      #expect(today.contains { $0.hasPrefix(#"{"name":"DUMMY1","#) && $0.contains(#""primary":true"#) })
    }
  }
}
