import Foundation
import Testing
import XRig

/// The fish completion offers what the bash one does, asked through the shells themselves.
@Suite struct FishCompletionTests {
  static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  // No displayd on PATH: the outputs and profiles each shell would ask the tool for are none
  // for both. A HOME of its own: fish makes its config and data folders there.
  static let environment: [String: String] = {
    let home = (try? makeTempDirectory("displayd-fish-home")) ?? NSTemporaryDirectory()
    return [
      "PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home + "/.config",
      "XDG_DATA_HOME": home + "/.local/share",
    ]
  }()

  /// What bash's `_displayd` offers for the line (the words after "displayd", the last one
  /// the word being typed).
  func bash(_ words: [String]) throws -> Set<String> {
    let script = """
      source "$0"; COMP_WORDS=(displayd "$@"); COMP_CWORD=$#; _displayd; printf '%s\\n' "${COMPREPLY[@]}"
      """
    let r = try runCommand(
      ["bash", "-c", script, Self.repo + "/completions/displayd.bash"] + words, environment: Self.environment)
    #expect(r.status == 0, "bash: \(r.err)")
    return Set(r.out.split(separator: "\n").map(String.init))
  }

  /// What fish's `complete -C` offers for the same line, without the descriptions.
  func fish(_ words: [String]) throws -> Set<String> {
    let line = (["displayd"] + words).joined(separator: " ")
    let r = try runCommand(
      [
        "fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", Self.repo + "/completions/displayd.fish",
        line,
      ],
      environment: Self.environment)
    #expect(r.status == 0, "fish: \(r.err)")
    return Set(r.out.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
  }

  @Test func fishOffersWhatBashOffers() throws {
    defer { try? FileManager.default.removeItem(atPath: Self.environment["HOME"]!) }
    #expect(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "no fish: apt-get install fish (TEST_PACKAGES)")
    let commands = [
      "run", "status", "reload", "apply", "check-config", "outputs", "modes", "watch", "edid", "screenshot", "identify",
      "profile",
    ]
    var lines: [[String]] = [[""], ["--"], ["profile", ""]]
    // Right after edid and check-config, bash offers files only: an option first.
    lines += commands.map { ["edid", "check-config"].contains($0) ? [$0, "--display", ":0", "--"] : [$0, "--"] }
    lines += ["list", "switch", "cycle", "save"].map { ["profile", $0, "--"] }
    lines += [
      ["profile", "switch", "--layout", ""], ["profile", "import", ""], ["profile", "import", "kanshi", "--"],
      ["run", "--log-level", ""], ["run", "--backend", ""], ["identify", "--seconds", ""],
      ["--help"], ["run", "--conf"], ["modes", "--p"],
    ]
    for words in lines {
      var offered = (bash: try bash(words), fish: try fish(words))
      // With nothing typed, fish offers no options (bash does): the words alone are compared.
      if words.last == "" {
        offered.bash = offered.bash.filter { !$0.hasPrefix("-") }
        offered.fish = offered.fish.filter { !$0.hasPrefix("-") }
      }
      #expect(!offered.bash.isEmpty, "bash offers something for \(words)")
      #expect(offered.fish == offered.bash, "displayd \(words.joined(separator: " "))")
    }
    // The commands are those `--help` lists.
    let help = try displayd(["--help"]).out.split(separator: "\n", omittingEmptySubsequences: false)
    let listed = help.drop { $0 != "Commands:" }.dropFirst().prefix { !$0.isEmpty }
      .map { String($0.split(separator: " ").first ?? "") }
    #expect(try fish([""]) == Set(listed))
    #expect(Set(listed) == Set(commands))
  }
}
