import DisplayModel
import DisplayPorts

extension OutputManagerLayout {
  /// An X server's desk: each snapshot gives its screen and limits; it has a primary and a
  /// physical size; the RandR manager says why it refuses a configuration in its own words.
  public static let randrDesk = Desk(server: nil, maxWidth: 0, maxHeight: 0, hasPrimary: true)

  /// The daemon's layout on `connection`: through the RandR output manager.
  public convenience init(_ connection: XConnection) {
    self.init(RandROutputManager(connection), desk: Self.randrDesk)
  }
}
