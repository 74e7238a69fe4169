import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

@testable import DisplayKit

/// The layout part alone, on the fake output manager: what it decides, and what it asks of
/// the rest of the daemon through its hooks.
@Suite struct DeskLayoutAlone {
  let quiet = Logger(level: .error) { _ in }

  func layout(_ manager: FakeOutputManager, _ config: Config = Config()) throws -> DeskLayout {
    let server = PortDisplayServer(manager)
    return try DeskLayout(changeSource: server, layoutServer: server.layout, config: config, log: quiet)
  }

  @Test func aPluggedMonitorIsLitSettledAndWantsASurface() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    let layout = try layout(manager)
    _ = try layout.arrange(reason: "start-up")
    manager.plug(FakeOutputManager.head("HDMI-1"))
    let events = try #require(try layout.serverChanged(count: 1))
    #expect(events.contains { $0.kind == .connected && $0.head.name == "HDMI-1" })
    #expect(layout.heads.head(named: "HDMI-1")?.rect != nil, "lit by the rules")
    #expect(layout.settled["HDMI-1"] != nil && layout.litByDaemon.contains("HDMI-1"))
    #expect(layout.wantedWindows.map(\.head) == ["HDMI-1"], "a surface on the external monitor, none on main")
    #expect(try layout.serverChanged(count: 1) == nil, "its own apply's events change nothing")
  }

  @Test func aDesktopThatHasTheLayoutLeavesItAsItIs() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    manager.plug(FakeOutputManager.head("HDMI-1"))
    let layout = try layout(manager)
    var (asked, arranged, dpi) = (0, 0, [Profile?]())
    layout.hooks.desktopManager = {
      asked += 1
      return .mutter
    }
    layout.hooks.arranged = { arranged += 1 }
    layout.hooks.profileInForce = { profile, _ in dpi.append(profile) }
    let applied = manager.applied.count
    _ = try layout.arrange(reason: "start-up")
    #expect(manager.applied.count == applied, "nothing applied while the desktop has the layout")
    #expect(asked == 1 && arranged == 1 && dpi.count == 1 && dpi[0] == nil)
  }

  @Test func aMatchingProfileIsAppliedAndToldToTheHooks() throws {
    let config = try Config.parse(
      Array(
        """
        { profiles: [ { name: "two", outputs: [
            { match: { output: "eDP-1" }, position: "0,0" },
            { match: { output: "HDMI-1" }, position: "1920,0" } ] } ] }
        """.utf8), file: "config.json5")
    let manager = FakeOutputManager([
      FakeOutputManager.head("eDP-1", at: (0, 0), panel: true), FakeOutputManager.head("HDMI-1"),
    ])
    let layout = try layout(manager, config)
    var (applied, inForce) = ([String](), [String?]())
    layout.hooks.profileApplied = { applied.append($0.name) }
    layout.hooks.profileInForce = { profile, _ in inForce.append(profile?.name) }
    _ = try layout.arrange(reason: "start-up")
    #expect(applied == ["two"] && inForce == ["two"])
    #expect(layout.activeProfile == ActiveProfile(name: "two", reason: .matched))
    #expect(layout.heads.head(named: "HDMI-1")?.rect?.x == 1920)
  }

  @Test func aDisconnectWaitsForItsGraceAndAnotherMonitorBackSwapsTheSurface() throws {
    let config = try Config.parse(Array("{ disconnect_grace: 5 }".utf8), file: "config.json5")
    let manager = FakeOutputManager([
      FakeOutputManager.head("eDP-1", at: (0, 0), panel: true), FakeOutputManager.head("HDMI-1", edid: [1]),
    ])
    let layout = try layout(manager, config)
    var swapped: [String] = []
    layout.hooks.monitorSwapped = { swapped.append($0) }
    _ = try layout.arrange(reason: "start-up")
    manager.unplug("HDMI-1")
    let gone = try #require(try layout.serverChanged(count: 1))
    #expect(gone.map(\.kind) == [.disconnectPending] && layout.pendingDisconnects == ["HDMI-1"])
    #expect(layout.heads.head(named: "HDMI-1")?.connected == true, "held connected for the grace")
    manager.plug(FakeOutputManager.head("HDMI-1", edid: [2]))
    _ = try layout.serverChanged(count: 1)
    #expect(swapped == ["HDMI-1"] && layout.pendingDisconnects.isEmpty)
  }
}

/// The surface part alone, on the fake surface host: told the windows wanted, it opens,
/// keeps, moves and releases surfaces.
@Suite struct DeskSurfacesAlone {
  let quiet = Logger(level: .error) { _ in }
  static let heads = HeadSnapshot(heads: [
    FakeOutputManager.head("eDP-1", at: (0, 0), panel: true), FakeOutputManager.head("HDMI-1", at: (1920, 0)),
  ])

