// libFuzzer entry point for the EDID decoder, compiled into the DisplayKit sources by
// `make fuzz` (swiftc -sanitize=fuzzer,address). Decodes the input and renders every report
// of it, as `displayd edid` would.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEDID(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let edid = try? EDID(bytes: bytes) else { return 0 }
  let json = JSON.record(EDIDRecord(edid)).serialized()
  let text = EDIDReport.text(edid)
  // Every string reaching the user must be valid UTF-8 with no raw control bytes.
  precondition(json.utf8.allSatisfy { $0 >= 0x20 }, "control byte in JSON")
  precondition(String(validating: text.utf8, as: UTF8.self) != nil)
  _ = DisplayID(edid: edid)
  return 0
}
