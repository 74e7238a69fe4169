import CXrandr
import DisplayKit
import DisplayModel
import DisplayRender
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// `displayd identify`: cards on every lit output, with the text drawn, gone after N seconds.
extension XServerTests {
  @Suite struct Identify {
    static let blue: UInt32 = 0x1F4E9A
    static let white: UInt32 = 0xFFFFFF
    /// The cards for a 1920x1080 main and a 1280x1024 beside it: 4/5 wide, 3/5 high, centred.
    static var expected: [String: XInspector.Rect] {
      [
        "VNC-0": XInspector.Rect(x: 192, y: 216, width: 1536, height: 648),
        "VNC-1": XInspector.Rect(x: 2048, y: 205, width: 1024, height: 614),
      ]
    }

    /// An Xvnc with two monitors; VNC-1 carries an ASUS EDID ("VA279").
    static func twoMonitors() throws -> (TestXServer, VNCClient) {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let edid = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/asus_aus27d1_0d64f5ca0b43.bin")))
      let connection = try XConnection(name: server.display)
      let output = try #require(try connection.readTopology().output(named: "VNC-1"))
      try connection.setEDID(edid, on: output.id)
      connection.flush()
      return (server, vnc)
    }

    /// Checks the cards on screen: where, what kind of window, and that the text is drawn.
    static func checkCards(_ x: XInspector) {
      let cards = x.identifyWindows().filter(\.mapped)
      #expect(Set(cards.compactMap(\.output)) == ["VNC-0", "VNC-1"], "\(cards)")
      for card in cards {
        guard let output = card.output, let rect = expected[output] else { continue }
        #expect(card.rect == rect, "\(output)'s card")
        #expect(card.overrideRedirect, "override-redirect")
        #expect(x.acceptsInput(card.id) == false, "never focused")
        #expect(x.inputShape(card.id) == [], "no input: clicks go through")
        #expect(x.stringProperty(Window(card.id), "WM_NAME") == "displayd identify: \(output)")
        // Inside the border: the card's blue, and white text across the title's rows.
        var colours: [UInt32: Int] = [:]
        for y in stride(from: rect.y + rect.height / 4, to: rect.y + rect.height * 3 / 4, by: 6) {
          for c in x.row(y: y, from: rect.x + rect.width / 10, to: rect.x + rect.width * 9 / 10) {
            colours[c, default: 0] += 1
          }
        }
        let total = colours.values.reduce(0, +)
        #expect(colours[blue, default: 0] * 2 > total, "\(output): mostly the card's blue")
        #expect(
          colours[white, default: 0] * 50 > total,
          "\(output): text drawn (\(colours[white, default: 0])/\(total) white)")
        #expect(x.pixel(x: rect.x - 4, y: rect.y - 4) != blue, "nothing outside the card")
      }
    }

    @Test func standaloneCardsOnEveryLitOutputGoneAfterNSeconds() throws {
      let (server, _) = try Self.twoMonitors()
      let x = try XInspector(server.display)
      let started = now()
      let cli = try ChildProcess([displaydPath, "identify", "--seconds", "2", "--display", server.display])
      #expect(eventually(within: 2) { x.identifyWindows().filter(\.mapped).count == 2 })
      Self.checkCards(x)
      #expect(cli.wait(timeout: 5) == 0)
      let elapsed = now() - started
      #expect(elapsed >= 2 && elapsed < 3.5, "ran \(elapsed) s")
      #expect(x.identifyWindows().isEmpty, "gone when it exits")
      let out = cli.drainOutput().out
      #expect(out == "VNC-0  1920x1080@60.00\nVNC-1  VA279  1280x1024@60.00\n", "\(out)")
    }

