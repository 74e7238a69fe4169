import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import Testing
import XRig

@testable import DisplayX11

extension XServerTests {
  /// The records from heads against a real server: what `outputs --json` says of each output,
  /// and `watch --json` of a change, is the same whether it is made from the heads the RandR
  /// backend reads or from the topology the connection reads.
  @Suite struct HeadRecordsServer {
    typealias B = PlanBuilder

    /// The dummy with three lit outputs, one primary, one at a mode displayd made (its name,
    /// id and dot clock the server's), beside dark ones. (A double-scanned mode cannot be
    /// shown here: the server's mode validation drops it from the dummy's outputs.)
    @Test func theRandRBackendsHeadsGiveTheRecordsOfTheConnectionsTopologyOnTheDummy() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let custom = CustomModes.prefix + "1600x700_60.00"
      let line = ["1600", "1680", "1840", "2080", "700", "703", "713", "741", "-hsync", "+vsync"]
      try server.must(["xrandr", "--newmode", custom, "92.25"] + line)
      try server.must(["xrandr", "--addmode", "DUMMY2", custom])
      try server.must(["xrandr", "--output", "DUMMY2", "--mode", custom, "--output", "DUMMY1", "--primary"])

      let connection = try XConnection(name: server.display)
      // Probed, as the daemon reads at start: the dummy then says its lit outputs are connected.
      let topology = try connection.readTopology(ReadOptions(probe: true))
      let snapshot = try RandROutputManager(connection).heads(probe: true)
      let records = snapshot.heads.map { JSON.record(OutputRecord($0, in: snapshot)).serialized() }
      #expect(records.count == topology.outputs.count && records.count > 3)
      #expect(records.filter { $0.contains(#""crtc":{"#) }.count >= 3)
      #expect(records.filter { $0.contains(#""connection":"connected""#) }.count >= 3)
      let dummy2 = try #require(snapshot.head(named: "DUMMY2"))
      let shown = try #require(OutputRecord(dummy2, in: snapshot).state.currentMode)
      let mode = try #require(topology.modes.values.first { $0.name == custom })
      #expect((shown.name, shown.id, shown.dotClockHz) == (custom, Int(mode.id.rawValue), 92_250_000))
      #expect(records.contains { $0.hasPrefix(#"{"name":"DUMMY1","#) && $0.contains(#""primary":true"#) })

      // Another client turns the first output off: `watch --json`'s lines from the diff.
      try server.must(["xrandr", "--output", "DUMMY0", "--off"])
      let headsAfter = try RandROutputManager(connection).heads(probe: false)
      let lines = SnapshotDiff.events(from: snapshot, to: headsAfter).map {
        JSON.record(EventRecord($0, in: headsAfter, time: "T")).serialized()
      }
      // DUMMY0 goes dark; the server moves the other two left: each a change of mode or place.
      #expect(lines.count == 3, "\(lines)")
      #expect(lines.allSatisfy { $0.hasPrefix(#"{"event":"mode-changed","#) }, "\(lines)")
      #expect(
        lines.first.map { $0.hasPrefix(#"{"event":"mode-changed","output":"DUMMY0","#) && $0.contains(#""crtc":null"#) }
          == true, "\(lines)")
    }
  }
}
