/// Where things are in an EDID, with the section of the VESA E-EDID Standard, Release A,
/// Revision 2 (EDID structure 1.4, which keeps 1.3's layout) each offset comes from.
enum EDIDLayout {
  /// Every block is 128 bytes (section 2.2: the base block and each extension).
  static let blockSize = 128
  /// 3.3 Header: 00h–07h, `00 FF FF FF FF FF FF 00`.
  static let header: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
  /// 3.4.1 ID Manufacturer Name: 08h–09h, three 5-bit letters, big-endian.
  static let manufacturer = 0x08
  /// 3.4.2 ID Product Code: 0Ah–0Bh, little-endian.
  static let productCode = 0x0A
  /// 3.4.3 ID Serial Number: 0Ch–0Fh, little-endian; 0 when unused.
  static let serialNumber = 0x0C
  /// 3.4.4 Week of Manufacture (or FFh: model year follows): 10h.
  static let week = 0x10
  /// 3.4.4 Year of Manufacture or Model Year, minus 1990: 11h.
  static let year = 0x11
  /// 3.5 EDID Structure Version & Revision: 12h (version), 13h (revision).
  static let version = 0x12
  static let revision = 0x13
  /// 3.6.1 Video Input Definition: 14h; bit 7 set for a digital input.
  static let videoInput = 0x14
  /// 3.6.2 Horizontal and Vertical Screen Size: 15h and 16h, in cm (0: unknown or an aspect ratio).
  static let screenWidthCm = 0x15
  static let screenHeightCm = 0x16
  /// 3.10 18 Byte Descriptors: four of them from 36h to 7Dh.
  static let descriptors = 0x36
  static let descriptorSize = 18
  static let descriptorCount = 4
  /// 3.11 Extension Block Count: 7Eh.
  static let extensionCount = 0x7E
  /// An extension block's first byte is its tag (section 2.2, the extension block tags).
  static let extensionTag = 0

  /// 3.10.2 Detailed Timing Descriptor (table 3.21), offsets within the descriptor: the pixel
  /// clock in 10 kHz units at 0–1 (0: a display descriptor, 3.10.3, instead).
  enum Timing {
    static let pixelClock = 0
    static let hActiveLow = 2, hBlankLow = 3, hHigh = 4
    static let vActiveLow = 5, vBlankLow = 6, vHigh = 7
    static let hFrontLow = 8, hSyncLow = 9, vFrontSyncLow = 10, syncHigh = 11
    /// Bit 7: interlaced.
    static let flags = 17
  }

  /// 3.10.3 Display Descriptors (table 3.22): the tag at byte 3, the data in bytes 5–17.
  enum Display {
    static let tag = 3
    static let data = 5
    /// 3.10.3.4 Display Product Name.
    static let productName: UInt8 = 0xFC
    /// 3.10.3.1 Display Product Serial Number.
    static let serialString: UInt8 = 0xFF
  }
}
