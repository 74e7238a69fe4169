#if canImport(Glibc)
  import Glibc
#endif

/// One `poll()` over descriptors with the events wanted for each; no timeout unless given
/// (0: only look). Returns the returned events by descriptor, for those that have any.
public func pollDescriptors(_ wanted: [(fd: FileDescriptor, events: Int16)], timeoutMs: Int32 = -1)
  throws(SystemError) -> [FileDescriptor: Int16]
{
  var pfds = wanted.map { pollfd(fd: $0.fd.rawValue, events: $0.events, revents: 0) }
  try systemCall("poll") { poll(&pfds, nfds_t(pfds.count), timeoutMs) }
  var ready: [FileDescriptor: Int16] = [:]
  for p in pfds where p.revents != 0 { ready[FileDescriptor(rawValue: p.fd), default: 0] |= p.revents }
  return ready
}

/// Sleeps in `poll()` until one of `fds` is readable (or hung up); no timeout unless given.
/// Returns the indices of the ready descriptors.
public func waitReadable(_ fds: [FileDescriptor], timeoutMs: Int32 = -1) throws(SystemError) -> [Int] {
  let ready = try pollDescriptors(fds.map { ($0, pollIn) }, timeoutMs: timeoutMs)
  return fds.indices.filter { ready[fds[$0]] != nil }
}

public let pollIn = Int16(POLLIN)
public let pollOut = Int16(POLLOUT)
