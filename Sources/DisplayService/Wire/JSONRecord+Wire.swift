import DisplayModel
import DisplaySupport

// The records the CLI prints, built as JSON by hand: the value `JSON(encoding:)` makes from
// their `Encodable` conformances, key for key in `CodingKeys` order (WireFormatTests compare
// the two), without the generic encoder's start-up cost.

extension RectRecord: JSONRecord {
  public var json: JSON {
    .object([
      (CodingKeys.x.rawValue, .int(x)), (CodingKeys.y.rawValue, .int(y)),
      (CodingKeys.width.rawValue, .int(width)), (CodingKeys.height.rawValue, .int(height)),
    ])
  }
}

extension ModeRecord: JSONRecord {
  public var json: JSON {
    .object([
      (CodingKeys.id.rawValue, .int(id)), (CodingKeys.name.rawValue, .string(name)),
      (CodingKeys.width.rawValue, .int(width)), (CodingKeys.height.rawValue, .int(height)),
      (CodingKeys.refreshHz.rawValue, .double(refreshHz)), (CodingKeys.current.rawValue, .bool(current)),
      (CodingKeys.preferred.rawValue, .bool(preferred)), (CodingKeys.interlaced.rawValue, .bool(interlaced)),
      (CodingKeys.doublescan.rawValue, .bool(doublescan)), (CodingKeys.dotClockHz.rawValue, .int(dotClockHz)),
    ])
  }
}

extension OutputState.Millimetres: JSONRecord {
  public var json: JSON {
    .object([(CodingKeys.width.rawValue, .int(width)), (CodingKeys.height.rawValue, .int(height))])
  }
}

extension OutputState: JSONRecord {
  public var json: JSON { .object(members) }

  /// The members, for the records that place the output's name (or the event) before them.
  var members: [(String, JSON)] {
    [
      (CodingKeys.id.rawValue, .int(id)), (CodingKeys.connected.rawValue, .bool(connected)),
      (CodingKeys.connection.rawValue, .string(connection)), (CodingKeys.primary.rawValue, .bool(primary)),
      (CodingKeys.main.rawValue, .bool(main)), (CodingKeys.crtc.rawValue, .optional(crtc) { $0.json }),
      (CodingKeys.rotation.rawValue, .optional(rotation, JSON.string)),
      (CodingKeys.currentMode.rawValue, .optional(currentMode) { $0.json }),
      (CodingKeys.mm.rawValue, .optional(mm) { $0.json }),
      (CodingKeys.nonDesktop.rawValue, .bool(nonDesktop)),
      (CodingKeys.identity.rawValue, .optional(identity) { $0.json }),
    ]
  }
}

extension OutputRecord: JSONRecord {
  public var json: JSON { .object([(CodingKeys.name.rawValue, .string(name))] + state.members) }
}

extension EventRecord: JSONRecord {
  public var json: JSON {
    .object(
      [
        (CodingKeys.event.rawValue, .string(event)), (CodingKeys.output.rawValue, .string(output)),
        (CodingKeys.time.rawValue, .string(time)),
      ] + state.members + (graceSeconds.map { [(CodingKeys.graceSeconds.rawValue, .double($0))] } ?? []))
  }
}

extension EDIDRecord.Timing: JSONRecord {
  public var json: JSON {
    .object([
      (CodingKeys.width.rawValue, .int(width)), (CodingKeys.height.rawValue, .int(height)),
      (CodingKeys.refreshHz.rawValue, .double(refreshHz)), (CodingKeys.pixelClockKHz.rawValue, .int(pixelClockKHz)),
      (CodingKeys.interlaced.rawValue, .bool(interlaced)),
    ])
  }
}

extension EDIDRecord: JSONRecord {
  public var json: JSON {
    .object([
      (CodingKeys.manufacturer.rawValue, .string(manufacturer)), (CodingKeys.productCode.rawValue, .int(productCode)),
      (CodingKeys.serialNumber.rawValue, .optional(serialNumber) { .int(Int($0)) }),
      (CodingKeys.productName.rawValue, .optional(productName, JSON.string)),
      (CodingKeys.serialString.rawValue, .optional(serialString, JSON.string)),
      (CodingKeys.edidVersion.rawValue, .string(edidVersion)),
      (CodingKeys.extensionCount.rawValue, .int(extensionCount)),
      (CodingKeys.checksumOK.rawValue, .bool(checksumOK)),
      (CodingKeys.maxImageSizeCm.rawValue, .optional(maxImageSizeCm) { .array($0.map(JSON.int)) }),
      (CodingKeys.preferredMode.rawValue, .optional(preferredMode) { $0.json }),
      (CodingKeys.manufactureYear.rawValue, .optional(manufactureYear, JSON.int)),
      (CodingKeys.manufactureWeek.rawValue, .optional(manufactureWeek, JSON.int)),
      (CodingKeys.modelYear.rawValue, .optional(modelYear, JSON.int)),
      (CodingKeys.inputType.rawValue, .string(inputType)), (CodingKeys.blockCount.rawValue, .int(blockCount)),
      (CodingKeys.extensionBlockTypes.rawValue, .array(extensionBlockTypes.map(JSON.string))),
      (CodingKeys.extensionChecksumsOK.rawValue, .array(extensionChecksumsOK.map(JSON.bool))),
      (CodingKeys.displayID.rawValue, .string(displayID)),
      (CodingKeys.warnings.rawValue, .array(warnings.map(JSON.string))),
    ])
  }
}
