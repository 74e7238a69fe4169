import DisplayKit
import DisplayModel
import DisplayService
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// Every number the config takes is bounded, and a bad one is a config error naming the key
/// (exit 78), never a trap later in the daemon.
@Suite struct ConfigBoundsTests {
  func parse(_ text: String) throws(ConfigError) -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  /// Configs with one bad number each, and the key path the error must name.
  static let bad: [(text: String, key: String)] = [
    ("{ hooks: { timeout_seconds: Infinity } }", "hooks.timeout_seconds"),
    ("{ hooks: { timeout_seconds: -Infinity } }", "hooks.timeout_seconds"),
    ("{ hooks: { timeout_seconds: NaN } }", "hooks.timeout_seconds"),
    ("{ hooks: { timeout_seconds: 1e11 } }", "hooks.timeout_seconds"),
    ("{ hooks: { timeout_seconds: 3601 } }", "hooks.timeout_seconds"),
    ("{ hooks: { timeout_seconds: 0 } }", "hooks.timeout_seconds"),
    ("{ defaults: { position: '3000000000,0' } }", "defaults.position"),
    ("{ defaults: { position: '40000,0' } }", "defaults.position"),
    ("{ defaults: { position: '0,32768' } }", "defaults.position"),
    ("{ defaults: { position: '99999999999999999999999,0' } }", "defaults.position"),
    ("{ monitors: [{ match: { output: 'x' }, position: '0,-1' }] }", "monitors[0].position"),
    ("{ defaults: { mode: '40000x1080' } }", "defaults.mode"),
    ("{ defaults: { mode: '1920x99999999999999999999' } }", "defaults.mode"),
    ("{ defaults: { mode: '0x1080' } }", "defaults.mode"),
    ("{ defaults: { mode: '1920x1080@1e300' } }", "defaults.mode"),
    ("{ defaults: { mode: '1920x1080@inf' } }", "defaults.mode"),
    ("{ defaults: { mode: '1920x1080@nan' } }", "defaults.mode"),
    ("{ defaults: { mode: '1920x1080@1001' } }", "defaults.mode"),
    ("{ defaults: { mode: '1920x1080@0' } }", "defaults.mode"),
    ("{ monitors: [{ match: { output: 'x' }, mode: '1x1@-60' }] }", "monitors[0].mode"),
    ("{ monitors: [{ match: { product_code: Infinity } }] }", "monitors[0].match.product_code"),
    ("{ monitors: [{ match: { product_code: NaN } }] }", "monitors[0].match.product_code"),
    ("{ monitors: [{ match: { product_code: 1e300 } }] }", "monitors[0].match.product_code"),
    ("{ monitors: [{ match: { product_code: 65536 } }] }", "monitors[0].match.product_code"),
    ("{ monitors: [{ match: { product_code: -1 } }] }", "monitors[0].match.product_code"),
    ("{ placeholder: { details: NaN } }", "placeholder.details"),
    ("{ main: Infinity }", "main"),
    ("{ disconnect_grace: Infinity }", "disconnect_grace"),
    ("{ disconnect_grace: NaN }", "disconnect_grace"),
    ("{ disconnect_grace: -0.1 }", "disconnect_grace"),
    ("{ disconnect_grace: 60.5 }", "disconnect_grace"),
    ("{ disconnect_grace: 'soon' }", "disconnect_grace"),
  ]

