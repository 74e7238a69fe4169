// libFuzzer entry point for the control protocol, compiled into the DisplayKit sources by
// `make fuzz`: bytes from a client become requests and answers without a trap, the batch
// accounts for the bytes it consumed, and the caps hold.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let batch = ControlProtocol.requests(in: bytes)
  precondition(batch.consumed >= 0 && batch.consumed <= bytes.count)
  precondition(batch.items.count <= ControlProtocol.maxRequestsPerRead)
  precondition(batch.consumed == 0 || bytes[batch.consumed - 1] == 0x0A, "consumed ends a line")
  let lines = bytes[..<batch.consumed].filter { $0 == 0x0A }.count
  precondition(lines == batch.items.count, "one item a line")
  if batch.failure == nil { precondition(!bytes[batch.consumed...].contains(0x0A), "every complete line read") }
  for item in batch.items {
    let answer: JSON
    switch item {
    case .malformed: answer = ControlProtocol.malformedAnswer
    case .request(let name): answer = ControlProtocol.error("unknown request '\(name)'")
    case .identify(let seconds): answer = ControlProtocol.error("identify \(seconds)")
    case .profileSwitch(let request): answer = ControlProtocol.error("profile switch \(request)")
    case .apply(let profile): answer = ControlProtocol.error("apply \(profile ?? "-")")
    }
    // An answer is one line whatever the request held.
    precondition(!answer.serialized().utf8.contains(0x0A), "a newline in an answer")
  }
  return 0
}
