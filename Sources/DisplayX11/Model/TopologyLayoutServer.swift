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

/// A layout server whose reads are RandR's topologies (the X connection, `RandRLayout`, the
/// tests' fakes of an X server): the heads-only port over them, written once. A read is
/// remembered (`topologyReads`); the heads the daemon holds are the last read masked with
/// the outputs last seen connected; configurations are planned from that masked topology;
/// the modes displayd made are found in the last read, which lists modes no output does.
public protocol TopologyLayoutServer: LayoutServer {
  /// What it keeps of its reads.
  var topologyReads: TopologyReads { get set }
  /// One consistent topology.
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology
  /// The heads `topology`, read from this server or masked, is.
  func heads(of topology: Topology) -> HeadSnapshot
  /// Tests `configuration`, planned from `topology`, then applies it, all or nothing.
  func apply(_ configuration: OutputConfiguration, in topology: Topology) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  )
  /// Removes the modes from the outputs listing them and destroys them; what the server
  /// refused.
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String]
  /// The outputs the server's events said went and came back since this was last asked
  /// (none where the server's events are not the connection's).
  func takeReconnectsSeen() -> Set<OutputID>
}

extension TopologyLayoutServer {
  /// One consistent snapshot, without probing connectors (not remembered: the daemon reads
  /// through `read`).
  public func snapshot() throws(DisplayError) -> Topology { try snapshot(ReadOptions()) }

  public func takeReconnectsSeen() -> Set<OutputID> { [] }

  public func read(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot {
    // Taken before the read: an event that arrives during it is the next read's.
    let seen = takeReconnectsSeen()
    let topology = try snapshot(options)
    topologyReads.remember(topology, reconnected: seen)
    return heads(of: topology)
  }

  public var reconnected: Set<String> { topologyReads.reconnected }

  public func heads(holding held: HeldHeads) -> HeadSnapshot { heads(of: topologyReads.masked(holding: held)) }

  public func apply(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try apply(configuration, in: topologyReads.masked(holding: held))
  }

  /// The outputs of the last read on a lit CRTC whose every output is disconnected.
  public var litButDisconnected: Set<String> {
    let last = topologyReads.last
    return Set(last.litButDisconnected.compactMap { last.output($0)?.name })
  }

  /// The modes displayd made that no CRTC of the last read shows (`CustomModes.unused`).
  public func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) {
    let unused = CustomModes.unused(in: topologyReads.last)
    guard !unused.isEmpty else { return ([], []) }
    return (unused.map(\.name), try releaseModes(unused))
  }
}
