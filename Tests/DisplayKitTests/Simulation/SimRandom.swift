/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators"): a
/// seeded generator of our own, so a simulation seed draws the same steps on every machine
/// and toolchain (Swift's `SystemRandomNumberGenerator` cannot be seeded, and Foundation's
/// differs between platforms).
struct SimRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (bound > 0); the slight modulo bias does not matter here.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

  /// True with probability `percent`/100.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// One of `items` (not empty).
  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  /// An index drawn by weight.
  mutating func weighted(_ weights: [Int]) -> Int {
    var roll = below(weights.reduce(0, +))
    for (i, w) in weights.enumerated() {
      if roll < w { return i }
      roll -= w
    }
    return weights.count - 1
  }
}