    @Test func throughTheDaemonTheCardsGoAfterNSecondsAndTheDaemonStays() throws {
      let (server, _) = try Self.twoMonitors()
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(display: server.display, environment: ["XDG_RUNTIME_DIR": runtime])
      let x = try XInspector(server.display)
      #expect(eventually(within: 2) { x.displaydWindows().count == 1 }, "VNC-1's placeholder")
      let env = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
      let cli = try ChildProcess(
        [displaydPath, "identify", "--seconds", "2", "--display", server.display], environment: env)
      #expect(eventually(within: 2) { x.identifyWindows().filter(\.mapped).count == 2 })
      let shown = now()
      #expect(daemon.waitFor("identify: 2 output(s) for 2 s") != nil, "the daemon shows them")
      // Above the daemon's own window on VNC-1.
      #expect(x.identifyWindows().contains { $0.id == x.topmostWindow() })
      Self.checkCards(x)
      #expect(eventually(within: 3) { x.identifyWindows().isEmpty }, "gone after 2 s")
      #expect(now() - shown > 1.5, "not before")
      #expect(cli.wait(timeout: 2) == 0)
      #expect(cli.drainOutput().out.contains("VNC-1  VA279  1280x1024@60.00"))
      #expect(daemon.isRunning && x.displaydWindows().count == 1, "the daemon and its window stay")

      // Asked twice, the cards are replaced, not doubled; bad requests are refused.
      let socket = try UnixClient(runtime + "/displayd/\(server.display).sock")
      try socket.send(
        Array("{\"request\":\"identify\",\"seconds\":1}\n{\"request\":\"identify\",\"seconds\":1}\n".utf8))
      #expect(socket.line()?.contains("\"ok\":true") == true)
      #expect(socket.line()?.contains("\"ok\":true") == true)
      #expect(x.identifyWindows().count == 2)
      for bad in [
        "{\"request\":\"identify\",\"seconds\":0}", "{\"request\":\"identify\",\"seconds\":\"3\"}",
        "{\"request\":\"identify\",\"seconds\":1e999}", "{\"request\":\"identify\",\"seconds\":99999999999999999999}",
      ] {
        try socket.send(Array((bad + "\n").utf8))
        #expect(socket.line()?.contains("\"ok\":false") == true, "\(bad)")
      }
      #expect(eventually(within: 2) { x.identifyWindows().isEmpty })
      #expect(daemon.isRunning)
    }

    @Test func badSecondsAreUsageErrors() throws {
      for bad in ["0", "-1", "601", "1.5", "x", ""] {
        let r = try displayd(["identify", "--seconds", bad, "--display", ":999"])
        #expect(r.status == 64, "--seconds '\(bad)': \(r.err)")
        #expect(r.err.contains("--seconds"))
      }
    }
  }
}

/// The card's drawing, without a server.
@Suite struct IdentifyCardTests {
  /// Bands of rows (inside the border) that hold white text.
  func textBands(_ lines: [String]) throws -> Int {
    let image = try #require(
      IdentifyRenderer.render(title: "HDMI-1", lines: lines, width: 1536, height: 648, titleHeight: 216))
    var bands = 0
    var inText = false
    for y in 20..<(image.height - 20) {
      let white = (40..<(image.width - 40)).contains { image.pixel(x: $0, y: y) == 0xFFFFFF }
      if white && !inText { bands += 1 }
      inText = white
    }
    return bands
  }

  @Test func theTitleAndEachLineAreDrawn() throws {
    #expect(try textBands(["1920x1080@60.00"]) == 2)
    #expect(try textBands(["DELL U2720Q", "1920x1080@60.00"]) == 3)
  }

  @Test func cardsSitInsideTheirOutputsWhateverTheSize() {
    for area in [
      Rect(x: 0, y: 0, width: 1920, height: 1080), Rect(x: 1920, y: 0, width: 1, height: 1),
      Rect(x: Int.max - 10, y: Int.max - 10, width: 32767, height: 32767),
    ] {
      let r = IdentifyCard.cardRect(in: area)
      #expect(r.width >= 1 && r.height >= 1 && r.width <= max(1, area.width) && r.height <= max(1, area.height))
    }
    #expect(
      IdentifyCard.cardRect(in: Rect(x: 1920, y: 0, width: 1280, height: 1024))
        == Rect(x: 2048, y: 205, width: 1024, height: 614))
  }
}
