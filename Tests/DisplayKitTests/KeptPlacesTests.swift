import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayWayland

/// A configuration that places one head and keeps the others where they are, against a fake
/// of labwc's output layout (a head is placed by hand only when its asked place differs from
/// the one it has; the others stay in wlroots' automatic layout, right of the placed ones):
/// the kept heads are put back with one more apply, and a compositor that places every head
/// it is told about (sway) gets one apply only.
@Suite struct KeptPlacesTests {
  static func head(_ name: String, x: Int, y: Int = 0, width: Int = 1280, height: Int = 720) -> Head {
    Head(
      name: name, enabled: true, modes: [HeadMode(width: width, height: height, refreshMilliHz: 60_000)],
      currentMode: 0, x: x, y: y)
  }

  @Test func aHeadLabwcsAutomaticLayoutMovedIsPutBackWhereTheConfigurationKeptIt() throws {
    let fake = AutomaticLayoutCompositor(heads: [
      Self.head("WL-1", x: 0), Self.head("HEADLESS-2", x: 1280, width: 1920, height: 1080),
    ])
    let before = try fake.current()
    var below = Self.head("HEADLESS-2", x: 0, y: 720, width: 1920, height: 1080)
    below.currentMode = 0
    let result = try Rollback.apply(
      OutputConfiguration(generation: before.generation, heads: [HeadConfiguration(current: below)]), on: fake)
    #expect(result == .applied)
    #expect(fake.applies == 2, "the configuration, then the kept head's place once more")
    #expect(fake.heads.map { [$0.x, $0.y] } == [[0, 0], [0, 720]])
  }

  @Test func aCompositorThatPlacesEveryHeadGetsOneApply() throws {
    let fake = AutomaticLayoutCompositor(
      heads: [Self.head("HEADLESS-1", x: 0), Self.head("HEADLESS-2", x: 1280, width: 1920, height: 1080)],
      placesEveryHead: true)
    let before = try fake.current()
    let below = Self.head("HEADLESS-2", x: 0, y: 720, width: 1920, height: 1080)
    _ = try Rollback.apply(
      OutputConfiguration(generation: before.generation, heads: [HeadConfiguration(current: below)]), on: fake)
    #expect(fake.applies == 1)
    #expect(fake.heads.map { [$0.x, $0.y] } == [[0, 0], [0, 720]])
  }

  // On a plug the compositor is busy drawing the new head: a roundtrip then costs as much as
  // the apply, and the hook waits for it.
  @Test func theStateHeardBeforeSucceededIsCheckedWithoutAnotherRoundtrip() throws {
    for placesEveryHead in [true, false] {
      let fake = HeardCompositor(
        AutomaticLayoutCompositor(
          heads: [Self.head("WL-1", x: 0), Self.head("HEADLESS-2", x: 1280, width: 1920, height: 1080)],
          placesEveryHead: placesEveryHead))
      let before = try fake.inner.current()
      let below = Self.head("HEADLESS-2", x: 0, y: 720, width: 1920, height: 1080)
      let result = try Rollback.apply(
        OutputConfiguration(generation: before.generation, heads: [HeadConfiguration(current: below)]), on: fake)
      #expect(result == .applied)
      #expect(fake.roundtrips == 0)
      #expect(fake.inner.applies == (placesEveryHead ? 1 : 2))
      #expect(fake.inner.heads.map { [$0.x, $0.y] } == [[0, 0], [0, 720]])
    }
  }

  @Test func headsTurnedOffOrPluggedMeanwhileAreNotMoved() {
    let before = HeadSnapshot(heads: [Self.head("A", x: 0), Self.head("B", x: 1280)], generation: 1)
    var off = Self.head("B", x: 0)
    off.enabled = false
    let after = HeadSnapshot(heads: [Self.head("A", x: 0), off, Self.head("C", x: 5000)], generation: 2)
    let configuration = OutputConfiguration(generation: 1, heads: [.off("B")])
    #expect(KeptPlaces.moved(configuration, before: before, after: after).isEmpty)
    let shifted = HeadSnapshot(heads: [Self.head("A", x: 1920), off], generation: 3)
    #expect(KeptPlaces.moved(configuration, before: before, after: shifted) == ["A"])
  }
}

/// A compositor whose new state comes before its `succeeded` (as sway sends it), so the state
/// last heard is the one after an apply; counts the reads that ask it anew (roundtrips).
final class HeardCompositor: ConfigurationChannel {
  let inner: AutomaticLayoutCompositor
  var roundtrips = 0

  init(_ inner: AutomaticLayoutCompositor) { self.inner = inner }

  func current() throws(DisplayError) -> HeadSnapshot {
    roundtrips += 1
    return try inner.current()
  }

  func known() throws(DisplayError) -> HeadSnapshot { try inner.current() }

  func send(_ configuration: OutputConfiguration, test: Bool) throws(DisplayError) -> ApplyResult {
    try inner.send(configuration, test: test)
  }
}

/// Heads in a wlroots output layout as labwc keeps it: a head asked to a place other than its
/// own is placed there by hand; every other lit head is laid out automatically, left to right
/// after the rightmost head placed by hand, at its top (`placesEveryHead`: as sway, every head
/// told about is placed by hand and no head moves by itself).
final class AutomaticLayoutCompositor: ConfigurationChannel {
  var heads: [Head]
  var serial: UInt64 = 1
  var applies = 0
  private var byHand: Set<String> = []
  private let placesEveryHead: Bool

  init(heads: [Head], placesEveryHead: Bool = false) {
    self.heads = heads
    self.placesEveryHead = placesEveryHead
  }

  func current() throws(DisplayError) -> HeadSnapshot { HeadSnapshot(heads: heads, generation: serial) }

  func send(_ configuration: OutputConfiguration, test: Bool) throws(DisplayError) -> ApplyResult {
    guard configuration.generation == serial else { return .stale }
    guard !test else { return .applied }
    applies += 1
    for wanted in configuration.heads {
      guard let i = heads.firstIndex(where: { $0.name == wanted.name }) else { continue }
      heads[i].enabled = wanted.enabled
      if wanted.enabled && (placesEveryHead || (heads[i].x, heads[i].y) != (wanted.x, wanted.y)) {
        (heads[i].x, heads[i].y) = (wanted.x, wanted.y)
        byHand.insert(wanted.name)
      }
    }
    layOut()
    serial += 1
    return .applied
  }

  private func layOut() {
    guard !placesEveryHead else { return }
    let placed = heads.filter { $0.enabled && byHand.contains($0.name) }
    let rightmost = placed.max { $0.x + width($0) < $1.x + width($1) }
    var x = rightmost.map { $0.x + width($0) } ?? 0
    let y = rightmost?.y ?? 0
    for i in heads.indices where heads[i].enabled && !byHand.contains(heads[i].name) {
      (heads[i].x, heads[i].y) = (x, y)
      x += width(heads[i])
    }
  }

  private func width(_ head: Head) -> Int { head.currentMode.map { head.modes[$0].width } ?? 0 }
}
