import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayService
import DisplaySupport
import Foundation
import Testing

@testable import DisplayWayland
@testable import DisplayX11

/// Numbers a server or a compositor hands over that no monitor has: each one taken through
/// the head builders (RandR's from a topology, wlroots' from the events' values), then into
/// what `outputs`, `outputs --json` and the profile planner make of it. A compositor will not
/// send these on demand; the builders are fed the values its events would carry.
@Suite struct OddServerValueTests {
  /// A wlroots head as a compositor's events describe it: DP-1, 600 mm x 340 mm, lit in its
  /// first mode (the preferred one), with modes of these sizes and rates, after `events`.
  static func waylandHead(
    modes: [(width: Int32, height: Int32, milliHz: Int32)] = [(1920, 1080, 60000)],
    _ events: (HeadState) -> Void = { _ in }
  ) -> Head {
    let state = HeadState(OpaquePointer(bitPattern: 0x1000)!, instance: 1)
    state.name = "DP-1"
    state.enabled = true
    state.take(physicalWidth: 600, height: 340)
    for (i, size) in modes.enumerated() {
      let mode = ModeState(OpaquePointer(bitPattern: 0x2000 + i * 16)!)
      mode.take(width: size.width, height: size.height)
      mode.take(refresh: size.milliHz)
      mode.preferred = i == 0
      state.modes.append(mode)
    }
    state.currentMode = state.modes.first?.proxy
    events(state)
    return state.head
  }

  /// What `outputs` and `outputs --json` print for a compositor's heads.
  static func waylandReports(_ head: Head) -> (text: String, json: String) {
    let snapshot = HeadSnapshot(heads: [head], generation: 1)
    return (HeadReport.outputsText(snapshot, server: "wayland-1"), HeadReport.compositorOutputsJSON(snapshot).serialized())
  }

  /// An X server's DP-1, connected and lit at 1920x1080 (as `TopologyBuilder` makes it), with
  /// `change` made to its topology, as the RandR backend reads it.
  static func randrSnapshot(_ change: (inout Topology) -> Void = { _ in }) throws -> HeadSnapshot {
    var t = TopologyBuilder.topology(["DP-1"], on: ["DP-1": TopologyBuilder.m1080])
    t.outputs[0].mmWidth = 600
    t.outputs[0].mmHeight = 340
    change(&t)
    return try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
  }

  static func randrReports(_ snapshot: HeadSnapshot) -> (text: String, json: String) {
    (HeadReport.outputsText(snapshot), HeadReport.outputsJSON(snapshot).serialized())
  }

  /// The line of DP-1 in a text report.
  static func line(_ text: String) -> String {
    text.split(separator: "\n").first { $0.hasPrefix("DP-1 ") }.map(String.init) ?? ""
  }

  // MARK: Physical size

  /// KWin sends -1 for its virtual outputs' size (an X client reads it through Xwayland as
  /// the unsigned 4294967295); many outputs send 0; nothing on a desk is over 10 m wide.
  @Test(arguments: [
    (Int32(-1), Int32(-1)), (Int32(0), Int32(0)), (Int32(10_001), Int32(300)), (Int32(600), Int32(0)),
    (Int32.max, Int32.max), (Int32.min, Int32(340)),
  ])
  func aCompositorsSizeThatNoMonitorHasIsUnknownInTextAndJSON(width: Int32, height: Int32) {
    let head = Self.waylandHead { $0.take(physicalWidth: width, height: height) }
    #expect(head.physicalSize == nil)
    let (text, json) = Self.waylandReports(head)
    #expect(Self.line(text).contains(" 0mm x 0mm"), "\(text)")
    #expect(json.contains(#""mm":null"#), "\(json)")
  }

  @Test(arguments: [(4_294_967_295, 4_294_967_295), (0, 0), (10_001, 10_001), (600, 0), (65_535, 340)])
  func anXServersSizeThatNoMonitorHasIsUnknownInTextAndJSON(width: Int, height: Int) throws {
    let heads = try Self.randrSnapshot { ($0.outputs[0].mmWidth, $0.outputs[0].mmHeight) = (width, height) }
    #expect(heads.heads.first?.physicalSize == nil)
    let (text, json) = Self.randrReports(heads)
    #expect(Self.line(text).contains(" 0mm x 0mm"), "\(text)")
    #expect(json.contains(#""mm":null"#), "\(json)")
  }

