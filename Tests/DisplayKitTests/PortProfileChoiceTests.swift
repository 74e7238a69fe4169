import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

@testable import DisplayKit

/// The daemon's choice of a profile or built-in layout is made over the heads the port
/// lists (`ProfileMatcher`, `BuiltinLayouts`, `ProfilePlanner`): what a head says
/// of itself decides, as it does for the planners that apply the choice.
@Suite struct ProfileChoiceOverThePort {
  let quiet = Logger(level: .error) { _ in }
  let surfaces = FakeSurfaceHost()

  func config(_ body: String) throws -> Config {
    try Config.parse(Array("{ disconnect_grace: 0, \(body) }".utf8), file: "config.json5")
  }

  /// A monitor that says its make, model and serial, with no EDID (as most compositors list
  /// one).
  func dell(serial: String) -> Head {
    var head = FakeOutputManager.head("DP-1")
    (head.make, head.model, head.serial) = ("Dell Inc.", "DELL U2720Q", serial)
    return head
  }

  static let byIdentity = """
    profiles: [
      { name: "desk", outputs: [
        { match: { output: "eDP-1" }, enabled: false },
        { match: { manufacturer: "Dell*", product_name: "DELL U2720Q", serial: "ABC123" },
          position: "0,0" } ] },
    ]
    """

  @Test func aMonitorWithoutAnEDIDIsChosenByTheMakeModelAndSerialItsHeadSays() throws {
    let panel = FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)
    let manager = FakeOutputManager([panel, dell(serial: "ABC123")])
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(),
      config: try config(Self.byIdentity), log: quiet)
    try daemon.start()
    #expect(daemon.activeProfile == ActiveProfile(name: "desk", reason: .matched))
    #expect(manager.head("eDP-1")?.enabled == false)
    #expect(manager.head("DP-1")?.rect == Rect(x: 0, y: 0, width: 1920, height: 1080))
    #expect(daemon.profileListings.map(\.active) == [true] && daemon.profileListings.first?.mismatch == nil)
    #expect(daemon.mainOutput?.name == "DP-1", "the panel is off: main is the lit monitor")
  }

  @Test func anotherMonitorOfTheSameModelOnTheConnectorDoesNotMatchTheProfile() throws {
    let panel = FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)
    let manager = FakeOutputManager([panel, dell(serial: "XYZ789")])
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(),
      config: try config(Self.byIdentity), log: quiet)
    try daemon.start()
    #expect(daemon.activeProfile == ActiveProfile(name: nil, reason: .none))
    #expect(manager.head("eDP-1")?.enabled == true)
    let why = ProfileMismatch.noOutput(entry: 2, match: daemon.config.profiles[0].outputs[1].match.summary)
    #expect(daemon.profileListings.first?.mismatch == why)
    #expect(try daemon.switchProfile("desk") == .mismatch(name: "desk", why))
  }

  /// The topology made from the heads calls a head a panel by its name only; the heads say
  /// what the compositor marks.
  @Test func aHeadTheCompositorMarksAsTheBuiltInPanelIsThePanelExternalOnlyTurnsOff() throws {
    let manager = FakeOutputManager([
      FakeOutputManager.head("Built-in-1", at: (0, 0), panel: true),
      FakeOutputManager.head("HDMI-1", at: (1920, 0)),
    ])
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(), config: try config(""),
      log: quiet)
    try daemon.start()
    #expect(daemon.cycleOrder.contains(.layout(.externalOnly)))
    let switched = try daemon.switchTo(.layout(.externalOnly))
    #expect(switched == .success(true))
    #expect(manager.head("Built-in-1")?.enabled == false)
    #expect(manager.head("HDMI-1")?.rect == Rect(x: 0, y: 0, width: 1920, height: 1080))
    #expect(daemon.layoutChoice == .layout(.externalOnly))
  }

  @Test func withoutAHeadMarkedAsThePanelExternalOnlyIsRefusedInItsWords() throws {
    let manager = FakeOutputManager([
      FakeOutputManager.head("DP-1", at: (0, 0)), FakeOutputManager.head("HDMI-1", at: (1920, 0)),
    ])
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(), config: try config(""),
      log: quiet)
    try daemon.start()
    #expect(!daemon.cycleOrder.contains(.layout(.externalOnly)))
    let refused = try daemon.switchTo(.layout(.externalOnly))
    #expect(refused == .failure(.layout(.externalOnly, .noPanel)))
    #expect(
      refused.failure.map { "\($0)" }
        == "layout 'external-only' is not possible: no built-in panel is connected (eDP*, LVDS*, DSI*, or the one `panel` names)"
    )
  }

  /// The head profile planner knows no largest screen: the daemon refuses a layout beyond the
  /// one the backend states before trying it, so `profile cycle` steps over it.
  @Test func aLayoutBeyondTheLargestScreenIsRefusedUpFrontAndLeftOutOfTheCycle() throws {
    let manager = FakeOutputManager([
      FakeOutputManager.head("eDP-1", at: (0, 0), panel: true), FakeOutputManager.head("HDMI-1", at: (0, 1080)),
    ])
    let small = OutputManagerLayout.Desk(server: "the compositor", maxWidth: 3000, maxHeight: 3000)
    let rules = try config(#"monitors: [{ match: { output: "HDMI-1" }, position: "below main" }]"#)
    let daemon = try Daemon(
      server: PortDisplayServer(manager, desk: small), surfaces: surfaces, painter: CairoPicturePainter(),
      config: rules, log: quiet)
    try daemon.start()
    #expect(daemon.cycleOrder == [.layout(.extendAbove), .layout(.mirror), .layout(.externalOnly), .layout(.mainOnly)])
    let refused = try daemon.switchTo(.layout(.extendRight))
    #expect(
      refused.failure.map { "\($0)" }
        == "layout 'extend-right' is not possible: profile 'extend-right' needs a 3840x1080 screen, "
        + "more than the server's maximum 3000x3000; refused")
    #expect(manager.applied.isEmpty, "nothing tried")
  }
}
