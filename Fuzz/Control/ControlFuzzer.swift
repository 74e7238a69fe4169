// The control protocol under fuzzing: bytes from a client become requests and answers
// without a trap, the batch accounts for the bytes it consumed, and the caps hold. Built as
// the EDID fuzzer is.

import DisplayModel
import DisplayService
import DisplaySupport

#if !DISPLAYD_LIBFUZZER
  import FuzzRunner

  @main enum ControlFuzzer {
    static func main() { SeedRunner.main(fuzzControl) }
  }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let batch = ControlProtocol.requests(in: bytes)
  precondition(batch.consumed >= 0 && batch.consumed <= bytes.count)
  precondition(batch.items.count <= ControlProtocol.maxRequestsPerRead)
  precondition(batch.consumed == 0 || bytes[batch.consumed - 1] == 0x0A, "consumed ends a line")
  let lines = bytes[..<batch.consumed].filter { $0 == 0x0A }.count
  precondition(lines == batch.items.count, "one item a line")
  if batch.failure == nil { precondition(!bytes[batch.consumed...].contains(0x0A), "every complete line read") }
  for item in batch.items { precondition(oneLine(answer(item)), "a newline in an answer") }
  if let failure = batch.failure { precondition(oneLine(ControlProtocol.error(failure.message))) }
  return 0
}

/// An answer carrying everything the request held (its description names every payload), so
/// a request of any kind, including kinds added after this fuzzer, is answered the same way.
private func answer(_ item: ControlProtocol.Item) -> JSON {
  if case .malformed = item { return ControlProtocol.malformedAnswer }
  return ControlProtocol.error("\(item)")
}

/// An answer is one line whatever the request held.
private func oneLine(_ answer: JSON) -> Bool { !answer.serialized().utf8.contains(0x0A) }
