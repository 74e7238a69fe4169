import DisplayKit
import DisplayModel
import DisplayService
import Foundation
import Testing
import XRig

@testable import DisplayX11

extension XServerTests {
  /// Applying a plan is all or nothing, and only on the state it was planned from.
  @Suite struct Apply {
    /// DUMMY1...n connected without a CRTC, listing 800x600 only.
    func darkOutputs(_ server: TestXServer, _ n: Int) throws {
      for i in 1...n {
        try server.must(["xrandr", "--addmode", "DUMMY\(i)", "800x600"])
        try server.must(["xrandr", "--output", "DUMMY\(i)", "--mode", "800x600", "--right-of", "DUMMY0"])
        try server.must(["xrandr", "--output", "DUMMY\(i)", "--off"])
      }
    }

    /// The plan the X backend makes of the head planner's answer for `t` (no rules: every
    /// monitor lit, right of the main one).
    func planned(_ t: Topology) throws -> Plan {
      let configuration = RulePlanner(snapshot: try t.randrHeads(), config: Config()).plan().configuration
      return try RandRConfigurationPlanner(t).plan(configuration).get().plan
    }

    @Test func aPlanMadeOnAStaleSnapshotChangesNothing() throws {
      let server = try TestXServer.dummy()
      try darkOutputs(server, 1)
      let connection = try XConnection(name: server.display)
      let old = try connection.readTopology(ReadOptions(probe: true))
      let plan = try planned(old)
      #expect(plan.changes.count == 1, "DUMMY1 is to be lit")
      // Another client changes the configuration after the snapshot.
      try server.must(["xrandr", "--output", "DUMMY0", "--mode", "1024x768"])
      let outcome = try connection.apply(plan, in: old)
      let layout = try server.must(["xrandr"])
      #expect(outcome.stale && outcome.applied.isEmpty)
      #expect(layout.contains("DUMMY1 connected\n"), "nothing was applied: DUMMY1 still off\n\(layout)")
      let fresh = try connection.readTopology()
      let again = try connection.apply(try planned(fresh), in: fresh)
      #expect(!again.stale && again.failed.isEmpty && again.applied.count == 1)
      let lit = try server.must(["xrandr"])
      #expect(lit.contains("DUMMY1 connected 2048x1536+1024+0"), "planned again from the fresh snapshot:\n\(lit)")
    }

    @Test func aChangeTheServerRefusesRollsBackTheWholePlan() throws {
      let server = try TestXServer.dummy()
      try darkOutputs(server, 2)
      // A mode the server knows but no output lists.
      try server.must(["xrandr", "--newmode", "odd", "25.175", "640", "656", "752", "800", "480", "490", "492", "525"])
      let before = try server.must(["xrandr"])
      let connection = try XConnection(name: server.display)
      let topology = try connection.readTopology(ReadOptions(probe: true))
      var plan = try planned(topology)
      #expect(plan.changes.count == 2)
      // The second monitor is given a mode it does not list: the server answers BadMatch
      // after the first one was lit.
      let foreign = try #require(topology.modes.values.first { $0.name == "odd" })
      plan.changes[1].mode = foreign.id
      plan.changes[1].fallbacks = []
      let outcome = try connection.apply(plan, in: topology)
      #expect(outcome.failed.count == 1 && outcome.failed[0].change.outputName == "DUMMY2")
      let after = try server.must(["xrandr"])
      #expect(after == before, "the layout before the apply, exactly:\n\(after)")
    }
  }
}
