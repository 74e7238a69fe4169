import DisplayKit
import DisplayModel
import DisplayX11

/// The X connection is the display server the daemon runs against. The conformance lives
/// here, above both, so the daemon (DisplayKit) knows only the protocol and never X.
extension XConnection: DisplayServer {
  public func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology { try readTopology(options) }
}
