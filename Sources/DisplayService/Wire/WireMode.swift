import DisplayModel
import DisplayPorts

/// A head's mode as the wire names it: the server's id, name, timed refresh and interlace
/// where the backend states its timings, else those of the mode the bridge makes
/// (`HeadMode.wireMode`), so that its label is the one the topology the heads report gives.
public struct WireMode: Sendable {
  public var id: ModeID
  public var name: String
  public var refreshHz: Double
  public var interlaced: Bool

  /// The mode at `index` of `head`'s modes, which must be one of them.
  public init(_ head: Head, _ index: Int) { self.init(head, index, ids: HeadWireIDs.modeIDs(head).ids) }

  /// The same, with the head's wire ids (`HeadWireIDs.modeIDs(head).ids`) made by the
  /// caller: once a head for a list of its modes.
  public init(_ head: Head, _ index: Int, ids: [Int: ModeID]) {
    let mode = head.modes[index]
    let bridgeID = ids[index] ?? ModeID(rawValue: 0)
    let bridged = mode.wireMode(id: bridgeID)
    id = mode.serverID.map { ModeID(rawValue: UInt(clamping: $0)) } ?? bridgeID
    name = mode.name ?? bridged.name
    if mode.dotClockHz != nil {
      (refreshHz, interlaced) = (mode.timedRefreshHz ?? Double(mode.refreshMilliHz) / 1000, mode.interlaced)
    } else {
      (refreshHz, interlaced) = (bridged.refreshHz, false)
    }
  }

  /// `NAME@REFRESH`, `i` after an interlaced one.
  public var label: String { "\(name)@" + fixed(refreshHz, places: 2) + (interlaced ? "i" : "") }
}
