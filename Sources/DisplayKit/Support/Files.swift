#if canImport(Glibc)
  import Glibc
#endif

/// Reads a whole file; the error names the path and the reason.
public func readFile(_ path: String) -> Result<[UInt8], SystemError> {
  guard let file = fopen(path, "rb") else { return .failure(.call("open \(path)", errno)) }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = fread(&chunk, 1, chunk.count, file)
    bytes += chunk[0..<n]
    if n < chunk.count { break }
  }
  if ferror(file) != 0 { return .failure(.call("read \(path)", errno)) }
  return .success(bytes)
}
