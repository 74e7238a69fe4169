/// What one external head should show: derived from a snapshot of heads and the config;
/// pure. The head and the mirror's source are named, not held: a surface is the port's for
/// a head's name (`SurfaceSpec.head`), and a whole head would make two wants unequal over
/// what the surface never shows (its mode list, its EDID).
public struct WindowWanted: Equatable, Sendable {
  /// The head's name.
  public var head: String
  public var rect: Rect
  public var level: WindowLevel
  /// `mirror` only while the source shows something; `placeholder` otherwise.
  public var content: ContentKind
  public var picture: PlaceholderContent
  public var mirror: MirrorGeometry?
  public var filter: MirrorFilter
  public var cursor: Bool
  /// The refresh rate of the head's mode, for the mirror's frame interval.
  public var refreshHz: Double
  /// The name of the head the mirror shows.
  public var mirrorSource: String? = nil
  /// Why a mirror was refused (it would show itself): shown instead, as the details line.
  public var refusal: String? = nil
}

extension HeadMode {
  /// `1920x1080@60.00`, with `i` for an interlaced mode, as `Mode.label` names a server's:
  /// by the server's name for it (`displayd-1600x700_60.00@60.00` for a mode displayd made),
  /// else by its size; with the refresh its timings give where the server states them, so
  /// that a refresh rounded to the mHz cannot round the label the other way.
  public var label: String {
    (name ?? "\(width)x\(height)") + "@" + fixed(timedRefreshHz ?? refreshHz, places: 2) + (interlaced ? "i" : "")
  }
}

extension PlaceholderContent {
  /// The head's pixels per unit of its area: its mode's width (turned as the head is) over
  /// the area's width, within 0.25...4; 1 where it shows no area.
  public static func density(of head: Head) -> Double {
    guard let mode = head.mode, let rect = head.rect, rect.width > 0 else { return 1 }
    let across = Double(head.transform.swapsAxes ? mode.height : mode.width) / Double(rect.width)
    return across.isFinite ? min(max(across, 0.25), 4) : 1
  }
}

extension Config {
  /// The surfaces the daemon should have: one per connected external head that is lit, not
  /// `non-desktop`, not ignored, and whose content is not `none`; main
  /// (`mainOutput(in:vendors:)`) has none. The details line names the head, the monitor
  /// (the EDID's product name, else its manufacturer) and the mode (`HeadMode.label`).
  /// Mirrors that would redraw themselves get the placeholder, with the reason.
  public func wantedWindows(in snapshot: HeadSnapshot, vendors: PNPVendors = .none) -> [WindowWanted] {
    guard showsContent else { return [] }
    return wantedWindows(in: snapshot, vendors: vendors, main: mainOutput(in: snapshot, vendors: vendors))
  }

  /// `wantedWindows(in:vendors:)` with `main` the caller found already: what
  /// `mainOutput(in: snapshot, vendors: vendors)` says.
  public func wantedWindows(in snapshot: HeadSnapshot, vendors: PNPVendors = .none, main: Head?)
    -> [WindowWanted]
  {
    // Asked after every change: with every content `none`, no head to go through.
    guard showsContent else { return [] }
    let snapshot = snapshot.bounded().snapshot
    return MirrorLoops.refusing(candidateWindows(in: snapshot, vendors: vendors, main: main))
  }

  private func candidateWindows(in snapshot: HeadSnapshot, vendors: PNPVendors, main: Head?) -> [WindowWanted] {
    return snapshot.heads.compactMap { head in
      guard head.connected, head.name != main?.name, !head.nonDesktop, let rect = head.rect, rect.width > 0,
        rect.height > 0, let settings = settings(for: head, vendors: vendors), settings.content != .none
      else { return nil }
      let picture = PlaceholderContent(
        style: placeholder, details: placeholder.details ? Self.details(head) : nil, width: rect.width,
        height: rect.height, density: PlaceholderContent.density(of: head))
      var want = WindowWanted(
        head: head.name, rect: rect, level: settings.level, content: .placeholder, picture: picture, mirror: nil,
        filter: settings.mirror.filter, cursor: settings.mirror.cursor, refreshHz: head.mode?.refreshHz ?? 60)
      guard settings.content == .mirror else { return want }
      let source = settings.mirror.source == "main" ? main : snapshot.head(named: settings.mirror.source)
      if let source, source.name != head.name, let area = source.rect {
        want.content = .mirror
        want.mirror = MirrorGeometry(source: area, width: rect.width, height: rect.height, scale: settings.mirror.scale)
        want.mirrorSource = source.name
      }
      return want
    }
  }

  /// `HDMI-1  ·  VA279  ·  1920x1080@60.00`: the head, the monitor its EDID names, its mode.
  static func details(_ head: Head) -> String {
    let monitor = head.edid.flatMap { try? EDID(bytes: $0) }.map { $0.productName?.text ?? $0.manufacturer }
    return [head.name, monitor, head.mode?.label].compactMap { $0 }.joined(separator: "  ·  ")
  }
}

/// A mirror redraws whenever its source area is drawn on, so mirrors whose surfaces lie in
/// each other's source areas (a surface over its own source, heads showing one area, a ring
/// of heads mirroring each other, or one drawing where another reads) would composite
/// forever. Those heads get the placeholder, with the reason as its details line.
enum MirrorLoops {
  static func refusing(_ candidates: [WindowWanted]) -> [WindowWanted] {
    let found = rings(candidates.map { ($0.rect, $0.mirror?.source) })
    return zip(candidates, found).map { want, ring in
      guard let ring else { return want }
      let names = ring.map { candidates[$0].head }
      let reason =
        names.count == 1
        ? "mirror of \(want.mirrorSource ?? "?") refused: \(want.head) overlaps its source"
        : "mirror cycle refused: " + (names + [want.head]).joined(separator: " → ")
      var refused = want
      refused.content = .placeholder
      refused.mirror = nil
      refused.mirrorSource = nil
      refused.refusal = reason
      refused.picture.details = reason
      return refused
    }
  }

  /// For each surface with a source area, the ring of surfaces (by index, from it) that
  /// redraw one another through it, found depth first in the surfaces' order; nil where
  /// there is none, and for a surface without a source.
  static func rings(_ surfaces: [(rect: Rect, source: Rect?)]) -> [[Int]?] {
    let mirrors = surfaces.indices.filter { surfaces[$0].source != nil }
    // An edge from a surface to every mirror whose source area it draws on.
    func redraws(_ i: Int) -> [Int] {
      mirrors.filter { m in surfaces[m].source.map { surfaces[i].rect.intersects($0) } ?? false }
    }
    func ring(from start: Int) -> [Int]? {
      if redraws(start).contains(start) { return [start] }
      var path = [start]
      var seen: Set<Int> = []
      func visit(_ i: Int) -> Bool {
        for next in redraws(i) {
          if next == start { return true }
          guard seen.insert(next).inserted else { continue }
          path.append(next)
          if visit(next) { return true }
          path.removeLast()
        }
        return false
      }
      return visit(start) ? path : nil
    }
    return surfaces.indices.map { surfaces[$0].source == nil ? nil : ring(from: $0) }
  }
}
