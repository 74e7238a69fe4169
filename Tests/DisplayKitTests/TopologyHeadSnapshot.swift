import DisplayModel
import DisplayPorts
import DisplayX11

extension HeadSnapshot {
  /// A RandR-shaped topology as the port's heads, without a server: what
  /// `RandROutputManager` reports for it, where the topology tells. One head per output in
  /// the topology's order; its make, model and serial from the EDID (else what the output
  /// says of itself), and the output's id and connection word for the wire; modes with their
  /// refresh in mHz, the first `preferredCount` preferred, displayd's own marked custom, and
  /// the server's id, name, dot clock and double scan for the wire; the transform its CRTC's rotation makes, spelled as its
  /// bits spell it, and the scale of its CRTC's transform; its area rounded as RandR rounds
  /// it. Its capabilities are its CRTCs' (the lit one, else every possible one): the
  /// transforms RandR can spell with their rotations, scaling unless each is in
  /// `noTransform`, custom modes (RandR makes them), and any size where the output takes it.
  /// Pure.
  init(topology: Topology, noTransform: Set<CrtcID> = []) {
    let heads = topology.outputs.map { Self.head($0, topology, noTransform: noTransform) }
    self.init(
      heads: heads, primary: topology.primary.flatMap { topology.output($0)?.name },
      generation: topology.generation)
  }

  static func head(_ output: Output, _ topology: Topology, noTransform: Set<CrtcID>) -> Head {
    let crtc = topology.activeCrtc(of: output)
    var head = Head(
      name: output.name, edid: output.edid, mmWidth: output.mmWidth, mmHeight: output.mmHeight,
      connected: output.isConnected, enabled: crtc != nil, isInternalPanel: output.isInternalPanel,
      nonDesktop: output.nonDesktop)
    (head.serverID, head.connectionUnknown) = (UInt64(output.id.rawValue), output.connection == .unknown)
    if let edid = output.identity {
      head.make = edid.manufacturer
      head.model = edid.productName?.text ?? String(edid.productCode)
      head.serial = edid.serial ?? ""
    }
    let modes = topology.modes(of: output)
    head.modes = modes.enumerated().map { index, mode in
      var head = HeadMode(
        width: mode.width, height: mode.height, refreshMilliHz: Int(exactly: (mode.refreshHz * 1000).rounded()) ?? 0,
        preferred: index < output.preferredCount, interlaced: mode.isInterlaced,
        custom: mode.name.hasPrefix(CustomModes.prefix))
      (head.serverID, head.name) = (UInt64(mode.id.rawValue), mode.name)
      (head.dotClockHz, head.doubleScan) = (mode.dotClock, mode.isDoubleScan)
      (head.timedRefreshHz, head.timings) = (mode.refreshHz, ModeLine(mode))
      return head
    }
    head.capabilities = capabilities(output, topology, noTransform: noTransform)
    head.scaledArea = .fixedPoint
    guard let crtc else { return head }
    head.currentMode = modes.firstIndex { $0.id == crtc.mode }
    (head.x, head.y) = (crtc.x, crtc.y)
    (head.transform, head.spelling) = (crtc.rotation.transform, crtc.rotation.spelling)
    head.scale = RandRHeadValues.scale(crtc.transform)
    return head
  }

  static func capabilities(_ output: Output, _ topology: Topology, noTransform: Set<CrtcID>) -> HeadCapabilities {
    let crtcs = topology.activeCrtc(of: output).map { [$0] } ?? output.possibleCrtcs.compactMap(topology.crtc)
    let allowed = crtcs.reduce(Rotation()) { $0.union($1.rotations) }
    let transforms = Set(Transform.allCases.filter { t in spellings(t).contains { allowed.isSuperset(of: $0) } })
    return HeadCapabilities(
      transforms: transforms.union([.normal]), scaling: crtcs.contains { !noTransform.contains($0.id) },
      customModes: true, anySize: false)
  }

  /// RandR's two spellings of a transform (`TransformSpelling`).
  static func spellings(_ transform: Transform) -> [Rotation] {
    TransformSpelling.allCases.map { Rotation(transform, $0) }
  }
}
