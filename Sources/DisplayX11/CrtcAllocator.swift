import DisplayModel

/// RandR's CRTC allocator (the configuration planner's): each output keeps its own lit CRTC
/// unless another output of the plan took it first, else gets the first of its possible
/// CRTCs that can drive it, that no output of the plan took, and that drives no other output
/// but those the plan lets go. Pure.
public struct CrtcAllocator {
  let topology: Topology
  /// Outputs whose CRTC may be given to another: ones the plan turns off, or that are gone.
  let lettingGo: Set<OutputID>
  /// The CRTCs given so far.
  private(set) var taken: Set<CrtcID> = []

  public init(_ topology: Topology, lettingGo: Set<OutputID> = []) {
    self.topology = topology
    self.lettingGo = lettingGo
  }

  /// The output's own CRTC, else a free one; nil when none can drive it.
  public mutating func crtc(for output: Output) -> Crtc? { own(output) ?? free(for: output) }

  /// The output's lit CRTC, unless another output of the plan took it.
  public mutating func own(_ output: Output) -> Crtc? {
    guard let own = topology.activeCrtc(of: output), taken.insert(own.id).inserted else { return nil }
    return own
  }

  /// A CRTC no output of the plan took, that can drive the output, and that lists no output
  /// but this one and those let go (none for an idle one).
  public mutating func free(for output: Output) -> Crtc? {
    let crtc = output.possibleCrtcs.compactMap(topology.crtc).first { c in
      !taken.contains(c.id) && (c.possibleOutputs.isEmpty || c.possibleOutputs.contains(output.id))
        && c.outputs.allSatisfy { $0 == output.id || lettingGo.contains($0) }
    }
    if let crtc { taken.insert(crtc.id) }
    return crtc
  }

  /// Gives a CRTC back, for another output to take.
  public mutating func giveBack(_ id: CrtcID) { taken.remove(id) }
}
