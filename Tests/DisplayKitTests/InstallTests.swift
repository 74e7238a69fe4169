import DisplayKit
import DisplayModel
import DisplayService
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct InstallTests {
  @Test func installThenUninstallLeavesNothingAndTheManPageRenders() throws {
    let root = try makeTempDirectory("displayd-destdir")
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    let make = [
      "make", "-C", repo, "--no-print-directory", "BIN=\(displaydPath)", "DESTDIR=\(root)", "PREFIX=/usr/local",
    ]
    let install = try runCommand(make + ["install"])
    #expect(install.status == 0, "\(install.err)")
    let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter { !isDirectory(root + "/" + $0) }
      .sorted()
    // The config's man page (section 5) is installed when the tree has it.
    let man5 = FileManager.default.fileExists(atPath: repo + "/docs/displayd.5")
    #expect(
      files
        == [
          "usr/local/bin/displayd", "usr/local/lib/systemd/user/displayd.service",
          "usr/local/share/bash-completion/completions/displayd",
          "usr/local/share/fish/vendor_completions.d/displayd.fish", "usr/local/share/man/man1/displayd.1",
        ] + (man5 ? ["usr/local/share/man/man5/displayd.5"] : []) + ["usr/local/share/zsh/site-functions/_displayd"])
    let unit = try String(contentsOfFile: root + "/usr/local/lib/systemd/user/displayd.service", encoding: .utf8)
    #expect(unit.contains("ExecStart=/usr/local/bin/displayd run\n"))
    let man = try runCommand(
      ["man", "-l", root + "/usr/local/share/man/man1/displayd.1"],
      environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin"])
    #expect(man.status == 0 && man.out.contains("check-config") && man.out.contains("EXIT STATUS"))
    let uninstall = try runCommand(make + ["uninstall"])
    #expect(uninstall.status == 0)
    let left = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
    #expect(left.isEmpty, "left behind: \(left)")
  }

  @Test func theInstalledUnitPassesSystemdAnalyzeVerify() throws {
    let prefix = try makeTempDirectory("displayd-prefix")
    let runtime = try runtimeDirectory()
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    #expect(
      try runCommand(["make", "-C", repo, "--no-print-directory", "BIN=\(displaydPath)", "PREFIX=\(prefix)", "install"])
        .status == 0)
    let unit = prefix + "/share/systemd/user/displayd.service"
    let r = try runCommand(
      ["systemd-analyze", "--user", "verify", unit],
      environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": prefix + "/share/man", "PATH": "/usr/bin:/bin"])
    #expect(r.status == 0, "\(r.out) \(r.err)")
  }
}

func isDirectory(_ path: String) -> Bool {
  var dir: ObjCBool = false
  return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && dir.boolValue
}
