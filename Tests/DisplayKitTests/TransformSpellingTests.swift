import DisplayKit
import DisplayModel
import DisplayX11
import Testing

/// The config holds a head transform, the value every display server agrees on, and RandR's
/// bits are made from it only where a CRTC is planned. RandR has two spellings of each
/// transform; the one the config wrote is the one set, so status, events and `profile save`
/// read back what was written.
@Suite struct TransformSpellingTests {
  typealias B = TopologyBuilder

  /// Each transform, its plain spelling and its spelling with `reflect y`.
  static let spellings: [(Transform, Rotation, Rotation)] = [
    (.normal, .normal, [.inverted, .reflectX, .reflectY]),
    (.rotated90, .left, [.right, .reflectX, .reflectY]),
    (.rotated180, .inverted, [.normal, .reflectX, .reflectY]),
    (.rotated270, .right, [.left, .reflectX, .reflectY]),
    (.flipped, [.normal, .reflectX], [.inverted, .reflectY]),
    (.flipped90, [.left, .reflectX], [.right, .reflectY]),
    (.flipped180, [.inverted, .reflectX], [.normal, .reflectY]),
    (.flipped270, [.right, .reflectX], [.left, .reflectY]),
  ]

  /// The sixteen combinations a config or a CRTC can hold: one rotation bit and any reflections.
  static let combinations: [Rotation] = [Rotation.normal, .left, .inverted, .right].flatMap { turn in
    [[], .reflectX, .reflectY, [.reflectX, .reflectY]].map { turn.union($0) }
  }

  @Test(arguments: spellings)
  func eachTransformHasAPlainSpellingAndOneWithReflectY(_ transform: Transform, _ plain: Rotation, _ y: Rotation) {
    #expect(Rotation(transform) == plain && Rotation(transform, .turned) == plain)
    #expect(Rotation(transform, .reflectedY) == y)
    #expect(plain.transform == transform && y.transform == transform)
    #expect(plain.spelling == .turned && y.spelling == .reflectedY)
  }

  /// A transform's words in either spelling ask for that transform in that spelling again,
  /// and are the words of the X bits that spell it so.
  @Test func theWordsOfATransformAskForItAgainAndSayItsBits() {
    for transform in Transform.allCases {
      for spelling in TransformSpelling.allCases {
        let (rotate, reflect) = transform.words(spelling)
        let asked = Transform.requested(rotate, reflect)
        #expect(asked.transform == transform && asked.spelling == spelling, "\(transform) \(spelling)")
        #expect(rotate.rotation.union(reflect.rotation) == Rotation(transform, spelling), "\(transform) \(spelling)")
      }
    }
  }

  @Test func everyCombinationRoundTripsThroughItsTransformAndSpelling() {
    for bits in Self.combinations {
      #expect(Rotation(bits.transform, bits.spelling) == bits, "\(bits.rawValue)")
    }
    let counts = Dictionary(grouping: Self.combinations, by: \.transform).mapValues(\.count)
    #expect(counts.count == 8 && counts.values.allSatisfy { $0 == 2 }, "\(counts)")
  }

  /// The touch matrix follows RandR's bits by their own rule (a turn, then mirrors): both
  /// spellings of a transform map a panel alike, and the eight transforms map it eight ways.
  @Test func bothSpellingsOfATransformMapATouchPanelAlike() {
    let rect = Rect(x: 0, y: 0, width: 1024, height: 768)
    let matrix = { (r: Rotation) in
      TouchMatrix.matrix(rect: rect, transform: r.transform, spelling: r.spelling, screenWidth: 1024, screenHeight: 768)
    }
    for (transform, plain, y) in Self.spellings {
      #expect(matrix(plain) == matrix(y), "\(transform)")
    }
    #expect(Set(Self.spellings.map { matrix($0.1) }).count == 8)
  }

  /// A CRTC's bits come from the server: without a rotation bit they read as normal, with
  /// several as the first (as `Rotation.name` says them).
  @Test func bitsWithoutOneRotationBitReadAsRotationNameSaysThem() {
    #expect(Rotation(rawValue: 0).transform == .normal)
    #expect(Rotation([.left, .right]).transform == .rotated90)
    #expect(Rotation(rawValue: 0xFFFF).transform == .rotated270 && Rotation(rawValue: 0xFFFF).spelling == .reflectedY)
  }

  // MARK: the config keeps the spelling

  static let written: [(String, Transform, TransformSpelling)] = [
    ("rotate: 'inverted'", .rotated180, .turned), ("reflect: 'xy'", .rotated180, .reflectedY),
    ("reflect: 'y'", .flipped180, .reflectedY), ("rotate: 'inverted', reflect: 'x'", .flipped180, .turned),
    ("rotate: 'right', reflect: 'x'", .flipped270, .turned), ("rotate: 'left', reflect: 'y'", .flipped270, .reflectedY),
    ("rotate: 'inverted', reflect: 'xy'", .normal, .reflectedY), ("rotate: 'normal'", .normal, .turned),
  ]

