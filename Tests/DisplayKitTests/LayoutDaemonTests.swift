import DisplayModel
import DisplayRender
import DisplaySupport
import Testing

@testable import DisplayKit

/// Manual choice in the daemon, against `FakeDisplayServer`: what ends it, what comes back,
/// what a refusal leaves.
@Suite struct LayoutChoiceInTheDaemon {
  let quiet = Logger(level: .error) { _ in }

  /// eDP-1 (primary) at 0,0 and HDMI-1 right of it, both 1920x1080, the daemon started.
  func desk(_ config: Config = Config()) throws -> (FakeDisplayServer, Daemon) {
    let m = TopologyBuilder.m1080
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": m, "HDMI-1": m], primary: "eDP-1"))
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    return (server, daemon)
  }

  func rects(_ daemon: Daemon) -> [String] {
    daemon.topology.connectedOutputs.map { "\($0.name) \(daemon.topology.geometry(of: $0)?.description ?? "off")" }
  }

  static let automatic = ["eDP-1 1920x1080+0+0", "HDMI-1 1920x1080+1920+0"]

  @Test func aLidChangeEndsAManualLayoutAndPutsBackTheOneBefore() throws {
    let (_, daemon) = try desk()
    #expect(rects(daemon) == Self.automatic)
    #expect(try daemon.switchTo(.layout(.externalOnly)).get() == true)
    #expect(rects(daemon) == ["eDP-1 off", "HDMI-1 1920x1080+0+0"])
    #expect(daemon.layoutChoice == .layout(.externalOnly))
    #expect(daemon.activeProfile == ActiveProfile(name: "external-only", reason: .switched))
    try daemon.setLid(.closed)
    #expect(daemon.layoutChoice == nil)
    #expect(rects(daemon) == Self.automatic)
    #expect(daemon.topology.primary == daemon.topology.output(named: "eDP-1")?.id)
    #expect(daemon.activeProfile == ActiveProfile(name: nil, reason: .none))
  }

  @Test func aReloadEndsAManualLayoutToo() throws {
    let (_, daemon) = try desk()
    _ = try daemon.switchTo(.layout(.extendLeft)).get()
    #expect(rects(daemon) == ["eDP-1 1920x1080+1920+0", "HDMI-1 1920x1080+0+0"])
    var config = Config()
    config.defaults.content = .none
    try daemon.reload(config)
    #expect(daemon.layoutChoice == nil && rects(daemon) == Self.automatic)
  }

  @Test func aProfileChosenByHandIsUndoneLikeALayout() throws {
    let config = try Config.parse(
      Array(
        "{ profiles: [ { name: 'left', outputs: [ { match: { output: 'HDMI-1' } }, { match: { output: 'eDP-1' } } ] } ] }"
          .utf8), file: "t.json5")
    let (_, daemon) = try desk(config)
    #expect(daemon.activeProfile == ActiveProfile(name: "left", reason: .matched))
    _ = try daemon.switchTo(.layout(.mainOnly)).get()
    _ = try daemon.switchTo(.profile("left")).get()
    #expect(daemon.layoutChoice == .profile("left"))
    #expect(daemon.profileListings.map(\.active) == [true])
    _ = try daemon.switchTo(.layout(.mirror)).get()
    #expect(daemon.profileListings.map(\.active) == [false], "a built-in layout is no profile of the config")
    #expect(try daemon.resumeAutomatic())
    #expect(daemon.layoutChoice == nil)
    #expect(daemon.activeProfile == ActiveProfile(name: "left", reason: .matched))
    #expect(rects(daemon) == ["eDP-1 1920x1080+1920+0", "HDMI-1 1920x1080+0+0"])
    #expect(try daemon.resumeAutomatic() == false, "automatic already: nothing to do")
  }

  @Test func aRefusedLayoutChangesNothingAndStartsNoManualChoice() throws {
    let (server, daemon) = try desk()
    let before = server.topology
    #expect(throws: ProfileSwitchRefusal.layout(.externalOnly, .noPanel)) {
      var c = Config()
      c.panel = "DP-9"
      try daemon.reload(c)
      _ = try daemon.switchTo(.layout(.externalOnly)).get()
    }
    #expect(daemon.layoutChoice == nil && server.topology.crtcs == before.crtcs)
    #expect(throws: ProfileSwitchRefusal.unknown(name: "nope", known: [])) {
      try daemon.switchTo(.profile("nope")).get()
    }
  }

  @Test func aLayoutTheServerRefusesIsReportedAndTheChoiceBeforeItStays() throws {
    let (server, daemon) = try desk()
    _ = try daemon.switchTo(.layout(.extendLeft)).get()
    let before = server.topology
    server.refusing.insert(try #require(server.topology.output(named: "HDMI-1")?.id))
    #expect(throws: ProfileSwitchRefusal.notApplied(.layout(.extendRight))) {
      try daemon.switchTo(.layout(.extendRight)).get()
    }
    #expect(server.topology.crtcs == before.crtcs, "rolled back")
    #expect(daemon.layoutChoice == .layout(.extendLeft))
    #expect(daemon.activeProfile == ActiveProfile(name: "extend-left", reason: .switched))
    server.refusing = []
    #expect(try daemon.resumeAutomatic())
    #expect(rects(daemon) == Self.automatic, "the automatic layout of before the first switch")
  }

  @Test func theCycleOrderIsTheMatchingProfilesThenThePossibleLayouts() throws {
    let config = try Config.parse(
      Array(
        """
        { profiles: [ { name: 'solo', outputs: [ { match: { output: 'eDP-1' } } ] },
                      { name: 'both', outputs: [ { match: { output: 'eDP-*' } }, { match: { output: 'HDMI-*' } } ] } ] }
        """.utf8), file: "t.json5")
    let (_, daemon) = try desk(config)
    #expect(
      daemon.cycleOrder == [
        .profile("both"), .layout(.extendRight), .layout(.extendLeft), .layout(.extendAbove), .layout(.mirror),
        .layout(.externalOnly), .layout(.mainOnly),
      ])
    var seen: [LayoutChoice] = []
    for _ in 0..<8 { seen.append(try daemon.cycle().get().choice) }
    #expect(seen == Array(daemon.cycleOrder.dropFirst()) + daemon.cycleOrder.prefix(2), "after 'both', wrapping")
  }
}
