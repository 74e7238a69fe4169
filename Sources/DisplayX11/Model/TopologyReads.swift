import DisplayModel
import DisplayPorts

/// What a layout server whose reads are RandR-shaped topologies keeps of them: the last one
/// (the server as last read, nothing held), and each output as it was last read connected
/// (the monitor a held head stands for: its EDID, modes and CRTCs).
public struct TopologyReads: Sendable {
  /// The last topology read.
  public private(set) var last = Topology(
    screen: ScreenSize(width: 0, height: 0, minWidth: 0, minHeight: 0, maxWidth: 0, maxHeight: 0), outputs: [],
    crtcs: [], modes: [:])
  /// By output name; an entry is replaced at each read that shows the output connected.
  private var connected: [String: Output] = [:]
  /// The outputs the last read shows connected that the server's events said went and came
  /// back since the read before (`OutputChangeTimes`).
  public private(set) var reconnected: Set<String> = []

  public init() {}

  /// Takes `topology` as the last read; `seen` are the outputs the server's events said went
  /// and came back since the read before.
  public mutating func remember(_ topology: Topology, reconnected seen: Set<OutputID> = []) {
    last = topology
    reconnected = []
    for output in topology.outputs where output.isConnected {
      connected[output.name] = output
      if seen.contains(output.id) { reconnected.insert(output.name) }
    }
  }

  /// `real` (by default the last read) with every held output still connected, as it was
  /// last read connected (its EDID and modes), on the CRTC the server has it on now; and the
  /// primary kept while it is one of them. An output `real` no longer lists stays gone.
  public func masked(_ real: Topology? = nil, holding held: HeldHeads) -> Topology {
    var view = real ?? last
    for name in held.names {
      guard let index = view.outputs.firstIndex(where: { $0.name == name }), var output = connected[name] else {
        continue
      }
      output.crtc = view.outputs[index].crtc
      view.outputs[index] = output
    }
    if view.primary == nil, let primary = held.keptPrimary, let output = connected[primary] { view.primary = output.id }
    return view
  }
}
