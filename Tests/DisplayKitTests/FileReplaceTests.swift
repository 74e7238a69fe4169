import DisplayKit
import DisplayModel
import DisplaySupport
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct ReplacingAFile {
  private func write(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    close(fd)
  }

  private func contents(_ path: String) -> String? {
    guard case .success(let bytes) = readFile(path) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `profile save --write` run with sudo on a user's config must leave the config the user's:
  /// the new file keeps the owner and group of the one it replaces, as well as its mode.
  @Test func keepsTheOwnerGroupAndModeOfTheFileItReplaces() throws {
    try #require(geteuid() == 0, "only root can hand a file to another owner")
    let folder = try makeTempDirectory("displayd-replace")
    let path = folder + "/config.json5"
    try write(path, "{}\n")
    #expect(chown(path, 12345, 23456) == 0 && chmod(path, 0o640) == 0)
    try replaceFile(path, with: Array("{ main: 'DP-1' }\n".utf8))
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_uid == 12345 && info.st_gid == 23456, "owner \(info.st_uid):\(info.st_gid)")
    #expect(info.st_mode & 0o7777 == 0o640)
    #expect(contents(path) == "{ main: 'DP-1' }\n")
  }

  /// A linked config stays linked: the file the link names is replaced, not the link; and a
  /// link planted at the temporary name is never followed.
  @Test func followsTheConfigLinkButNeverALinkAtTheTemporaryName() throws {
    let folder = try makeTempDirectory("displayd-replace")
    let real = folder + "/real.json5"
    let link = folder + "/config.json5"
    try write(real, "{}\n")
    #expect(symlink(real, link) == 0)
    try replaceFile(link, with: Array("{ main: 'A' }\n".utf8))
    var info = stat()
    #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(contents(real) == "{ main: 'A' }\n")

    let victim = folder + "/victim"
    try write(victim, "untouched\n")
    #expect(symlink(victim, real + ".displayd-\(getpid())") == 0)
    #expect(throws: SystemError.self) { try replaceFile(link, with: Array("{ main: 'B' }\n".utf8)) }
    #expect(contents(victim) == "untouched\n")
    #expect(contents(real) == "{ main: 'A' }\n")
  }
}
