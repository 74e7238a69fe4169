import DisplayModel

/// The record of one EDID, with keys named as in the shared corpus's `expected.json`.
public struct EDIDRecord: Codable, Equatable, Sendable {
  public struct Timing: Codable, Equatable, Sendable {
    public var width, height: Int
    /// Rounded to 3 decimals.
    public var refreshHz: Double
    public var pixelClockKHz: Int
    public var interlaced: Bool
    enum CodingKeys: String, CodingKey {
      case width
      case height
      case refreshHz = "refresh_hz"
      case pixelClockKHz = "pixel_clock_khz"
      case interlaced
    }
  }

  public var manufacturer: String
  public var productCode: Int
  public var serialNumber: UInt32?
  public var productName: String?
  public var serialString: String?
  public var edidVersion: String
  public var extensionCount: Int
  public var checksumOK: Bool
  /// `[width, height]`.
  public var maxImageSizeCm: [Int]?
  public var preferredMode: Timing?
  public var manufactureYear: Int?
  public var manufactureWeek: Int?
  public var modelYear: Int?
  /// `digital` or `analog`.
  public var inputType: String
  public var blockCount: Int
  public var extensionBlockTypes: [String]
  public var extensionChecksumsOK: [Bool]
  public var displayID: String
  public var warnings: [String]

  enum CodingKeys: String, CodingKey {
    case manufacturer
    case productCode = "product_code"
    case serialNumber = "serial_number"
    case productName = "product_name"
    case serialString = "serial_string"
    case edidVersion = "edid_version"
    case extensionCount = "extension_count"
    case checksumOK = "checksum_ok"
    case maxImageSizeCm = "max_image_size_cm"
    case preferredMode = "preferred_mode"
    case manufactureYear = "manufacture_year"
    case manufactureWeek = "manufacture_week"
    case modelYear = "model_year"
    case inputType = "input_type"
    case blockCount = "block_count"
    case extensionBlockTypes = "extension_block_types"
    case extensionChecksumsOK = "extension_checksums_ok"
    case displayID = "display_id"
    case warnings
  }

  public init(_ e: EDID) {
    (manufacturer, productCode, serialNumber) = (e.manufacturer, e.productCode, e.serialNumber)
    (productName, serialString) = (e.productName?.text, e.serialString?.text)
    (edidVersion, extensionCount, checksumOK) = (e.version, e.extensionCount, e.checksumOK)
    maxImageSizeCm = e.maxImageSizeCm.map { [$0.width, $0.height] }
    preferredMode = e.preferredTiming.map {
      Timing(
        width: $0.width, height: $0.height, refreshHz: rounded($0.refreshHz, places: 3),
        pixelClockKHz: $0.pixelClockKHz, interlaced: $0.interlaced)
    }
    (manufactureYear, manufactureWeek, modelYear) = (e.manufactureYear, e.manufactureWeek, e.modelYear)
    inputType = e.isDigital ? "digital" : "analog"
    blockCount = e.blockCount
    extensionBlockTypes = e.extensions.map(\.kind.name)
    extensionChecksumsOK = e.extensions.map(\.checksumOK)
    displayID = DisplayID(edid: e).rawValue
    warnings = e.warnings.map(\.description)
  }
}
