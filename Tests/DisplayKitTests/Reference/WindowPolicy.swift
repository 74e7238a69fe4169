import DisplayX11

@testable import DisplayModel

/// What one external monitor should show, derived from RandR's topology and the config: the
/// RandR-shaped reference `HeadWindowPolicy` is pinned against in the differential tests.
/// Pure.
struct WindowWanted: Equatable, Sendable {
  var output: Output
  var rect: Rect
  var level: WindowLevel
  /// `mirror` only while the source shows something; `placeholder` otherwise.
  var content: ContentKind
  var picture: PlaceholderContent
  var mirror: MirrorGeometry?
  var filter: MirrorFilter
  var cursor: Bool
  /// The refresh rate of the monitor, for the mirror's frame interval.
  var refreshHz: Double
  /// The output the mirror shows.
  var mirrorSource: OutputID? = nil
  /// Why a mirror was refused (it would show itself): shown instead, as the details line.
  var refusal: String? = nil
}

extension Config {
  /// The windows the daemon should have: one per connected external monitor with an active
  /// CRTC, not ignored, whose content is not `none`.
  func wantedWindows(in topology: Topology) -> [WindowWanted] {
    refusingMirrorLoops(candidateWindows(in: topology), topology)
  }

  func candidateWindows(in topology: Topology) -> [WindowWanted] {
    let main = mainOutput(in: topology)
    return topology.connectedOutputs.compactMap { output in
      guard output.id != main?.id, !output.nonDesktop, let rect = topology.geometry(of: output),
        rect.width > 0, rect.height > 0
      else { return nil }
      let edid = output.identity
      guard let settings = settings(for: output), settings.content != .none else { return nil }
      var details: String?
      if placeholder.details {
        let monitor = edid.map { $0.productName?.text ?? $0.manufacturer }
        let mode = topology.currentMode(of: output).map(\.label)
        details = [output.name, monitor, mode].compactMap { $0 }.joined(separator: "  ·  ")
      }
      let picture = PlaceholderContent(
        style: placeholder, details: details, width: rect.width, height: rect.height,
        density: PlaceholderContent.density(of: output, in: topology))
      var geometry: MirrorGeometry?
      var source: Output?
      if settings.content == .mirror {
        source = settings.mirror.source == "main" ? main : topology.output(named: settings.mirror.source)
        geometry = source.flatMap { s in s.id == output.id ? nil : topology.geometry(of: s) }.map {
          MirrorGeometry(source: $0, width: rect.width, height: rect.height, scale: settings.mirror.scale)
        }
      }
      return WindowWanted(
        output: output, rect: rect, level: settings.level, content: geometry == nil ? .placeholder : .mirror,
        picture: picture, mirror: geometry, filter: settings.mirror.filter, cursor: settings.mirror.cursor,
        refreshHz: topology.currentMode(of: output)?.refreshHz ?? 60, mirrorSource: geometry == nil ? nil : source?.id)
    }
  }

  /// A mirror redraws whenever its source area is drawn on, so mirrors whose windows lie in
  /// each other's source areas (a window over its own source, `xrandr --same-as`, a ring of
  /// monitors mirroring each other, or one drawing where another reads) would composite
  /// forever: root DAMAGE sees every composite. Those monitors get the placeholder, with the
  /// reason as its details line.
  func refusingMirrorLoops(_ candidates: [WindowWanted], _ topology: Topology) -> [WindowWanted] {
    let rings = MirrorLoops.rings(candidates.map { ($0.rect, $0.mirror?.source) })
    return zip(candidates, rings).map { want, ring in
      guard let ring else { return want }
      let path = ring.map { candidates[$0] }
      let source = want.mirrorSource.flatMap { topology.output($0)?.name } ?? "?"
      let reason =
        path.count == 1
        ? "mirror of \(source) refused: \(want.output.name) overlaps its source"
        : "mirror cycle refused: " + (path + [want]).map(\.output.name).joined(separator: " → ")
      var refused = want
      refused.content = .placeholder
      refused.mirror = nil
      refused.mirrorSource = nil
      refused.refusal = reason
      refused.picture.details = reason
      return refused
    }
  }
}
