// The EDID decoder under fuzzing: decodes the input and renders every report of it, as
// `displayd edid` would. `make fuzz` builds this with libFuzzer and ASan
// (-sanitize=fuzzer,address, libFuzzer's own main); every other build gets the seed runner.

import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport

#if !DISPLAYD_LIBFUZZER
  import FuzzRunner

  @main enum EDIDFuzzer {
    static func main() { SeedRunner.main(fuzzEDID) }
  }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEDID(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
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
