import Testing

@testable import DisplayModel

/// A head's mode chain and fallbacks are found by comparing modes in place: the same as by a
/// set of whole modes, on random heads that list a size and rate twice, under two names or
/// exactly alike. Pure.
@Suite struct ModeChainTests {
  func randomModes(_ count: Int, _ random: inout SystemRandomNumberGenerator) -> [PlannedMode] {
    (0..<count).map { _ in
      var mode = HeadMode(
        width: [640, 1280, 1920].randomElement(using: &random) ?? 640,
        height: [480, 1024, 1080].randomElement(using: &random) ?? 480,
        refreshMilliHz: [0, 59_940, 60_000].randomElement(using: &random) ?? 0,
        preferred: Bool.random(using: &random), interlaced: Bool.random(using: &random))
      mode.name = ["a", "b", nil].randomElement(using: &random) ?? nil
      return PlannedMode(mode)
    }
  }

  @Test func theChainHasEachModeOnceAsASetOfWholeModesKeepsThem() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let all = randomModes(Int.random(in: 0...24, using: &random), &random)
      let firsts: [PlannedMode?] = (0..<3).map { _ in
        Bool.random(using: &random) ? all.randomElement(using: &random) : nil
      }
      #expect(
        ModeChoice.chain(firsts, all, order: ModeChoice.largestFirstOrder(all))
          == ModeChoice.chain(firsts, all, key: { $0 }))
    }
  }

  @Test func theOrderFoundWithoutMovingModesIsTheSortedModesAndItsFirstTheLargest() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let all = randomModes(Int.random(in: 0...24, using: &random), &random)
      let sorted = all.sorted { (ModeChoice.pixels($0), $0.refreshHz) > (ModeChoice.pixels($1), $1.refreshHz) }
      let order = ModeChoice.largestFirstOrder(all)
      #expect(order.map { all[$0] } == sorted)
      #expect(order.first.map { all[$0] } == ModeChoice.largest(all))
    }
  }

  @Test func theFallbacksAreTheFirstFewSmallerModesOfRequestsNotAskedBefore() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let modes = randomModes(Int.random(in: 1...24, using: &random), &random)
      let mode = modes[0]
      var asked: Set<HeadModeRequest> = [mode.request]
      let expected = modes.dropFirst().filter {
        $0.width <= mode.width && $0.height <= mode.height && asked.insert($0.request).inserted
      }
      #expect(RulePlanner.fallbacks(modes.dropFirst(), after: mode) == Array(expected.prefix(RulePlanner.maxFallbacks)))
    }
  }
}