  /// From 1 mm to 10 m the size is the server's, on the wire as before.
  @Test(arguments: [(1, 1), (600, 340), (10_000, 10_000)])
  func aPlausibleSizeIsPrintedAsTheServerSaidIt(width: Int, height: Int) throws {
    let heads = try Self.randrSnapshot { ($0.outputs[0].mmWidth, $0.outputs[0].mmHeight) = (width, height) }
    #expect(heads.heads.first?.physicalSize == PhysicalSize(width: width, height: height))
    let (text, json) = Self.randrReports(heads)
    #expect(Self.line(text).contains(" \(width)mm x \(height)mm"), "\(text)")
    #expect(json.contains(#""mm":{"width":\#(width),"height":\#(height)}"#), "\(json)")
    let wayland = Self.waylandHead { $0.take(physicalWidth: Int32(width), height: Int32(height)) }
    #expect(Self.waylandReports(wayland).json.contains(#""mm":{"width":\#(width),"height":\#(height)}"#))
  }

  /// `dpi: "auto"` measures the monitor; one of unknown size falls back as one without a
  /// size: its EDID's size, else a warning and the DPI left as it is.
  @Test(arguments: [Int32(-1), Int32(0), Int32(20_000)])
  func dpiAutoOnAMonitorOfUnknownSizeFallsBackAsOnOneWithout(side: Int32) throws {
    let odd = Self.waylandHead { $0.take(physicalWidth: side, height: side) }
    let plan = try Self.dpiPlan(odd)
    #expect(plan.warnings == [.dpiWithoutSize(profile: "p")])
    #expect(plan.configuration.physicalSize == nil && plan.dpi == nil)
    // The EDID's 60 cm x 34 cm, as for a head that reports no size.
    var withEDID = odd
    withEDID.edid = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/asus_aus27d1_0d64f5ca0b43.bin")))
    let measured = try Self.dpiPlan(withEDID)
    #expect(measured.warnings.isEmpty, "\(measured.warnings)")
    let dpi = try #require(measured.dpi)
    #expect(abs(dpi - 1080 * 25.4 / 340) < 1, "\(dpi)")
  }

  static func dpiPlan(_ head: Head) throws -> ProfilePlan {
    let snapshot = HeadSnapshot(heads: [head], primary: "DP-1", generation: 1)
    let c = try Config.parse(
      Array("{profiles: [{name: 'p', dpi: 'auto', outputs: [{match: {output: 'DP-1'}}]}]}".utf8), file: "config.json5")
    let profile = try #require(c.profiles.first)
    let assignment = try ProfileMatcher.match(profile, snapshot: snapshot, lid: .open).get()
    return try ProfilePlanner(snapshot: snapshot, config: c, lid: .open).plan(profile, assignment: assignment)
  }

  // MARK: Refresh

