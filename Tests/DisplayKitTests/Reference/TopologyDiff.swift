import DisplayX11

@testable import DisplayModel

/// Derives hot-plug events from two RandR snapshots: the RandR-shaped reference `HeadDiff`
/// is pinned against in the differential tests. Pure.
///
/// Outputs are matched by id (RandR keeps an output's id for the server's life). Events come
/// in the order of the new snapshot's outputs, disconnects of vanished outputs last.
enum TopologyDiff {
  static func events(from old: Topology, to new: Topology) -> [TopologyEvent] {
    var events: [TopologyEvent] = []
    for output in new.outputs {
      let before = old.output(output.id)
      events += changes(of: output, before: before, old: old, new: new)
    }
    for gone in old.outputs where gone.isConnected && new.output(gone.id) == nil {
      events.append(TopologyEvent(kind: .disconnected, output: gone))
    }
    if let main = mainChange(old: old, new: new) { events.append(main) }
    return events
  }

  private static func changes(
    of output: Output, before: Output?, old: Topology, new: Topology
  ) -> [TopologyEvent] {
    let was = before?.isConnected ?? false
    let event = { (kind: HeadEvent.Kind) in
      TopologyEvent(
        kind: kind, output: output, geometry: new.geometry(of: output),
        mode: new.currentMode(of: output))
    }
    switch (was, output.isConnected) {
    case (false, true): return [event(.connected)]
    case (true, false): return [event(.disconnected)]
    case (false, false): return []
    case (true, true): break
    }
    guard let before else { return [] }
    var result: [TopologyEvent] = []
    if scanout(of: before, in: old) != scanout(of: output, in: new) {
      result.append(event(.modeChanged))
    }
    if before.edid != output.edid { result.append(event(.edidChanged)) }
    return result
  }

  /// What a person sees of an output: its mode, rectangle and rotation.
  private static func scanout(of output: Output, in topology: Topology) -> Scanout? {
    guard let crtc = topology.activeCrtc(of: output) else { return nil }
    return Scanout(mode: crtc.mode, rect: crtc.rect, rotation: crtc.rotation)
  }

  private struct Scanout: Equatable {
    var mode: ModeID?
    var rect: Rect
    var rotation: Rotation
  }

  private static func mainChange(old: Topology, new: Topology) -> TopologyEvent? {
    guard old.primary != new.primary || old.mainOutput?.id != new.mainOutput?.id else { return nil }
    guard let main = new.mainOutput ?? new.primary.flatMap(new.output) else { return nil }
    return TopologyEvent(
      kind: .primaryChanged, output: main, geometry: new.geometry(of: main),
      mode: new.currentMode(of: main))
  }
}
