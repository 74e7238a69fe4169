import DisplayKit
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayModel

/// What one snapshot shows of the layout: CRTCs, screen size in pixels and millimetres,
/// primary. Timestamps left out: a rollback moves them on.
struct Layout: Equatable, CustomStringConvertible {
  var crtcs: [String]
  var screen: String
  var primary: String?

  init(_ t: Topology) {
    crtcs = t.crtcs.filter(\.isActive).map { c in
      let names = c.outputs.compactMap { t.output($0)?.name }.sorted().joined(separator: ",")
      return
        "\(names) \(c.width)x\(c.height)+\(c.x)+\(c.y) mode \(c.mode.map { "\($0)" } ?? "-") rot \(c.rotation.rawValue)"
    }
    screen = "\(t.screen.width)x\(t.screen.height) \(t.screen.mmWidth)x\(t.screen.mmHeight)mm"
    primary = t.primary.flatMap { t.output($0)?.name }
  }

  var description: String { "screen \(screen), primary \(primary ?? "none")\n  " + crtcs.joined(separator: "\n  ") }
}

/// Profile-style plans, built by hand from a snapshot, applied to real servers.
enum PlanBuilder {
  /// A snapshot through a new connection: Xlib's screen size and millimetres are only as
  /// fresh as the connection (or its RRScreenChangeNotify handling).
  static func snapshot(_ server: TestXServer) throws -> Topology {
    try XConnection(name: server.display).readTopology(ReadOptions(probe: true))
  }

  /// Lights DUMMY1...DUMMYn at 1024x768 in a row right of DUMMY0.
  static func lightDummies(_ server: TestXServer, _ n: Int) throws {
    for i in 1...n {
      try server.must(["xrandr", "--addmode", "DUMMY\(i)", "1024x768"])
      try server.must(["xrandr", "--addmode", "DUMMY\(i)", "800x600"])
      try server.must(["xrandr", "--output", "DUMMY\(i)", "--mode", "1024x768", "--right-of", "DUMMY\(i - 1)"])
    }
  }

  /// `output` at `mode` (by name) and (x, y), on the CRTC it has now or the first free one.
  static func change(
    _ t: Topology, _ output: String, _ mode: String?, at x: Int = 0, _ y: Int = 0, rotation: Rotation = .normal
  ) throws -> CrtcChange {
    let o = try #require(t.output(named: output))
    let crtc = try #require(o.crtc ?? o.possibleCrtcs.first { id in t.crtc(id).map { !$0.isActive } ?? false })
    let id = try mode.map { name in
      try #require(t.modes(of: o).first { $0.name == name }?.id, "\(output) lists \(name)")
    }
    return CrtcChange(
      crtc: crtc, mode: id, x: x, y: y, rotation: rotation, outputs: [o.id], fallbacks: [], outputName: output)
  }

  /// A change for every lit CRTC, as it is now.
  static func inForce(_ t: Topology) -> [CrtcChange] {
    t.crtcs.filter(\.isActive).map { c in
      CrtcChange(
        crtc: c.id, mode: c.mode, x: c.x, y: c.y, rotation: c.rotation, outputs: c.outputs, fallbacks: [],
        outputName: c.outputs.first.flatMap { t.output($0)?.name } ?? "?")
    }
  }
}

extension XServerTests {
  /// Applying whole-desk plans on Xorg's dummy driver: outputs off (main too), primary,
  /// physical size, grow-and-shrink, idempotence, rollback, refusals.
  @Suite struct ProfileApply {
    typealias B = PlanBuilder