  /// A compositor's refresh of 0 (none said) or below: 0 Hz in every report, never a
  /// division by zero, an infinity or a NaN.
  @Test(arguments: [Int32(0), Int32(-1), Int32.min])
  func aCompositorsRefreshOfZeroOrBelowIsZeroHertz(milliHz: Int32) {
    let head = Self.waylandHead(modes: [(1920, 1080, milliHz)])
    #expect(head.modes.map(\.refreshMilliHz) == [0])
    let (text, json) = Self.waylandReports(head)
    let modes = HeadReport.compositorModesText([head], HeadSnapshot(heads: [head]))
    #expect(Self.line(text).contains(" 1920x1080@0.00 "), "\(text)")
    #expect(json.contains(#""refresh_hz":0.0"#), "\(json)")
    #expect(modes.contains("1920x1080") && modes.contains(" 0.00*+"), "\(modes)")
    for report in [text, json, modes] { #expect(!report.contains("inf") && !report.contains("nan"), "\(report)") }
  }

  /// An X mode whose totals or dot clock are 0: its refresh is 0 Hz, as xrandr computes it.
  @Test(arguments: [(0, 1125, UInt64(148_500_000)), (2200, 0, 148_500_000), (2200, 1125, 0), (0, 0, 0)])
  func anXModeWithoutTotalsOrClockIsZeroHertz(hTotal: Int, vTotal: Int, dotClock: UInt64) throws {
    let heads = try Self.randrSnapshot { t in
      var mode = TopologyBuilder.m1080
      (mode.hTotal, mode.vTotal, mode.dotClock) = (hTotal, vTotal, dotClock)
      t.modes[mode.id] = mode
    }
    let head = try #require(heads.heads.first)
    #expect(head.mode?.refreshMilliHz == 0)
    let (text, json) = Self.randrReports(heads)
    let modes = HeadReport.modesText(heads.heads, in: heads)
    #expect(Self.line(text).contains(" 1920x1080@0.00 "), "\(text)")
    #expect(json.contains(#""refresh_hz":0.0"#), "\(json)")
    for report in [text, json, modes] { #expect(!report.contains("inf") && !report.contains("nan"), "\(report)") }
  }

  // MARK: Sizes

  /// A mode of no size (Debian 12's sway lists one `0x0` mode for a headless output): listed
  /// and shown as it is, an empty area, and the screen no larger for it.
  @Test(arguments: [(Int32(0), Int32(0)), (Int32(-1), Int32(768)), (Int32.min, Int32.min)])
  func aCompositorsModeOfNoSizeIsAnEmptyArea(width: Int32, height: Int32) throws {
    let head = Self.waylandHead(modes: [(width, height, 60000)])
    #expect(head.modes.map { [$0.width, $0.height] } == [[max(0, Int(width)), max(0, Int(height))]])
    let (text, json) = Self.waylandReports(head)
    let size = "\(max(0, width))x\(max(0, height))"
    #expect(text.hasPrefix("Screen: \(size) "), "\(text)")
    #expect(Self.line(text).contains(" \(size)+0+0 \(size)@"), "\(text)")
    #expect(json.contains(#""width":\#(max(0, width)),"height":\#(max(0, height))"#), "\(json)")
  }

  // MARK: Positions

  /// wlroots' positions are int32: a head far out is reported where the compositor has it,
  /// and a configuration that would place another head beyond int32 is refused with the
  /// reason, not sent.
  @Test func aCompositorsPositionBeyondSixteenBitsIsReportedAndOneBeyondInt32IsRefused() throws {
    let far = Self.waylandHead { $0.take(x: Int32.max - 1000, y: Int32.min) }
    #expect((far.x, far.y) == (Int(Int32.max) - 1000, Int(Int32.min)))
    let (text, json) = Self.waylandReports(far)
    #expect(Self.line(text).contains(" 1920x1080+\(Int32.max - 1000)+\(Int32.min) "), "\(text)")
    #expect(json.contains(#""crtc":{"x":\#(Int32.max - 1000),"y":\#(Int32.min),"width":1920,"height":1080}"#))
    // The lit heads' bounds: as wide as the head reaches, none of it below the origin.
    #expect(text.hasPrefix("Screen: \(Int(Int32.max) - 1000 + 1920)x0 "), "\(text)")
    let beside = HeadConfiguration(name: "DP-1", enabled: true, x: far.x + 1920, y: 0)
    guard case .failure(let refusal) = ConfigurationPlan.plan(beside, for: far) else {
      Issue.record("a position beyond int32 was planned")
      return
    }
    #expect(refusal.reason.contains("out of range"), "\(refusal.reason)")
  }

  /// X's coordinates are 16-bit: a CRTC at the far corners is reported there, and a
  /// configuration beyond them is refused before anything is sent.
  @Test func anXPositionAtTheSixteenBitLimitsIsReportedAndOneBeyondThemRefused() throws {
    let heads = try Self.randrSnapshot { t in (t.crtcs[0].x, t.crtcs[0].y) = (Int(Int16.min), Int(Int16.max)) }
    let (text, json) = Self.randrReports(heads)
    #expect(Self.line(text).contains(" 1920x1080+-32768+32767 "), "\(text)")
    #expect(json.contains(#""crtc":{"x":-32768,"y":32767,"width":1920,"height":1080}"#), "\(json)")
    let server = FakeRandRServer(TopologyBuilder.topology(["DP-1"], on: ["DP-1": TopologyBuilder.m1080]))
    let manager = RandROutputManager(server: server)
    let snapshot = try manager.heads(probe: false)
    let configuration = OutputConfiguration(
      generation: snapshot.generation, heads: [HeadConfiguration(name: "DP-1", enabled: true, x: 40_000, y: 0)])
    guard case .refused(let refusal) = try manager.test(configuration) else {
      Issue.record("a position beyond 16 bits passed the test")
      return
    }
    #expect(refusal.reason.contains("outside X's screen"), "\(refusal.reason)")
    #expect(server.sent.isEmpty)
  }

  // MARK: Scales

  /// A wl_fixed scale of 0 or below has no meaning: the head is read at scale 1. (A wl_fixed
  /// cannot be NaN; the smallest positive one, 1/256, is the largest area.)
  @Test(arguments: [Int32(0), Int32(-256), Int32.min])
  func aCompositorsScaleOfZeroOrBelowIsReadAsOne(fixed: Int32) {
    let head = Self.waylandHead { $0.take(scale: fixed) }
    #expect(head.scale == 1)
    #expect(head.rect == Rect(x: 0, y: 0, width: 1920, height: 1080))
    let (text, json) = Self.waylandReports(head)
    #expect(!Self.line(text).contains(" scale "), "\(text)")
    #expect(json.contains(#""scale":1.0"#), "\(json)")
  }

  @Test func theSmallestCompositorScaleIsTheLargestArea() {
    let head = Self.waylandHead { $0.take(scale: 1) }
    #expect(head.scale == 256)
    #expect(head.rect == Rect(x: 0, y: 0, width: 1920 * 256, height: 1080 * 256))
  }

  /// A head whose scale is not positive and finite (none a builder makes, but a head is a
  /// value anyone can make) is at scale 1, as the builders read such a scale.
  @Test(arguments: [Double.nan, 0, -2, Double.infinity])
  func aHeadMadeWithAScaleThatIsNotPositiveAndFiniteIsAtScaleOne(scale: Double) {
    let head = Head(
      name: "DP-1", mmWidth: 600, mmHeight: 340, enabled: true,
      modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)], currentMode: 0,
      scale: scale, scaledArea: .logical)
    #expect(head.scale == 1 && head.rect == Rect(x: 0, y: 0, width: 1920, height: 1080))
    let (text, json) = Self.waylandReports(head)
    #expect(!text.contains("nan") && !text.contains("inf") && json.contains(#""scale":1.0"#), "\(text)\n\(json)")
  }