  func wanted(_ snapshot: HeadSnapshot = Self.heads) -> [WindowWanted] {
    Config().wantedWindows(in: snapshot, main: snapshot.head(named: "eDP-1"))
  }

  @Test func theWindowsWantedAreOpenedDrawnOnceAndReleased() {
    let host = FakeSurfaceHost()
    let surfaces = DeskSurfaces(host: host, painter: CairoPicturePainter(), config: Config(), log: quiet)
    surfaces.sync(wanted(), pending: [], onXwayland: false)
    #expect(surfaces.monitors.keys.sorted() == ["HDMI-1"] && host.surfaces.count == 1)
    #expect(surfaces.counters.windowsCreated == 1 && surfaces.counters.redraws == 1)
    surfaces.sync(wanted(), pending: [], onXwayland: false)
    #expect(surfaces.counters.redraws == 1, "an unchanged picture is not drawn again")
    #expect(surfaces.summary == "1 external monitor: HDMI-1 placeholder")
    surfaces.sync([], pending: [], onXwayland: false)
    #expect(surfaces.monitors.isEmpty && host.surfaces.isEmpty && host.misuses == 0)
  }

  @Test func aPendingMonitorKeepsItsSurfaceAndXwaylandMakesOverlays() {
    let host = FakeSurfaceHost()
    let surfaces = DeskSurfaces(host: host, painter: nil, config: Config(), log: quiet)
    surfaces.sync(wanted(), pending: [], onXwayland: true)
    #expect(surfaces.monitors["HDMI-1"]?.level == .overlay)
    surfaces.sync([], pending: ["HDMI-1"], onXwayland: true)
    #expect(surfaces.monitors["HDMI-1"] != nil, "kept while its disconnect waits")
    surfaces.drop("HDMI-1")
    #expect(surfaces.monitors.isEmpty && host.surfaces.isEmpty)
  }

  @Test func aSurfaceClosedFromOutsideIsMadeAgainAndOthersArePassedOn() throws {
    let host = FakeSurfaceHost()
    let surfaces = DeskSurfaces(host: host, painter: nil, config: Config(), log: quiet)
    surfaces.sync(wanted(), pending: [], onXwayland: false)
    let surface = try #require(surfaces.monitors["HDMI-1"]?.surface)
    host.closeFromOutside(surface)
    host.pending.append(.headGone(SurfaceID(rawValue: 7)))
    var others: [SurfaceEvent] = []
    #expect(surfaces.takeEvents(wanted: { wanted() }, other: { others.append($0) }))
    #expect(surfaces.monitors.isEmpty && others.count == 1)
    surfaces.sync(wanted(), pending: [], onXwayland: false)
    #expect(surfaces.monitors["HDMI-1"] != nil && surfaces.counters.windowsCreated == 2)
  }
}

/// The desk-settings part alone, on a resource database in memory.
@Suite struct DeskSettingsAlone {
  let quiet = Logger(level: .error) { _ in }

  final class Resources: DesktopResources {
    var database: [UInt8] = []
    func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool {
      if let new = edit(database) { database = new }
      return true
    }
    func xsettingsOwner() -> XSettingsOwner? { nil }
    var text: String { String(decoding: database, as: UTF8.self) }
  }

  @Test func xftDPIFollowsTheProfileInForceAndIsPutBack() {
    let resources = Resources()
    resources.database = Array("Xft.dpi:\t96\n".utf8)
    let settings = DeskSettings(facilities: DisplayFacilities(resources: resources), config: Config(), log: quiet)
    var profile = Profile(name: "desk")
    profile.dpi = .fixed(144)
    settings.followXftDPI(profile, planned: 144)
    #expect(resources.text == "Xft.dpi:\t144\n" && settings.xft.dpi == 144)
    settings.followXftDPI(nil, planned: nil)
    #expect(resources.text == "Xft.dpi:\t96\n" && settings.xft.dpi == nil)
  }

  @Test func theDesktopManagerIsToldFromTheBusAndTheHeads() {
    var config = Config()
    config.desktop = .auto
    let settings = DeskSettings(facilities: DisplayFacilities(), config: config, log: quiet)
    let heads = HeadSnapshot(heads: [FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    #expect(settings.noteDesktop(heads) == nil)
    var bus = DesktopSignals()
    bus.busNames = ["org.gnome.Mutter.DisplayConfig"]
    settings.take(bus)
    #expect(settings.desktop(heads).manager == .mutter)
    #expect(settings.noteDesktop(heads) == .mutter, "the manager has the layout under `auto`")
  }
}