    @Test func turnsOffOutputsIncludingTheMainOneAndSetsThePrimary() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let t = try B.snapshot(server)
      #expect(t.primary == t.output(named: "DUMMY0")?.id, "the dummy starts with DUMMY0 primary")
      var plan = Plan()
      plan.changes = [
        try B.change(t, "DUMMY0", nil), try B.change(t, "DUMMY1", "1024x768", at: 0, 0),
        try B.change(t, "DUMMY2", "1024x768", at: 1024, 0),
      ]
      plan.screen = (2048, 768)
      plan.primary = t.output(named: "DUMMY2")?.id
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.failed.isEmpty && outcome.problems.isEmpty && outcome.refused == nil, "\(outcome.problems)")
      let after = Layout(try B.snapshot(server))
      #expect(after.primary == "DUMMY2")
      #expect(after.screen.hasPrefix("2048x768 "))
      #expect(after.crtcs.count == 2 && after.crtcs.contains { $0.hasPrefix("DUMMY1 1024x768+0+0") })
      #expect(after.crtcs.contains { $0.hasPrefix("DUMMY2 1024x768+1024+0") }, "\(after)")
      #expect(!after.crtcs.contains { $0.hasPrefix("DUMMY0") }, "DUMMY0 off")
    }

    @Test func screenMillimetresSetTheDPIAndAResizeWithoutThemKeepsIt() throws {
      let server = try TestXServer.dummy()
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.screenMillimetres = (270, 203)  // 2048x1536 at 192 dpi
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.problems.isEmpty && outcome.failed.isEmpty)
      let dpi192 = try B.snapshot(server)
      #expect((dpi192.screen.mmWidth, dpi192.screen.mmHeight) == (270, 203))
      #expect(try server.must(["xdpyinfo"]).contains("2048x1536 pixels (270x203 millimeters)"))
      // Growing the screen for a second monitor, with no millimetres asked: still 192 dpi.
      try server.must(["xrandr", "--addmode", "DUMMY1", "1024x768"])
      let before = try B.snapshot(server)
      var grow = Plan()
      grow.changes = [try B.change(before, "DUMMY1", "1024x768", at: 2048, 0)]
      grow.screen = (3072, 1536)
      #expect(try XConnection(name: server.display).apply(grow, in: before).problems.isEmpty)
      let after = try B.snapshot(server).screen
      #expect((after.width, after.height) == (3072, 1536))
      let dpi = (
        Double(after.width) * 25.4 / Double(after.mmWidth), Double(after.height) * 25.4 / Double(after.mmHeight)
      )
      #expect(abs(dpi.0 - 192) < 1 && abs(dpi.1 - 192) < 1, "\(after.mmWidth)x\(after.mmHeight) mm: \(dpi) dpi")
    }

    /// Right-of to below: neither the old nor the new screen holds both layouts, only their
    /// union does.
    @Test func aMonitorMovedFromRightOfToBelowGrowsAndShrinksTheScreenInOneApply() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let t = try B.snapshot(server)
      #expect(Layout(t).screen.hasPrefix("3072x1536 "))
      var plan = Plan()
      plan.changes = [try B.change(t, "DUMMY1", "1024x768", at: 0, 1536)]
      plan.screen = (2048, 2304)
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.failed.isEmpty && outcome.problems.isEmpty, "\(outcome.failed) \(outcome.problems)")
      let after = Layout(try B.snapshot(server))
      #expect(after.screen.hasPrefix("2048x2304 "), "\(after)")
      #expect(after.crtcs.contains { $0.hasPrefix("DUMMY1 1024x768+0+1536") }, "\(after)")
    }

    @Test func aPlanAlreadyInForceSendsNothing() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = B.inForce(t) + [try B.change(t, "DUMMY3", nil)]
      plan.screen = (t.screen.width, t.screen.height)
      plan.primary = t.primary
      plan.screenMillimetres = (t.screen.mmWidth, t.screen.mmHeight)
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.applied.isEmpty && outcome.unchanged.count == 4 && outcome.problems.isEmpty)
      let after = try B.snapshot(server)
      #expect(after.configTimestamp == t.configTimestamp && after.timestamp == t.timestamp, "no CRTC was set")
      #expect(Layout(after) == Layout(t))
    }

    /// The third CRTC asks a mode its output does not list: BadMatch after two CRTCs moved and
    /// the screen grew; everything comes back.
    @Test func aFailureHalfWayRestoresTheSnapshotExactly() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      try server.must(["xrandr", "--addmode", "DUMMY3", "800x600"])
      try server.must(["xrandr", "--newmode", "odd", "25.175", "640", "656", "752", "800", "480", "490", "492", "525"])
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [
        try B.change(t, "DUMMY1", "800x600", at: 0, 1536), try B.change(t, "DUMMY2", "800x600", at: 800, 1536),
        try B.change(t, "DUMMY3", "800x600", at: 1600, 1536),
      ]
      let odd = try #require(t.modes.values.first { $0.name == "odd" })
      plan.changes[2].mode = odd.id
      plan.screen = (2400, 2136)
      plan.primary = t.output(named: "DUMMY1")?.id
      plan.screenMillimetres = (300, 200)
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.applied.count == 2 && outcome.failed.map(\.change.outputName) == ["DUMMY3"])
      #expect(outcome.notRestored.isEmpty, "\(outcome.notRestored)")
      #expect(Layout(try B.snapshot(server)) == Layout(t))
    }

    /// The last step fails (a primary that is no output): the CRTCs, the screen size and its
    /// millimetres all come back.
    @Test func aRefusedPrimaryRollsBackCrtcsScreenAndMillimetres() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [try B.change(t, "DUMMY1", "800x600", at: 0, 1536)]
      plan.screen = (2048, 2136)
      plan.screenMillimetres = (300, 200)
      plan.primary = OutputID(rawValue: 0x7fff_fff0)
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.problems.count == 1 && outcome.problems[0].hasPrefix("primary"), "\(outcome.problems)")
      #expect(outcome.notRestored.isEmpty, "\(outcome.notRestored)")
      #expect(Layout(try B.snapshot(server)) == Layout(t))
    }

    @Test func aPlanThatLeavesNothingLitIsRefusedBeforeAnyRequest() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [try B.change(t, "DUMMY0", nil), try B.change(t, "DUMMY1", nil)]
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.refused?.contains("no connected output lit") == true && outcome.applied.isEmpty)
      let after = try B.snapshot(server)
      #expect(Layout(after) == Layout(t) && after.timestamp == t.timestamp)
    }

    @Test func aRotationTheCrtcCannotDoIsRefusedWithTheOutputNamed() throws {
      let server = try TestXServer.dummy()
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [try B.change(t, "DUMMY0", "1024x768", rotation: .left)]
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.rotationRefused == [plan.changes[0].crtc])
      #expect(
        outcome.refused?.contains("DUMMY0: its CRTC cannot do left, only normal") == true, "\(outcome.refused ?? "")")
      #expect(Layout(try B.snapshot(server)) == Layout(t))
    }

    /// No server here scales (RRSetCrtcTransform answers BadValue): the plan is not applied
    /// and the outcome names the CRTC, for the daemon to plan again without `scale`.
    @Test func aTransformTheServerRefusesIsListedAndNothingChanges() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      try server.must(["xrandr", "--addmode", "DUMMY2", "800x600"])
      let fresh = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [
        try B.change(fresh, "DUMMY1", "800x600", at: 2048, 0), try B.change(fresh, "DUMMY2", "800x600", at: 0, 1536),
      ]
      plan.changes[0].transform = CrtcTransform(matrix: [2, 0, 0, 0, 2, 0, 0, 0, 1])
      plan.screen = (3648, 2136)
      let outcome = try XConnection(name: server.display).apply(plan, in: fresh)
      #expect(outcome.transformRefused == [plan.changes[0].crtc] && outcome.applied.isEmpty)
      #expect(outcome.problems.first?.contains("DUMMY1: transform refused") == true, "\(outcome.problems)")
      let after = try B.snapshot(server)
      #expect(Layout(after) == Layout(fresh) && after.timestamp == fresh.timestamp)
    }
  }
}
