import DisplayModel
import DisplayX11

@testable import DisplayService

extension Topology {
  /// The main output: the RandR primary when it is connected, else the first connected
  /// built-in panel (`eDP*`, `LVDS*`, `DSI*`), else the first connected output: the
  /// RandR-shaped reference of the snapshot's main head (HeadMain.swift).
  var mainOutput: Output? {
    let connected = connectedOutputs
    if let primary, let p = connected.first(where: { $0.id == primary }) { return p }
    return connected.first(where: \.isInternalPanel) ?? connected.first
  }
}

// The state records of RandR's outputs: the RandR-shaped reference the heads' records
// (HeadRecords.swift) are pinned against byte for byte.
extension OutputState {
  /// The state of `output` in `topology`: its active CRTC, mode, primary and main.
  init(_ output: Output, in topology: Topology) {
    let mode = topology.currentMode(of: output).map {
      ModeRecord($0, current: true, preferred: output.preferredModes.contains($0.id))
    }
    self.init(
      id: Int(output.id.rawValue), connected: output.isConnected, connection: output.connection.rawValue,
      primary: topology.primary == output.id, main: topology.mainOutput?.id == output.id,
      crtc: topology.geometry(of: output).map(RectRecord.init),
      rotation: topology.activeCrtc(of: output)?.rotation.name,
      currentMode: mode, mm: Self.millimetres(output),
      nonDesktop: output.nonDesktop, identity: output.identity.map(EDIDRecord.init))
  }
}

extension OutputState {
  /// The output's size, null unless both sides are from 1 mm to 10 m: a server's 0 (no
  /// size), a compositor's -1 (as an X client reads it, 4294967295) and the like are unknown.
  static func millimetres(_ output: Output) -> Millimetres? {
    let plausible = { (side: Int) in side >= 1 && side <= 10_000 }
    guard plausible(output.mmWidth), plausible(output.mmHeight) else { return nil }
    return Millimetres(width: output.mmWidth, height: output.mmHeight)
  }
}

extension OutputRecord {
  /// One output of `outputs --json` over a topology.
  init(_ output: Output, in topology: Topology) {
    self.init(name: output.name, state: OutputState(output, in: topology))
  }
}