  @Test(arguments: written)
  func aRuleAndAProfileEntryKeepTheTransformAndHowItWasSpelled(
    _ keys: String, _ transform: Transform, _ spelling: TransformSpelling
  ) throws {
    let text = "{monitors: [{match: {}, \(keys)}], profiles: [{name: 'p', outputs: [{match: {}, \(keys)}]}]}"
    let config = try Config.parse(Array(text.utf8), file: "test.json5")
    let t = B.topology(["HDMI-1"], on: ["HDMI-1": B.m1080])
    let settings = try #require(config.settings(for: HeadSnapshot(topology: t).heads[0]))
    #expect(settings.transform == transform && settings.transformSpelling == spelling)
    let entry = try #require(config.profiles.first?.outputs.first)
    #expect(entry.transform == transform && entry.transformSpelling == spelling)
  }

  @Test func aRuleWithoutRotateOrReflectAsksNoTransform() throws {
    let config = try Config.parse(Array("{monitors: [{match: {}, scale: 2}]}".utf8), file: "test.json5")
    let t = B.topology(["HDMI-1"], on: ["HDMI-1": B.m1080])
    #expect(try #require(config.settings(for: HeadSnapshot(topology: t).heads[0])).transform == nil)
  }

  // MARK: the planners set the spelling written

  /// eDP-1 lit; HDMI-1 connected and dark, its CRTC able to do `rotations`.
  func dark(_ rotations: Rotation) -> Topology {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080], primary: "eDP-1")
    t.outputs[1].connection = .connected
    for i in t.crtcs.indices { t.crtcs[i].rotations = rotations }
    return t
  }

  func plan(_ keys: String, on t: Topology) throws -> XPlan {
    let text = "{monitors: [{match: {output: 'HDMI-1'}, \(keys)}]}"
    return try planRules(t, try Config.parse(Array(text.utf8), file: "test.json5"))
  }

  @Test func aReflectXYRuleSetsBothReflectionsAndRotateInvertedTheHalfTurn() throws {
    let t = dark([.normal, .inverted, .reflectX, .reflectY])
    let reflected = try plan("reflect: 'xy'", on: t)
    #expect(reflected.changes.first?.rotation == [.normal, .reflectX, .reflectY] && reflected.warnings.isEmpty)
    let inverted = try plan("rotate: 'inverted'", on: t)
    #expect(inverted.changes.first?.rotation == .inverted && inverted.warnings.isEmpty)
    #expect(try plan("reflect: 'xy'", on: t.after(reflected)).isEmpty, "the spelling set is the one asked")
  }

  /// A transform the CRTC cannot spell as written is sent in the other spelling, the same
  /// picture (`RandRHeadValues.rotation`): a CRTC that only reflects shows
  /// `rotate: "inverted"` as both reflections.
  @Test func aCrtcThatOnlyReflectsShowsTheHalfTurnAsBothReflections() throws {
    let t = dark([.normal, .reflectX, .reflectY])
    let reflected = try plan("reflect: 'xy'", on: t)
    #expect(reflected.changes.first?.rotation == [.normal, .reflectX, .reflectY] && reflected.warnings.isEmpty)
    let inverted = try plan("rotate: 'inverted'", on: t)
    #expect(inverted.changes.first?.rotation == [.normal, .reflectX, .reflectY] && inverted.warnings.isEmpty)
  }

  @Test func aCrtcThatOnlyTurnsShowsReflectXYAsTheHalfTurn() throws {
    let reflected = try plan("reflect: 'xy'", on: dark([.normal, .inverted]))
    #expect(reflected.changes.first?.rotation == .inverted && reflected.warnings.isEmpty)
  }

  @Test func aProfileEntrySetsTheSpellingItWrote() throws {
    var t = ProfileFixtures.desk(["eDP-1", "DP-1"], primary: "eDP-1")
    for i in t.crtcs.indices { t.crtcs[i].rotations = [.normal, .left, .right, .inverted, .reflectX, .reflectY] }
    let entries = [
      ("reflect: 'xy'", Rotation([.normal, .reflectX, .reflectY])), ("rotate: 'inverted'", .inverted),
      ("rotate: 'left', reflect: 'y'", [.left, .reflectY]), ("rotate: 'right', reflect: 'x'", [.right, .reflectX]),
    ]
    for (keys, bits) in entries {
      let plan = try planProfile("{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, \(keys)}]}", on: t)
      let dp = try #require(plan.changes.first { $0.outputName == "DP-1" && $0.mode != nil }, "\(keys)")
      #expect(dp.rotation == bits, "\(keys)")
    }
  }
}
