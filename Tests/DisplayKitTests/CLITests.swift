import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct CLIUsageTests {
  @Test func unknownSubcommandAndFlagAreUsageErrors() throws {
    let sub = try displayd(["frobnicate"])
    #expect(sub.status == 64)
    #expect(sub.err.contains("unknown command 'frobnicate'") && sub.err.contains("usage: displayd"))
    let flag = try displayd(["modes", "--bogus"])
    #expect(flag.status == 64)
    #expect(flag.err.contains("usage: displayd modes"))
    #expect(try displayd([]).status == 64)
    #expect(try displayd(["outputs", "extra"]).status == 64)
  }

  @Test func helpAndVersion() throws {
    let help = try displayd(["--help"])
    #expect(help.status == 0 && help.out.contains("watch"))
    for command in ["outputs", "modes", "watch", "edid", "profile"] {
      let r = try displayd([command, "--help"])
      #expect(r.status == 0 && r.out.hasPrefix("usage: displayd \(command)"), "\(command) --help")
    }
    let version = try displayd(["--version"])
    #expect(version.status == 0 && version.out.hasPrefix("displayd "))
  }

  @Test func unreachableDisplayIsStatus69AndNamesIt() throws {
    let r = try displayd(["outputs", "--display", ":987"])
    #expect(r.status == 69)
    #expect(r.err.contains(":987"))
  }
}

extension XServerTests {
  @Suite struct CLIErrors {
    @Test func unknownOutputIsStatus1AndListsTheOutputs() throws {
      let server = try TestXServer.vnc()
      let r = try displayd(["modes", "HDMI-7", "--display", server.display])
      #expect(r.status == 1)
      #expect(r.err.contains("HDMI-7") && r.err.contains("VNC-0"), "\(r.err)")
    }

    @Test func killingTheServerEndsWatchWithAClearMessage() throws {
      let server = try TestXServer.vnc()
      let watch = try WatchProcess(display: server.display)
      try server.crash()
      let status = watch.child.wait(timeout: 1)
      #expect(status == 1, "exit status 1 within 1 s of the server dying: \(String(describing: status))")
      let err = watch.child.drainOutput().err
      #expect(err.contains("lost the connection to X display '\(server.display)'"), "\(err)")
    }
  }

  @Suite struct Idle {
    @Test func watchMakesNoWakeupsWhileNothingHappens() throws {
      let server = try TestXServer.vnc()
      let watch = try WatchProcess(display: server.display)
      // Let start-up finish: the process is asleep in poll() once its state stops changing.
      let settled = eventually(within: 2) {
        (try? String(contentsOfFile: "/proc/\(watch.child.pid)/wchan", encoding: .utf8))?.contains("poll") == true
      }
      #expect(settled, "watch is asleep in poll()")
      // Nothing can wake it: no armed timer at all, and none in a short window either.
      #expect(armedTimers(watch.child.pid).isEmpty, "\(armedTimers(watch.child.pid))")
      let before = try wakeups(watch.child.pid)
      _ = pollFDs([], timeoutMs: 1_000)  // the observation window, not a wait for anything
      let after = try wakeups(watch.child.pid)
      #expect(after == before, "\(after - before) wake-ups in 1 s of idling")
    }
  }
}

@Suite struct HelpTests {
  @Test func theCommandColumnIsAligned() throws {
    let help = try displayd(["--help"]).out
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "Commands:" }.dropFirst()
      .prefix { !$0.isEmpty }
    #expect(lines.count == 12, "\(lines)")
    let columns = Set(
      lines.map { line -> Int in
        let start = line.firstIndex { $0 != " " } ?? line.startIndex
        let gap = line[start...].firstIndex(of: " ") ?? line.endIndex
        let text = line[gap...].firstIndex { $0 != " " } ?? line.endIndex
        return line.distance(from: line.startIndex, to: text)
      })
    #expect(columns.count == 1, "every description starts in the same column: \(lines)")
  }

  /// The commands in `--help`, in the usage line and in both shell completions are the same.
  @Test func completionsListTheCommandsTheHelpLists() throws {
    let help = try displayd(["--help"]).out
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    let listed = lines.drop { $0 != "Commands:" }.dropFirst().prefix { !$0.isEmpty }
      .map { String($0.split(separator: " ").first ?? "") }
    let usage = try #require(lines.first?.split(separator: "<").dropFirst().first?.split(separator: ">").first)
    #expect(usage.split(separator: "|").map(String.init) == listed, "the usage line")
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let bash = try String(contentsOf: repo.appendingPathComponent("completions/displayd.bash"), encoding: .utf8)
    let bashLine = try #require(bash.split(separator: "\n").first { $0.contains("commands=\"") })
    let bashCommands = bashLine.split(separator: "\"").dropFirst().first?.split(separator: " ").map(String.init)
    #expect(bashCommands == listed, "bash completion")
    let zsh = try String(contentsOf: repo.appendingPathComponent("completions/_displayd"), encoding: .utf8)
    let zshCommands = zsh.split(separator: "\n").filter { $0.hasPrefix("    '") }.map {
      String($0.dropFirst(5).prefix { $0 != ":" })
    }
    #expect(zshCommands == listed, "zsh completion")
  }
}
