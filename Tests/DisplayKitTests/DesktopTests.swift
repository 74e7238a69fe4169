import DisplayKit
import DisplayModel
import DisplayRender
import DisplaySupport
import DisplayX11
import Testing

/// Who lays the monitors out when a desktop runs its own display manager: detection from the
/// session bus's names and the X server, the policy, and the daemon's behaviour on the fake
/// server (the real programs are in DesktopProgramTests.swift).
@Suite struct DesktopManagerDetection {
  func signals(_ names: Set<String>, outputs: [String] = ["eDP-1"]) -> DesktopSignals {
    var s = DesktopSignals()
    s.busNames = names
    s.outputNames = outputs
    return s
  }

  @Test func eachDesktopIsToldByItsProgramsName() {
    #expect(signals(["org.xfce.SettingsDaemon"]).manager == .xfsettingsd)
    #expect(signals(["org.gnome.Mutter.DisplayConfig"]).manager == .mutter)
    #expect(signals(["org.kde.KScreen"]).manager == .kscreen)
    #expect(signals(["org.cinnamon.SettingsDaemon.XRANDR_2"]).manager == .csdXrandr)
    #expect(signals([]).manager == nil)
  }

  /// xfconfd is started by any xfconf client (xfconf-query too) and changes no display; kded
  /// and mate-settings-daemon run without their display modules as well.
  @Test func aSettingsStoreOrADaemonWithoutItsDisplayModuleIsNoManager() {
    #expect(signals(["org.xfce.Xfconf"]).manager == nil)
    var kded = signals(["org.kde.kded5"])
    kded.kdedModules = ["kded_accounts", "statusnotifierwatcher"]
    #expect(kded.manager == nil)
    kded.kdedModules?.append("kscreen")
    #expect(kded.manager == .kscreen)
    var mate = signals(["org.mate.SettingsDaemon"])
    #expect(mate.manager == nil)
    mate.mateXrandr = true
    #expect(mate.manager == .msdXrandr)
  }