  @Test(arguments: bad.indices) func aBadNumberIsAConfigErrorNamingTheKey(_ i: Int) {
    let (text, key) = Self.bad[i]
    do {
      _ = try parse(text)
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.keyPath == key, "\(text): \(error)")
    }
  }

  /// Found by the config fuzzer: a bad word with invalid UTF-8 sent the syntax locator before
  /// the start of the text, and counting its line trapped.
  @Test func aBadWordWithInvalidUTF8IsALocatedSyntaxError() {
    let bytes =
      Array("{ hooks: {\n timeout_seconds: ".utf8) + [0xC9] + Array("nfinityH".utf8)
      + [UInt8](repeating: 0xFF, count: 40) + Array(" } }\n".utf8)
    do {
      _ = try Config.parse(bytes, file: "fuzz.json5")
      Issue.record("accepted")
    } catch {
      #expect(error.line == 2, "\(error)")
    }
  }

  /// Found by the config fuzzer: Foundation's JSON5 scanner traps on 0xFF in an unquoted key.
  @Test func invalidUTF8IsALocatedSyntaxError() {
    let bytes =
      Array("{ hooks: {\n timeou".utf8) + [UInt8](repeating: 0xFF, count: 36) + Array("t_seconds: Infinity } }\n".utf8)
    do {
      _ = try Config.parse(bytes, file: "fuzz.json5")
      Issue.record("accepted")
    } catch {
      #expect(error.line == 2 && error.message.contains("UTF-8"), "\(error)")
    }
    #expect((try? Config.parse(Array("{ placeholder: { text: 'ünï ✓' } }".utf8), file: "f")) != nil)
  }

  /// Found by the config fuzzer (16.5 million runs in): Foundation's JSON5 scanner traps on
  /// a number whose exponent has no digits; a SIGHUP with such a file ended the daemon.
  @Test func aMalformedNumberIsALocatedSyntaxErrorNotATrap() {
    for text in ["{ hooks: { timeout_seconds: 1.5e+ } }", "{ hooks: {\n timeout_seconds: 1e- } }", "{ a: 1.2.3 }"] {
      do {
        _ = try Config.parse(Array(text.utf8), file: "fuzz.json5")
        Issue.record("accepted: \(text)")
      } catch {
        #expect(error.line != nil && error.message.hasPrefix("syntax error: invalid number"), "\(error)")
      }
    }
  }

  /// The scanner that guards Foundation's decoder must not refuse JSON5 that Foundation reads.
  @Test func validJSON5InAllItsFormsStillParses() throws {
    let texts: [[UInt8]] = [
      [0xEF, 0xBB, 0xBF] + Array("{ main: 'eDP-1' }".utf8),  // a byte-order mark
      Array("{ placeholder: { text: 'one \\\r\ntwo' } }".utf8),  // a line continuation, CR LF
      Array("{ placeholder: { text: 'one \\\ntwo' } }".utf8),  // a line continuation, LF
      Array("// a comment in a CR-only file\r{ main: 'eDP-1' }".utf8),
      Array("{ monitors: [ { match: { product_code: 0x1F } } ], hooks: { timeout_seconds: .5 } }".utf8),
      Array("{ hooks: { timeout_seconds: 5. }, /* trailing */ }".utf8),
      Array("{ hooks: { timeout_seconds: +2 } } // the end".utf8),
    ]
    for text in texts {
      #expect(throws: Never.self, "\(String(decoding: text, as: UTF8.self))") {
        _ = try Config.parse(text, file: "valid.json5")
      }
    }
    // An escaped unquoted key gets past the scanner to Foundation (which keeps it escaped).
    do {
      _ = try Config.parse(Array("{ \\u006dain: 'eDP-1' }".utf8), file: "valid.json5")
    } catch {
      #expect(!error.message.hasPrefix("syntax error"), "\(error)")
    }
  }

  @Test func theBoundsThemselvesAreAccepted() throws {
    let config = try parse(
      """
      { defaults: { mode: '32767x32767@1000', position: '32767,32767' },
        monitors: [{ match: { product_code: 65535 }, mode: '1x1@0.5', position: '0,0' }],
        hooks: { timeout_seconds: 3600 } }
      """)
    #expect(config.defaults.mode == .sizeRate(width: 32767, height: 32767, refresh: 1000))
    #expect(config.defaults.position == .absolute(x: 32767, y: 32767))
    #expect(config.monitors[0].mode == .sizeRate(width: 1, height: 1, refresh: 0.5))
    #expect(config.hooks.timeoutSeconds == 3600)
    #expect(try parse("{ hooks: { timeout_seconds: 0.001 } }").hooks.timeoutSeconds == 0.001)
  }

  @Test func checkConfigAndRunExit78WithTheKeyPath() throws {
    let dir = try makeTempDirectory("displayd-bounds")
    let cases = [
      ("{ hooks: { timeout_seconds: Infinity } }", "hooks.timeout_seconds"),
      ("{ hooks: { timeout_seconds: 1e11 } }", "hooks.timeout_seconds"),
      ("{ defaults: { position: '3000000000,0' } }", "defaults.position"),
      ("{ defaults: { position: '40000,0' } }", "defaults.position"),
      ("{ defaults: { mode: '1920x1080@inf' } }", "defaults.mode"),
      ("{ defaults: { mode: '99999x1080' } }", "defaults.mode"),
      ("{ monitors: [{ match: { product_code: NaN } }] }", "monitors[0].match.product_code"),
    ]
    for (i, (text, key)) in cases.enumerated() {
      let path = dir + "/bad\(i).json5"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let check = try displayd(["check-config", path, "--display", ":32000"], timeout: 5)
      #expect(check.status == 78 && check.err.contains(path) && check.err.contains(key), "\(text): \(check.err)")
      let run = try displayd(["run", "--config", path, "--display", ":32000"], timeout: 5)
      #expect(run.status == 78 && run.err.contains(key), "\(text): \(run.err)")
    }
  }

  @Test func aConfigFIFOIsRefusedWithoutBlocking() throws {
    let dir = try makeTempDirectory("displayd-fifo")
    let fifo = dir + "/config.json5"
    #expect(mkfifo(fifo, 0o600) == 0)
    let check = try displayd(["check-config", fifo], timeout: 3)
    #expect(check.status == 78 && check.err.contains("not a regular file"), "\(check.err)")
    let run = try displayd(["run", "--config", fifo, "--display", ":32000"], timeout: 3)
    #expect(run.status == 78 && run.err.contains("not a regular file"), "\(run.err)")
  }

  @Test func anOversizedConfigIsRefusedNamingTheLimit() throws {
    let dir = try makeTempDirectory("displayd-big")
    let path = dir + "/config.json5"
    try ("{" + String(repeating: " ", count: 2 << 20) + "}").write(toFile: path, atomically: true, encoding: .utf8)
    let check = try displayd(["check-config", path], timeout: 5)
    #expect(check.status == 78 && check.err.contains("1048576 bytes"), "\(check.err)")
  }

  @Test func edidOfADeviceOrAHugeFileFailsQuickly() throws {
    // Under an address-space limit, so a reader without a cap fails instead of eating the
    // machine's memory.
    let zero = try runCommand(
      ["/bin/sh", "-c", "ulimit -v 4000000; exec \"$0\" edid /dev/zero", displaydPath], timeout: 5)
    #expect(
      zero.status == 1 && zero.err.contains("/dev/zero") && zero.err.contains("not a regular file"), "\(zero.err)")
    let dir = try makeTempDirectory("displayd-edid")
    let big = dir + "/big.bin"
    #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 100_000)))
    let r = try displayd(["edid", big], timeout: 5)
    #expect(r.status == 1 && r.err.contains("65536 bytes"), "\(r.err)")
    let fixture = try displayd(["edid", fixtureFolder + "/acer_acr001a_34cdf6327a45.bin"])
    #expect(fixture.status == 0, "a normal EDID file still decodes")
  }
}
