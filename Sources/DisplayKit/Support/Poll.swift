#if canImport(Glibc)
  import Glibc
#endif

/// One `poll()` over descriptors with the events wanted for each; no timeout unless given
/// (0: only look). Returns the returned events by descriptor, for those that have any.
public func pollDescriptors(_ wanted: [(fd: Int32, events: Int16)], timeoutMs: Int32 = -1) throws(SystemError)
  -> [Int32: Int16]
{
  var pfds = wanted.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
  while poll(&pfds, nfds_t(pfds.count), timeoutMs) < 0 {
    if errno != EINTR { throw .call("poll", errno) }
  }
  var ready: [Int32: Int16] = [:]
  for p in pfds where p.revents != 0 { ready[p.fd, default: 0] |= p.revents }
  return ready
}

public let pollIn = Int16(POLLIN)
public let pollOut = Int16(POLLOUT)
