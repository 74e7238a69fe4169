import DisplayKit
import DisplayModel
import DisplaySupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct TheSyscallFunnel {
  @Test func retriesAnInterruptedCallAndNamesAFailedOne() throws {
    var calls = 0
    let n = try systemCall("fake") { () -> Int32 in
      calls += 1
      guard calls == 3 else {
        errno = EINTR
        return -1
      }
      return 5
    }
    #expect(n == 5 && calls == 3, "two EINTRs retried")
    #expect(throws: SystemError.call("close 12345", EBADF)) { try systemCall("close 12345") { close(12345) } }
    let bad = FileDescriptor(rawValue: -1)
    var byte: UInt8 = 0
    #expect(!bad.read(into: &byte))
  }
}