  /// Under a Wayland compositor RandR is read-only, whatever else runs.
  @Test func xwaylandIsToldByItsOutputsOrItsExtension() {
    #expect(signals(["org.xfce.SettingsDaemon"], outputs: ["XWAYLAND0", "XWAYLAND1"]).manager == .xwayland)
    #expect(signals([], outputs: ["XWAYLAND0"]).manager == .xwayland)
    var s = signals([], outputs: ["VNC-0"])
    #expect(s.manager == nil)
    s.xwaylandExtension = true
    #expect(s.manager == .xwayland)
    #expect(
      signals([], outputs: ["HDMI-1", "xwayland"]).manager == nil, "the prefix, in capitals, as Xwayland names them")
  }

  @Test func thePolicyDecidesWhoLaysOut() {
    let auto = DesktopState(manager: .xfsettingsd, policy: .auto)
    #expect(auto.leavesLayout && auto.layoutOwner == "desktop")
    #expect(auto.layoutRefusal?.contains("xfsettingsd (XFCE)") == true)
    #expect(auto.summary.contains("/Notify") && auto.summary.contains("/AutoEnableProfiles"))
    #expect(auto.summary.contains(#"desktop: "manage""#))
    let manage = DesktopState(manager: .xfsettingsd, policy: .manage)
    #expect(!manage.leavesLayout && manage.layoutRefusal == nil && manage.summary.contains("may change it back"))
    let alone = DesktopState(manager: nil, policy: .auto)
    #expect(!alone.leavesLayout && alone.layoutRefusal == nil && alone.layoutOwner == "displayd")
    #expect(DesktopState(manager: .kscreen, policy: .auto).summary.contains("kscreen"))
    #expect(DesktopState(manager: .mutter, policy: .auto).summary.contains("no switch"))
  }

  /// Under Xwayland the session bus names the compositor that owns the layout: mutter by its
  /// DisplayConfig service, KWin by its own name or kscreen's. Off Xwayland those names mean
  /// what they meant (KWin alone is an X11 window manager, no display manager).
  @Test func underXwaylandTheBusNamesTheCompositor() {
    let xwayland = ["XWAYLAND0"]
    #expect(signals(["org.gnome.Mutter.DisplayConfig"], outputs: xwayland).xwaylandCompositor == .mutter)
    #expect(signals(["org.kde.KWin"], outputs: xwayland).xwaylandCompositor == .kwin)
    #expect(signals(["org.kde.KScreen"], outputs: xwayland).xwaylandCompositor == .kwin)
    #expect(signals([], outputs: xwayland).xwaylandCompositor == nil)
    #expect(signals(["org.gnome.Mutter.DisplayConfig"]).xwaylandCompositor == nil, "mutter on X11 is the manager")
    #expect(signals(["org.kde.KWin"]).manager == nil && signals(["org.kde.KWin"]).xwaylandCompositor == nil)
    #expect(DesktopSignals.busNames.contains("org.kde.KWin"), "watched, so the daemon hears it come and go")

    let mutter = DesktopState(signals(["org.gnome.Mutter.DisplayConfig"], outputs: xwayland), policy: .auto)
    #expect(mutter.managerLabel == "xwayland (GNOME's mutter on Wayland)")
    #expect(mutter.desktop == "GNOME's mutter on Wayland")
    #expect(mutter.summary.contains("mutter owns the layout (org.gnome.Mutter.DisplayConfig)"), "\(mutter.summary)")
    let kwin = DesktopState(signals(["org.kde.KWin"], outputs: xwayland), policy: .auto)
    #expect(kwin.summary.contains("xwayland (KDE Plasma's KWin on Wayland) manages displays"), "\(kwin.summary)")
    #expect(kwin.summary.contains("kwin owns the layout (org.kde.KWin)") && kwin.summary.contains("kscreen-doctor"))
    let unknown = DesktopState(signals([], outputs: xwayland), policy: .auto)
    #expect(unknown.managerLabel == "xwayland (a Wayland session)")
  }

  /// `check-config` (the summary), `apply` and every other refused change (the refusal)
  /// give one advice; under Xwayland never `desktop: "manage"`, which Xwayland's read-only
  /// RandR would refuse.
  @Test func theSummaryAndTheRefusalGiveTheSameAdvice() throws {
    let xwayland = ["XWAYLAND0"]
    for names: Set<String> in [["org.gnome.Mutter.DisplayConfig"], ["org.kde.KWin"], []] {
      let state = DesktopState(signals(names, outputs: xwayland), policy: .auto)
      let refusal = try #require(state.layoutRefusal)
      let advice = try #require(refusal.split(separator: #"(desktop: "auto"): "#).last.map(String.init))
      #expect(state.summary.hasSuffix("; " + advice), "\(state.summary)\n\(refusal)")
      #expect(!refusal.contains(#"set desktop: "manage""#) && refusal.contains("read-only"), "\(refusal)")
    }
    for manager in [DesktopManager.xfsettingsd, .mutter, .kscreen, .csdXrandr, .msdXrandr] {
      let state = DesktopState(manager: manager, policy: .auto)
      let refusal = try #require(state.layoutRefusal)
      let advice = try #require(refusal.split(separator: #"(desktop: "auto"): "#).last.map(String.init))
      #expect(state.summary.hasSuffix("; " + advice), "\(state.summary)\n\(refusal)")
      #expect(refusal.contains(#"set desktop: "manage""#), "\(refusal)")
    }
    let manage = DesktopState(signals(["org.gnome.Mutter.DisplayConfig"], outputs: xwayland), policy: .manage)
    #expect(manage.summary.contains("refuses") && !manage.summary.contains("may change it back"), "\(manage.summary)")
  }

  @Test func theConfigKeyIsAutoByDefaultAndCheckedByName() throws {
    #expect(try Config.parse(Array("{}".utf8), file: "c.json5").desktop == .auto)
    #expect(try Config.parse(Array("{ desktop: 'manage' }".utf8), file: "c.json5").desktop == .manage)
    #expect(throws: ConfigError.self) { try Config.parse(Array("{\n desktop: 'never' }".utf8), file: "c.json5") }
    do {
      _ = try Config.parse(Array("{\n desktop: 'never' }".utf8), file: "c.json5")
    } catch {
      #expect("\(error)".contains("c.json5") && "\(error)".contains("desktop") && "\(error)".contains("auto | manage"))
    }
  }
}

