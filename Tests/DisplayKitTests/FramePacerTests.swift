import DisplayX11
import Testing

/// The mirror's frame pacing, with values: the X surfaces draw when `request` says now, and
/// otherwise the daemon's loop arms a timer for `due`.
@Suite struct FramePacerTests {
  /// The set-up composite of a 1920x1080 mirror at 60 Hz, at 1 s on the clock.
  func pacer(hz: Double = 60) -> FramePacer {
    var pacer = FramePacer()
    pacer.interval = FramePacer.interval(refreshHz: [hz])
    pacer.lastFrame = 1_000_000_000
    return pacer
  }

  @Test func mirrorFramesArePacedToTheMonitorsFrameInterval() {
    var pacer = pacer()
    let start: UInt64 = 1_000_000_000
    let frame: UInt64 = 16_666_666  // 60 Hz
    #expect(pacer.interval == frame && pacer.due == nil, "a still mirror: nothing waits")
    // Damage 1 ms after that composite waits for the frame.
    let drawn1 = pacer.request(at: start + 1_000_000)
    #expect(!drawn1 && pacer.due == start + frame)
    // More damage within the frame joins it.
    let drawn2 = pacer.request(at: start + 6_000_000)
    #expect(!drawn2 && pacer.due == start + frame)
    // The frame is drawn when due; nothing waits after it.
    pacer.lastFrame = start + frame
    pacer.settle()
    #expect(pacer.due == nil)
    // Damage a whole frame after the last one is drawn at once.
    let drawn3 = pacer.request(at: start + 2 * frame)
    #expect(drawn3 && pacer.due == nil)
  }

  @Test func aModeClaimingGigahertzRefreshStillSpacesFramesAMillisecondApart() {
    // 4e9 Hz: a 0 ns frame interval would composite on every damage event.
    var pacer = pacer(hz: 4e9)
    #expect(pacer.interval == 1_000_000)
    let drawn4 = pacer.request(at: 1_000_500_000)
    #expect(!drawn4, "0.5 ms after a frame: waits")
    #expect(pacer.due == 1_001_000_000, "drawn 1 ms after the last frame")
  }

  @Test func theFastestMirroringMonitorSetsThePaceAndNonsenseRatesCountAs60Hz() {
    #expect(FramePacer.interval(refreshHz: [60, 144, 30]) == UInt64(1e9 / 144))
    #expect(FramePacer.interval(refreshHz: []) == 16_666_666)
    #expect(FramePacer.interval(refreshHz: [0, -5, .nan, .infinity, 1]) == 16_666_666)
  }

  @Test func theLastMirrorGoingLeavesNothingWaiting() {
    var pacer = pacer()
    pacer.damagePending = true
    pacer.cursorPending = true
    _ = pacer.request(at: 1_000_000_001)
    pacer.reset()
    #expect(!pacer.damagePending && !pacer.cursorPending && pacer.due == nil)
  }

  @Test func aClockNearItsEndNeverOverflowsTheDeadline() {
    var pacer = FramePacer()
    pacer.lastFrame = .max - 10
    let drawn5 = pacer.request(at: .max - 5)
    #expect(!drawn5 && pacer.due == .max)
  }
}