  /// An X CRTC transform that is no uniform positive scale is read as scale 1.
  @Test(arguments: [[0.0, 0, 0, 0, 0, 0, 0, 0, 1], [-2.0, 0, 0, 0, -2, 0, 0, 0, 1], [1.5, 0, 0, 0, 2, 0, 0, 0, 1]])
  func anXTransformThatIsNoPositiveUniformScaleIsScaleOne(matrix: [Double]) throws {
    let heads = try Self.randrSnapshot { t in t.crtcs[0].transform = CrtcTransform(matrix: matrix, filter: .bilinear) }
    #expect(heads.heads.first?.scale == 1)
    #expect(heads.heads.first?.rect == Rect(x: 0, y: 0, width: 1920, height: 1080))
  }

  // MARK: Transforms

  /// A wl_output transform outside its eight values is read as none.
  @Test(arguments: [Int32(8), Int32(-1), Int32.max, Int32.min])
  func aCompositorsTransformOutsideItsEightIsNormal(value: Int32) {
    let head = Self.waylandHead { $0.take(transform: value) }
    #expect(head.transform == .normal)
    #expect(Self.waylandReports(head).json.contains(#""transform":"normal""#))
  }

  /// RandR's rotation is a bit set: none of the four turns set reads as normal, several as
  /// the first of them, and the report says one of xrandr's words over the area it turns.
  @Test(arguments: [(UInt16(0), "normal"), (0xFFFF, "left"), (0x30, "normal")])
  func anXRotationOfNoneOrSeveralTurnsIsOneOfXrandrsWords(bits: UInt16, word: String) throws {
    let heads = try Self.randrSnapshot { t in t.crtcs[0].rotation = Rotation(rawValue: bits) }
    let head = try #require(heads.heads.first)
    let line = Self.line(Self.randrReports(heads).text)
    let area = head.transform.swapsAxes ? "1080x1920" : "1920x1080"
    let shown = word == "normal" ? "" : word + " "
    #expect(line.hasPrefix("DP-1 connected main \(area)+0+0 \(shown)1920x1080@60.00 "), "\(line)")
  }

