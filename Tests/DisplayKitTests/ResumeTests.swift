import DisplayKit
import DisplayModel
import DisplayRender
import DisplaySupport
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A resume from suspend, and `SIGUSR1`, against the fake server: some drivers send no RandR
/// event for monitors that changed while the machine slept, and only a snapshot that asks
/// the server to re-probe its connectors sees them. Both causes end in `Daemon.resync`, the
/// seam the service calls for logind's `PrepareForSleep(false)` and for the signal.
@Suite struct ResumeAgainstAFakeServer {
  let quiet = Logger(level: .error) { _ in }
  let surfaces = FakeSurfaceHost()

  /// eDP-1 lit as main; HDMI-1 dark and disconnected; the daemon started, handling a
  /// disconnect at once (no grace: what is tested is the resync, not the grace).
  func started() throws -> (FakeDisplayServer, Daemon) {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var config = Config()
    config.disconnectGrace = 0
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    return (server, daemon)
  }

  /// Changes the server's state with no event, visible only to a probing snapshot.
  func changeUnseen(_ server: FakeDisplayServer, _ body: (inout Topology) -> Void) {
    server.unprobed = server.topology
    body(&server.topology)
  }

  @Test func aMonitorPluggedDuringTheSuspendWithNoEventIsFoundByTheResync() throws {
    let (server, daemon) = try started()
    changeUnseen(server) { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(daemon.monitors.isEmpty && surfaces.held == 0, "no event: the event path cannot see it")
    let probes = server.probes
    try daemon.resync(reason: "resume")
    #expect(server.probes == probes + 1, "exactly one snapshot that probes")
    #expect(daemon.counters.probes == 1)
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1920, height: 1080)], "configured as on a plug")
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1080.id)
  }

  @Test func aMonitorUnpluggedDuringTheSuspendIsReleasedByTheResync() throws {
    let (server, daemon) = try started()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(daemon.monitors.count == 1)
    changeUnseen(server) { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    #expect(daemon.monitors.count == 1, "no event: still managed")
    try daemon.resync(reason: "SIGUSR1")
    #expect(daemon.monitors.isEmpty && surfaces.held == 0 && surfaces.misuses == 0)
    #expect(server.topology.crtcs[1].mode == nil, "its CRTC turned off")
  }

  @Test func aResyncWithNothingChangedChangesNothing() throws {
    let (server, daemon) = try started()
    let (applies, reconciles) = (server.applies, daemon.counters.reconciles)
    try daemon.resync(reason: "SIGUSR1")
    #expect(daemon.counters.probes == 1)
    #expect(server.applies == applies && daemon.counters.reconciles == reconciles, "no reconcile, no request")
  }
}

/// The resume and `SIGUSR1` on a real server (Xvnc), with python-dbusmock's logind template
/// on a private system bus: each causes exactly one probing snapshot, counted in
/// `status --json`'s `counters.probes`.
extension XServerTests {
  @Suite struct Resume {
    /// `status --json`'s counters.
    func counters(_ rig: Lid.Rig) throws -> [String: Any] {
      let r = try runCommand(
        [displaydPath, "status", "--json", "--display", rig.server.display],
        environment: ["XDG_RUNTIME_DIR": rig.runtime, "PATH": "/usr/bin:/bin"])
      guard r.status == 0 else { throw RigError("status: \(r.err)") }
      return try #require(try jsonObject(r.out)["counters"] as? [String: Any])
    }

    func probes(_ rig: Lid.Rig) -> Int? { (try? counters(rig))?["probes"] as? Int }

    /// A laptop whose config does not use the lid: logind is followed for the resume only.
    static let laptop = "{ panel: 'VNC-0' }"

    @Test func prepareForSleepFalseTakesExactlyOneProbingSnapshot() throws {
      let logind = try MockLogind()
      let rig = try Lid.Rig(logind.environment, config: Self.laptop)
      #expect(rig.daemon.log.contains { $0.contains("following logind's resume") }, "\(rig.daemon.log)")
      #expect(try rig.mapsLibsystemd(), "a laptop: libsystemd loaded for the resume")
      #expect(probes(rig) == 0)

      try logind.prepareForSleep(true)
      #expect(rig.daemon.waitFor("PrepareForSleep(true), going to sleep: nothing to do") != nil)
      #expect(probes(rig) == 0, "going to sleep probes nothing")

      try logind.prepareForSleep(false)
      #expect(eventually(within: 2) { probes(rig) == 1 }, "\(rig.daemon.log.suffix(8))")
      #expect(rig.daemon.waitFor("resume (logind PrepareForSleep false): probed the connectors") != nil)
      rig.daemon.settle()
      #expect(probes(rig) == 1, "exactly one")
      #expect(try rig.lid() == "open", "the lid is not watched: it counts as open")
      #expect(!rig.daemon.log.contains { $0.contains("lid open (logind)") })

      try logind.prepareForSleep(false)
      #expect(eventually(within: 2) { probes(rig) == 2 })
      #expect(rig.daemon.isRunning)
    }

    @Test func withTheLidWatchedTheResumeIsFollowedOnTheSameBus() throws {
      let logind = try MockLogind()
      let rig = try Lid.Rig(logind.environment)
      try logind.prepareForSleep(false)
      #expect(eventually(within: 2) { probes(rig) == 1 }, "\(rig.daemon.log.suffix(8))")
      try logind.setLid(closed: true)
      #expect(rig.shows("closed"), "the lid still followed")
      rig.daemon.settle()
      #expect(probes(rig) == 1)
    }

    @Test func hostileSleepSignalsAreIgnored() throws {
      let logind = try MockLogind()
      let rig = try Lid.Rig(logind.environment, config: Self.laptop)
      // The wrong type, no argument, an extra one: none is a resume.
      try logind.emitPrepareForSleep(["s", "1", "s", "false"])
      try logind.emitPrepareForSleep(["", "0"])
      try logind.emitPrepareForSleep(["su", "2", "s", "x", "u", "7"])
      try logind.prepareForSleep(false)
      #expect(eventually(within: 2) { probes(rig) == 1 }, "\(rig.daemon.log.suffix(8))")
      rig.daemon.settle()
      #expect(probes(rig) == 1, "only the real one")
      #expect(rig.daemon.isRunning)
    }

    @Test func sigusr1TakesExactlyOneProbingSnapshotWithoutLogind() throws {
      let rig = try Lid.Rig([:], config: "{}")
      #expect(probes(rig) == 0)
      rig.daemon.child.signal(SIGUSR1)
      #expect(rig.daemon.waitFor("SIGUSR1: probed the connectors, heads unchanged") != nil, "\(rig.daemon.log)")
      #expect(probes(rig) == 1)
      rig.daemon.child.signal(SIGUSR1)
      #expect(eventually(within: 2) { probes(rig) == 2 })
      rig.daemon.settle()
      #expect(rig.daemon.isRunning, "the signal does not end the daemon (its default action would)")
      #expect(try !rig.mapsLibsystemd(), "a desktop config without the lid loads no libsystemd for this")
    }
  }
}
