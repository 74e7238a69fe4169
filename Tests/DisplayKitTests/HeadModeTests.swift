import DisplayModel
import Testing

/// A head mode keeps what the server says of it beside the values the daemon plans with;
/// equality and hashing see every value, however the mode was made.
@Suite struct HeadModeTests {
  static let facts = ServerModeFacts(
    serverID: 0x4a, name: "1920x1080", dotClockHz: 148_500_000, doubleScan: false, timedRefreshHz: 60.0,
    timings: ModeLine(dotClock: 148_500_000, h: (1920, 2008, 2052, 2200), v: (1080, 1084, 1089, 1125), flags: []))

  @Test func aModeMadeWithItsFactsEqualsOneGivenThemOneByOne() {
    let made = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, preferred: true, server: Self.facts)
    var set = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, preferred: true)
    set.serverID = 0x4a
    set.name = "1920x1080"
    set.dotClockHz = 148_500_000
    set.timedRefreshHz = 60.0
    set.timings = Self.facts.timings
    #expect(made == set)
    #expect(made.hashValue == set.hashValue)
    #expect(Set([made, set]).count == 1)
  }

  @Test func factsSetBackToNothingEqualAModeThatNeverHadAny() {
    let plain = HeadMode(width: 1280, height: 1024, refreshMilliHz: 60_020)
    var cleared = HeadMode(width: 1280, height: 1024, refreshMilliHz: 60_020, server: Self.facts)
    #expect(cleared != plain)
    cleared.serverFacts = ServerModeFacts()
    #expect(cleared == plain && cleared.hashValue == plain.hashValue)
    var one = plain
    one.name = "1280x1024"
    one.name = nil
    #expect(one == plain && one.serverFacts.isEmpty)
  }

  @Test func changingACopysFactsLeavesTheOriginalAsItWas() {
    let original = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, server: Self.facts)
    var copy = original
    copy.name = "displayd-1920x1080"
    copy.doubleScan = true
    #expect(original.name == "1920x1080" && !original.doubleScan)
    #expect(copy.name == "displayd-1920x1080" && copy.doubleScan && copy.serverID == 0x4a)
    #expect(copy != original)
  }

  @Test func modesThatDifferOnlyInAServerFactAreDifferent() {
    let a = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, server: Self.facts)
    var other = Self.facts
    other.dotClockHz = 148_352_000
    let b = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, server: other)
    #expect(a != b)
  }
}
