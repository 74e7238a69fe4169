import Foundation
import Testing
import XRig

extension XServerTests {
  @Suite struct DaemonOnDummy {
    /// Makes DUMMY1...DUMMYn connected without a CRTC, as a freshly plugged monitor on a
    /// desktop that configures nothing looks.
    func connectDark(_ server: TestXServer, _ count: Int) throws {
      for i in 1...count {
        try server.must(["xrandr", "--addmode", "DUMMY\(i)", "1024x768"])
        try server.must(["xrandr", "--addmode", "DUMMY\(i)", "800x600"])
        try server.must(["xrandr", "--output", "DUMMY\(i)", "--mode", "800x600", "--right-of", "DUMMY0"])
        try server.must(["xrandr", "--output", "DUMMY\(i)", "--off"])
      }
    }

    /// `WxH` takes the highest refresh at that size: 85 Hz among the dummy driver's modes.
    @Test func checkConfigShowsWhatEachMonitorWouldGet() throws {
      let server = try TestXServer.dummy()
      try connectDark(server, 2)
      let path = try makeTempDirectory("displayd-check") + "/config.json5"
      try
        "{ monitors: [ { match: { output: 'DUMMY1' }, mode: '1024x768' }, { match: { output: 'DUMMY2' }, ignore: true } ] }"
        .write(toFile: path, atomically: true, encoding: .utf8)
      let r = try displayd(["check-config", path, "--display", server.display])
      #expect(r.status == 0)
      #expect(r.out.contains("DUMMY0: main output, left as it is"), "\(r.out)")
      #expect(
        r.out.contains(
          "DUMMY1: mode 1024x768@85.00 (1024x768) at 2048,0 (right-of main), content placeholder, level normal"),
        "\(r.out)")
      #expect(r.out.contains("DUMMY2: ignored by a rule"))
      #expect(!(try server.must(["xrandr"]).contains("DUMMY1 connected 1024x768")), "check-config changed nothing")
    }

    @Test func darkOutputGetsCrtcModePlaceScreenAndWindow() throws {
      let server = try TestXServer.dummy()
      try connectDark(server, 1)
      let before = parseXrandrVerbose(try server.must(["xrandr", "--verbose"]))
      #expect(before.first { $0.name == "DUMMY1" }.map { $0.connected && $0.geometry == nil } == true)

      let daemon = try DaemonProcess(
        display: server.display, config: "{ monitors: [ { match: { output: 'DUMMY*' }, mode: '1024x768' } ] }")
      let x = try XInspector(server.display)
      let shown = eventually(within: 1) { x.displaydWindows().count == 1 }
      #expect(shown)
      let layout = try server.must(["xrandr"])
      #expect(layout.contains("DUMMY1 connected 1024x768+2048+0"), "\(layout)")
      #expect(layout.contains("current 3072 x 1536"), "the screen grew: \(layout)")
      #expect(x.displaydWindows().first?.rect == .init(x: 2048, y: 0, width: 1024, height: 768))
      #expect(daemon.changingReconciles.count == 1)
    }

    @Test func sevenDarkOutputsGetSevenWindowsWithoutOverlap() throws {
      let server = try TestXServer.dummy()
      try connectDark(server, 7)
      let daemon = try DaemonProcess(display: server.display, config: "{ defaults: { mode: '1024x768' } }")
      let x = try XInspector(server.display)
      #expect(eventually(within: 2) { x.displaydWindows().count == 7 })
      let windows = x.displaydWindows()
      let rects = windows.map(\.rect)
      for (i, a) in rects.enumerated() {
        for b in rects[(i + 1)...] {
          let overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
          #expect(!overlap, "\(a) overlaps \(b)")
        }
      }
      let outputs = parseXrandrVerbose(try server.must(["xrandr", "--verbose"]))
      for w in windows {
        let output = outputs.first { $0.name == w.output }
        #expect(output?.geometry == w.rect.description, "\(w.output ?? "?") is driven where its window is")
      }
      #expect(Set(windows.compactMap(\.output)) == Set((1...7).map { "DUMMY\($0)" }))
      #expect(Set(rects.map(\.x)) == Set((0..<7).map { 2048 + $0 * 1024 }), "a row right of main, no gaps")
      #expect(rects.allSatisfy { $0.y == 0 && $0.width == 1024 && $0.height == 768 })
      let screen = try server.must(["xrandr"]).split(separator: "\n").first ?? ""
      #expect(screen.contains("current 9216 x 1536, maximum 32767 x 32767"), "\(screen)")
      #expect(daemon.changingReconciles.count == 1, "all seven in one reconcile")
    }
  }
}

@Suite struct BadConfigTests {
  func write(_ text: String) throws -> String {
    let path = try makeTempDirectory("displayd-bad") + "/config.json5"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func eachMistakeIsStatus78WithFileAndLineOrKey() throws {
    let cases: [(String, String)] = [
      ("{\n  defaults: {\n    mode: 'preferred'\n    level: 'above',\n  },\n}\n", ":4: syntax error"),
      ("{ monitors: [ { match: { output: 7 } } ] }", ":1: monitors[0].match.output: expected a string"),
      ("{ defaults: { mode: '1920x1080@sixty' } }", ":1: defaults.mode: '1920x1080@sixty' is not valid: expected"),
      ("{ placeholder: { background: 'chartreuse-ish' } }", ":1: placeholder.background: 'chartreuse-ish' is not valid"),
    ]
    for (text, expected) in cases {
      let path = try write(text)
      // run never gets as far as the X server: no display is needed to reject a config.
      let run = try displayd(["run", "--config", path, "--display", ":987"])
      #expect(run.status == 78, "\(text)")
      #expect(run.err.contains(path + expected), "\(run.err)")
      let check = try displayd(["check-config", path])
      #expect(check.status == 78)
      #expect(check.err == run.err, "check-config reports the same")
    }
  }

  @Test func goodConfigChecksAndAMissingFileIsNamed() throws {
    let path = try write("{ defaults: { mode: 'highest' } }")
    let ok = try displayd(["check-config", path, "--display", ":987"])
    #expect(ok.status == 0 && ok.out.hasPrefix("\(path): OK"))
    let missing = try displayd(["run", "--config", "/nonexistent/displayd.json5"])
    #expect(missing.status == 78 && missing.err.contains("/nonexistent/displayd.json5: cannot read"))
    #expect(try displayd(["run", "--log-level", "loud"]).status == 64)
  }
}
