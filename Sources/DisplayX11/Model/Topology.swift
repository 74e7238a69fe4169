import DisplayModel

/// One consistent snapshot of the X screen's RandR state: outputs, CRTCs, modes and sizes.
///
/// A value: two snapshots compare with `==`.
public struct Topology: Hashable, Sendable {
  public var screen: ScreenSize
  /// Outputs in the server's order.
  public var outputs: [Output]
  public var crtcs: [Crtc]
  public var modes: [ModeID: Mode]
  /// The RandR primary output, if one is set.
  public var primary: OutputID?
  /// The server's config timestamp: `XRRSetCrtcConfig` must quote it.
  public var configTimestamp: UInt
  /// The server's timestamp of the last configuration change.
  public var timestamp: UInt

  public init(
    screen: ScreenSize, outputs: [Output], crtcs: [Crtc], modes: [ModeID: Mode],
    primary: OutputID? = nil, configTimestamp: UInt = 0, timestamp: UInt = 0
  ) {
    self.screen = screen
    self.outputs = outputs
    self.crtcs = crtcs
    self.modes = modes
    self.primary = primary
    self.configTimestamp = configTimestamp
    self.timestamp = timestamp
  }

  public func output(named name: String) -> Output? { outputs.first { $0.name == name } }
  public func output(_ id: OutputID) -> Output? { outputs.first { $0.id == id } }
  public func crtc(_ id: CrtcID) -> Crtc? { crtcs.first { $0.id == id } }

  public var connectedOutputs: [Output] { outputs.filter(\.isConnected) }

  /// The active CRTC driving an output, nil when the output is off.
  public func activeCrtc(of output: Output) -> Crtc? {
    guard let id = output.crtc, let crtc = crtc(id), crtc.isActive else { return nil }
    return crtc
  }

  /// The mode an output is showing now.
  public func currentMode(of output: Output) -> Mode? {
    activeCrtc(of: output).flatMap { $0.mode }.flatMap { modes[$0] }
  }

  /// The rectangle an output covers on the root window, nil when it is off.
  public func geometry(of output: Output) -> Rect? { activeCrtc(of: output)?.rect }

  /// The modes of an output, resolved, in the server's order.
  public func modes(of output: Output) -> [Mode] { output.modes.compactMap { modes[$0] } }
}

extension Topology {
  /// The outputs named, in the order given; with no names, every connected output.
  /// Throws `unknownOutput` listing the real outputs for a name the server lacks.
  public func outputs(named names: [String]) throws(DisplayError) -> [Output] {
    guard !names.isEmpty else { return connectedOutputs }
    var result: [Output] = []
    for name in names {
      guard let output = output(named: name) else {
        throw .unknownOutput(name: name, available: outputs.map(\.name))
      }
      result.append(output)
    }
    return result
  }
}

extension Topology {
  /// Outputs the server calls disconnected whose CRTC is lit: a monitor just unplugged (its
  /// CRTC still set), or one another client lit that the server has not probed yet (the
  /// dummy driver notices a connection only when asked to re-probe).
  public var litButDisconnected: Set<OutputID> {
    var result: Set<OutputID> = []
    for crtc in crtcs where crtc.isActive && !crtc.outputs.isEmpty {
      let outputs = crtc.outputs.compactMap { self.output($0) }
      if outputs.allSatisfy({ !$0.isConnected }) { result.formUnion(outputs.map(\.id)) }
    }
    return result
  }
}

extension Topology {
  /// The snapshot's generation, as a configuration planned from it quotes it: the config
  /// timestamp (changes with the server's outputs and modes) and the timestamp (changes with
  /// every CRTC set by any client), both 32-bit X timestamps, side by side.
  public var generation: UInt64 {
    UInt64(UInt32(truncatingIfNeeded: configTimestamp)) << 32 | UInt64(UInt32(truncatingIfNeeded: timestamp))
  }
}