  // MARK: Mode counts

  /// RandR's mode counts are 16-bit (any client may make modes and add them to an output):
  /// an output listing tens of thousands of modes is listed whole by `modes`, text and JSON,
  /// within the minute (a search of every mode for each took minutes), and the snapshot the
  /// daemon plans over keeps 1024 of them, the current and preferred ones first.
  @Test(.timeLimit(.minutes(1)))
  func anXOutputWithTensOfThousandsOfModesIsListedAndBoundedForPlanning() throws {
    let count = 20_000
    let heads = try Self.randrSnapshot { t in
      let made = (0..<count).map { i in
        Mode(
          id: ModeID(rawValue: UInt(1000 + i)), name: "m\(i)", width: 640 + i % 1000, height: 480, dotClock: 25_175_000,
          hTotal: 800, vTotal: 525)
      }
      for mode in made { t.modes[mode.id] = mode }
      t.outputs[0].modes += made.map(\.id)
    }
    let head = try #require(heads.heads.first)
    #expect(head.modes.count == count + 3 && head.currentMode == 0)
    let modes = HeadReport.modesText(heads.heads, in: heads)
    #expect(modes.split(separator: "\n").count == 1 + count + 3)
    let json = HeadReport.modesJSON(heads.heads).serialized()
    #expect(json.components(separatedBy: #""preferred":true"#).count == 2, "one preferred mode")
    let (bounded, warnings) = heads.bounded()
    let kept = try #require(bounded.heads.first)
    #expect(kept.modes.count == HeadSnapshot.maxModes && kept.mode == head.mode && kept.modes[0].preferred)
    #expect(warnings == ["DP-1 lists \(count + 3) modes: only \(HeadSnapshot.maxModes) are used"])
  }

  // MARK: The daemon over all of them

  /// A compositor listing every odd value at once: the daemon reads, plans (a rule, a
  /// profile with `dpi: "auto"`) and reports without a trap, and `status` says what it manages.
  @Test func theDaemonRunsOverACompositorOfOddValues() throws {
    var odd = Self.waylandHead(modes: [(0, 0, 0), (1920, 1080, 0), (1280, 1024, Int32.min)]) {
      $0.take(physicalWidth: -1, height: -1)
      $0.take(x: Int32.max - 1000, y: 0)
      $0.take(scale: 0)
      $0.take(transform: 99)
    }
    odd.name = "HDMI-1"
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)])
    let server = PortDisplayServer(manager)
    let config = try Config.parse(
      Array(
        """
        { disconnect_grace: 0, monitors: [{ match: { output: 'HDMI-1' }, position: 'right-of main' }],
          profiles: [{ name: 'odd', dpi: 'auto', outputs: [{ match: { output: 'eDP-1' } }, { match: { output: 'HDMI-1' } }] }] }
        """.utf8), file: "config.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config,
      log: Logger(level: .error) { _ in })
    try daemon.start()
    manager.plug(odd)
    try daemon.handleServerEvents()
    try daemon.handleServerEvents()
    let heads = daemon.heads
    let reports = [
      HeadReport.outputsText(heads, server: "fake"), HeadReport.compositorOutputsJSON(heads).serialized(),
      HeadReport.compositorModesText(heads.heads, heads), daemon.statusJSON(configPath: nil, configError: nil).serialized(),
    ]
    for report in reports {
      for impossible in ["4294967295", "-1mm", "inf", "nan"] {
        #expect(!report.contains(impossible), "\(impossible) in \(report)")
      }
    }
    #expect(reports[0].contains("HDMI-1 connected") && reports[1].contains(#""mm":null"#), "\(reports[0])")
  }
}
