import DisplayModel

/// One X protocol error, as the error handler recorded it.
public struct XErrorRecord: Hashable, Sendable, CustomStringConvertible {
  public var errorCode: UInt8
  public var requestCode: UInt8
  public var minorCode: UInt8
  public var resourceID: UInt
  public var serial: UInt
  public var text: String

  public init(
    errorCode: UInt8, requestCode: UInt8, minorCode: UInt8, resourceID: UInt, serial: UInt,
    text: String
  ) {
    self.errorCode = errorCode
    self.requestCode = requestCode
    self.minorCode = minorCode
    self.resourceID = resourceID
    self.serial = serial
    self.text = text
  }

  public var description: String {
    "\(text) (error \(errorCode), request \(requestCode).\(minorCode), resource 0x"
      + String(resourceID, radix: 16) + ")"
  }

  /// The failure as the daemon gets it: this record's text.
  public var failure: RequestFailure { RequestFailure(description) }
}
