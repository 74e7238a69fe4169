import DisplayModel
import DisplaySupport

extension PNPVendors {
  /// Where Debian's `hwdata` keeps the table (the same file wlroots' company names come from).
  public static let systemPath = "/usr/share/hwdata/pnp.ids"

  /// The system's table, read once when first asked; empty (a make then matches only as
  /// written, or as the id it is) when the file is missing or unreadable.
  public static let system: PNPVendors = read(systemPath)

  /// The table at `path`, empty when it cannot be read.
  public static func read(_ path: String) -> PNPVendors {
    guard case .success(let bytes) = readFile(path, limit: FileLimit.config) else { return .none }
    return PNPVendors(pnpIDs: String(decoding: bytes, as: UTF8.self))
  }
}