@Suite struct DaemonUnderADesktopManager {
  let quiet = Logger(level: .error) { _ in }
  let xfce: DesktopSignals = {
    var s = DesktopSignals()
    s.busNames = ["org.xfce.SettingsDaemon"]
    return s
  }()

  /// eDP-1 lit as main; HDMI-1 dark and disconnected.
  func desk() -> FakeDisplayServer {
    FakeDisplayServer(TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
  }

  /// The desktop's manager plugs HDMI-1 and lights it below eDP-1, as its saved layout says.
  func plugBelow(_ server: FakeDisplayServer) {
    server.change {
      $0.outputs[1].connection = .connected
      $0.outputs[1].crtc = $0.crtcs[1].id
      $0.crtcs[1] = Crtc(
        id: $0.crtcs[1].id, x: 0, y: 1080, width: 1280, height: 1024, mode: TopologyBuilder.m1024.id,
        outputs: [$0.outputs[1].id], possibleOutputs: [$0.outputs[1].id])
      $0.screen.height = 2104
    }
  }

  @Test func underAutoTheDaemonChangesNothingAndItsWindowFollowsTheManagersLayout() throws {
    let surfaces = FakeSurfaceHost()
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.setDesktopSignals(xfce, reconcile: false)
    try daemon.start()
    plugBelow(server)
    try daemon.handleServerEvents()
    #expect(server.applies == 0, "no RandR request at all")
    #expect(surfaces.rects == [Rect(x: 0, y: 1080, width: 1280, height: 1024)])
    #expect(daemon.desktop == DesktopState(manager: .xfsettingsd, policy: .auto))

    // The manager goes: displayd lays the monitor out by its rule (right of main).
    try daemon.setDesktopSignals(DesktopSignals())
    #expect(server.applies > 0)
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1920, height: 1080)])
  }

  @Test func underManageTheDaemonLaysOutAsWithoutADesktop() throws {
    let surfaces = FakeSurfaceHost()
    let server = desk()
    var config = Config()
    config.desktop = .manage
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.setDesktopSignals(xfce, reconcile: false)
    try daemon.start()
    plugBelow(server)
    try daemon.handleServerEvents()
    #expect(server.applies > 0)
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1920, height: 1080)])
  }

  /// Under Xwayland (outputs `XWAYLAND*`) the compositor owns the layout: whatever the
  /// rules say, no RandR request, and the window still follows the monitor.
  @Test func underXwaylandNoRandRRequestIsMadeWithoutAnySessionBus() throws {
    let surfaces = FakeSurfaceHost()
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["XWAYLAND0", "XWAYLAND1"], on: ["XWAYLAND0": TopologyBuilder.m1080]))
    var config = Config()
    config.defaults.mode = .size(width: 1024, height: 768)
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    #expect(daemon.desktop == DesktopState(manager: .xwayland, policy: .auto))
    plugBelow(server)
    try daemon.handleServerEvents()
    #expect(server.applies == 0)
    #expect(surfaces.rects == [Rect(x: 0, y: 1080, width: 1280, height: 1024)])
  }

  /// A matching profile is not brought into force while the desktop has the layout, and a
  /// switch to it is refused (the service refuses before this; the daemon changes nothing either way).
  @Test func noProfileIsAppliedWhileTheDesktopHasTheLayout() throws {
    let server = desk()
    var config = Config()
    config.profiles = try Config.parse(
      Array("{ profiles: [{ name: 'p', outputs: [{ match: { output: 'eDP-1' }, mode: '1024x768' }] }] }".utf8),
      file: "c"
    ).profiles
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.setDesktopSignals(xfce, reconcile: false)
    try daemon.start()
    #expect(server.applies == 0 && daemon.activeProfile.name == nil)
    try daemon.setDesktopSignals(DesktopSignals())
    #expect(server.applies > 0 && daemon.activeProfile.name == "p", "applied once the desktop is gone")
  }
}
