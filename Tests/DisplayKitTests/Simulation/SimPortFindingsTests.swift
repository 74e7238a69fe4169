import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

/// What the simulation found over the output-management port, each pinned by a focused test
/// against `FakeOutputManager` (the seeds that found it in the comment). A compositor gives
/// no EDID: a head's monitor is what its make, model and serial say.
@Suite struct SimulationPortFindings {
  let quiet = Logger(level: .error) { _ in }
  let surfaces = FakeSurfaceHost()

  func config(_ text: String) throws -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  /// The head of a monitor that says it is `model`, as a compositor lists it.
  func head(_ name: String, _ model: String) -> Head {
    var head = FakeOutputManager.head(name)
    (head.make, head.model, head.serial) = ("Acer Technologies", model, "1")
    return head
  }

  /// eDP-1 lit as main, HDMI-1 (BETA) plugged and arranged by the daemon.
  func desk(_ config: Config) throws -> (FakeOutputManager, Daemon) {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet
    )
    try daemon.start()
    manager.plug(head("HDMI-1", "BETA"))
    try daemon.handleServerEvents()
    try daemon.handleServerEvents()
    #expect(manager.head("HDMI-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    return (manager, daemon)
  }

  /// Another monitor on a lit head (its identity swapped) was the same monitor to the
  /// daemon, which told monitors apart by their EDID alone: settled, it kept the mode and
  /// place of the one before, where its own rule gives another.
  @Test func anotherMonitorOnALitHeadGetsItsOwnRulesMode() throws {
    let (manager, daemon) = try desk(
      try config("{ monitors: [ { match: { product_name: 'ALPHA' }, mode: '1280x1024', position: 'below main' } ] }"))
    manager.change { heads in
      for i in heads.indices where heads[i].name == "HDMI-1" { heads[i].model = "ALPHA" }
    }
    try daemon.handleServerEvents()
    #expect(manager.head("HDMI-1")?.rect == Rect(x: 0, y: 1080, width: 1280, height: 1024), "ALPHA's rule")
    #expect(surfaces.rects == [Rect(x: 0, y: 1080, width: 1280, height: 1024)])
  }

  /// Seed 1592590701: a profile in force, its monitor replaced while the daemon did not look
  /// (one batch of events: the head gone and another of the same name, off). The profile's
  /// desk was keyed by EDIDs, all absent, so the desk looked the same and the profile in
  /// force: the new monitor stayed dark.
  @Test func aProfilesMonitorReplacedUnseenIsLitByTheProfile() throws {
    let (manager, daemon) = try desk(
      try config(
        """
        { profiles: [ { name: 'docked', outputs: [ { match: { output: 'eDP-1' } },
                                                   { match: { output: 'HDMI-1' }, position: 'right-of eDP-1' } ] } ] }
        """))
    #expect(daemon.activeProfile.name == "docked")
    manager.remove("HDMI-1")
    manager.plug(head("HDMI-1", "GAMMA"))
    try daemon.handleServerEvents()
    #expect(manager.head("HDMI-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080), "lit by the profile")
  }

  /// Seeds 1592591248, 1592591274, 1592592137, 1592592184: the lid closed, the panel off, the
  /// only monitor lit went (a compositor drops its head at once: the desk dark), a profile of
  /// the panel alone lit it, and the monitor came back: the rules lit it, and the lid policy,
  /// done with that desk before the profile, left the panel lit.
  @Test func thePanelGoesOffAgainWhenAProfileThatLitItEndsWithTheLidClosed() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    let rules = try config(
      "{ disconnect_grace: 0, defaults: { lid_closed: 'disable' }, profiles: [ { name: 'solo', outputs: [ { match: { output: 'eDP-1' } } ] } ] }"
    )
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(), config: rules, log: quiet)
    try daemon.start()
    manager.plug(head("DP-2", "ALPHA"))
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(manager.head("eDP-1")?.enabled == false && manager.head("DP-2")?.enabled == true)
    manager.remove("DP-2")
    try daemon.handleServerEvents()
    #expect(daemon.activeProfile.name == "solo" && manager.head("eDP-1")?.enabled == true, "never a dark desk")
    manager.plug(head("DP-2", "ALPHA"))
    try daemon.handleServerEvents()
    #expect(manager.head("DP-2")?.enabled == true)
    #expect(manager.head("eDP-1")?.enabled == false, "the lid closed: the panel off again")
  }

  /// Seeds 1592599714, 1592594517, 1592605089, 1592626483 (from 40000 lives): a layout in
  /// force with the panel off, its only monitor lit back off (gone and back unseen, or
  /// turned off by another client): the desk the same, the layout was taken as in force,
  /// and the desk stayed dark.
  @Test func aLayoutInForceOnADarkDeskIsPlannedAgain() throws {
    let (manager, daemon) = try desk(try config("{ disconnect_grace: 0 }"))
    _ = try daemon.switchTo(.layout(.externalOnly)).get()
    #expect(manager.head("eDP-1")?.enabled == false && manager.head("HDMI-1")?.enabled == true)
    try daemon.handleServerEvents()
    manager.change { heads in
      for i in heads.indices where heads[i].name == "HDMI-1" { (heads[i].enabled, heads[i].currentMode) = (false, nil) }
    }
    try daemon.handleServerEvents()
    #expect(manager.heads.contains { $0.enabled }, "never a dark desk")
  }

  /// Seeds 1592607662, 1592593036, 1592594536, 1592595107, 1592609466, 1592609813,
  /// 1592615244: a monitor lit by a layout chosen by hand (its rule kept it off), then a
  /// reload that gives it a rule's mode, which ends the choice. It is main and lit by the
  /// daemon, so the rules plan it for its mode, as a fresh daemon would; only what the rules
  /// had lit was planned again, so it kept the layout's mode.
  @Test func aMainALayoutLitGetsItsRulesModeOnceTheChoiceEnds() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    let rule = { (enabled: String) in
      try self.config(
        "{ disconnect_grace: 0, defaults: { lid_closed: 'disable' }, monitors: [ { match: { output: 'DP-2' }, \(enabled) } ] }"
      )
    }
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(),
      config: try rule("enabled: false"), log: quiet)
    try daemon.start()
    manager.plug(head("DP-2", "ALPHA"))
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(manager.head("DP-2")?.enabled == false, "its rule keeps it off")
    _ = try daemon.switchTo(.layout(.externalOnly)).get()
    try daemon.handleServerEvents()
    #expect(manager.head("DP-2")?.rect == Rect(x: 0, y: 0, width: 1920, height: 1080), "lit by the layout")
    try daemon.reload(try rule("mode: '1280x1024'"))
    try daemon.handleServerEvents()
    #expect(manager.head("DP-2")?.rect == Rect(x: 0, y: 0, width: 1280, height: 1024), "its rule's mode")
    #expect(manager.head("eDP-1")?.enabled == false, "the lid closed")
  }

  /// Seed 1592595410: the lid closed with the panel off, then applies refused while a
  /// monitor came and another flapped: the lid policy's refused apply was forgotten once the
  /// flap made a desk it had been done with, and the panel stayed lit with the lid closed.
  @Test func aFailedLidApplyIsTriedAgainWhenAFlapMakesADeskItWasDoneWith() throws {
    let (manager, daemon) = try desk(try config("{ disconnect_grace: 0, defaults: { lid_closed: 'disable' } }"))
    try daemon.setLid(.closed)
    #expect(manager.head("eDP-1")?.enabled == false)
    manager.refuseApply(1)
    manager.plug(head("DP-2", "ALPHA"))
    try daemon.handleServerEvents()
    manager.refuseApply(2)
    manager.remove("HDMI-1")
    try daemon.handleServerEvents()
    manager.plug(head("HDMI-1", "BETA"))
    try daemon.handleServerEvents()
    try daemon.handleServerEvents()
    #expect(manager.head("HDMI-1")?.enabled == true)
    #expect(manager.head("eDP-1")?.enabled == false, "the lid closed: the panel off")
  }

  /// Seeds 1592590496, 1592601007, 1592605156, 1592606841, 1592608338, 1592610455 (over the
  /// port): a monitor unplugged and plugged back before the daemon looked (one batch of
  /// events) comes back as a head of the same name and identity, off. Told apart by its
  /// monitor alone, it was the head the daemon had settled, turned off by another client,
  /// and left off where a fresh daemon lights it: a new head object is another attachment.
  @Test func aMonitorBackUnseenIsLitAgain() throws {
    let (manager, daemon) = try desk(try config("{ disconnect_grace: 0 }"))
    manager.remove("HDMI-1")
    manager.plug(head("HDMI-1", "BETA"))
    try daemon.handleServerEvents()
    try daemon.handleServerEvents()
    #expect(manager.head("HDMI-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1920, height: 1080)])
  }

  /// The lives of 40000 over the port that found the three above, replayed whole: each
  /// ends in the layout a fresh daemon plans for its last desk. 1592607957 is a monitor back
  /// unseen with another identity (from none to ALPHA).
  @Test(
    arguments: [
      1_592_590_496, 1_592_607_957, 1_592_601_007, 1_592_605_156, 1_592_606_841, 1_592_608_338, 1_592_610_455,
      1_592_607_662, 1_592_593_036, 1_592_594_536, 1_592_595_107, 1_592_609_466, 1_592_609_813, 1_592_615_244,
      1_592_595_410,
    ] as [UInt64])
  func theseLivesOverThePortEndInAFreshDaemonsLayout(seed: UInt64) {
    let run = SimRun(seed: seed, over: .port, without: ["serverReset"])
    if let failure = run.run(steps: DaemonSimulation.steps) { Issue.record("\(failure)") }
  }
}
