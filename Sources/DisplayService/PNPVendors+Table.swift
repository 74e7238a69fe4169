import DisplayModel
import DisplaySupport

extension PNPVendors {
  /// Where Debian's `hwdata` keeps the table (the same file wlroots' company names come from).
  public static let systemPath = "/usr/share/hwdata/pnp.ids"

  /// The table at `path` for the makes `names` only, empty when it cannot be read.
  public static func read(_ path: String, names: Set<String>) -> PNPVendors {
    guard case .success(let bytes) = readFile(path, limit: FileLimit.config) else { return .none }
    return PNPVendors(pnpIDs: String(decoding: bytes, as: UTF8.self), names: names)
  }
}

/// hwdata's `pnp.ids` as a daemon needs it: read when a head shows a make not seen before, and
/// only that make's entries kept. The whole table (some 2500 companies) would cost the daemon
/// about 0.5 MB of heap for the one or two makes on a desk; a make is looked up once, found
/// or not, and a missing or unreadable file makes every make match only as written.
public final class PNPVendorTable {
  /// The file it reads.
  public let path: String
  /// The entries of the makes seen so far.
  public private(set) var vendors = PNPVendors.none
  /// How many times the file was read (a test's count).
  public private(set) var reads = 0
  private var asked: Set<String> = []
  /// Makes looked up at most: more than any desk has.
  public static let maxMakes = 64

  public init(path: String = PNPVendors.systemPath) {
    self.path = path
  }

  /// The table for `makes` (and every make asked before): the file is read only for makes
  /// not asked before that are not a PNP id themselves.
  public func vendors(for makes: some Sequence<String>) -> PNPVendors {
    let new = Set(makes.filter { !PNPVendors.needsNoTable($0) && !asked.contains($0) })
    // A compositor that names a new make at every event would have the file read each time.
    guard !new.isEmpty, asked.count < Self.maxMakes else { return vendors }
    asked.formUnion(new)
    reads += 1
    vendors = vendors.merging(PNPVendors.read(path, names: new))
    return vendors
  }
}
