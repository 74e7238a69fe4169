import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayX11
import Testing

/// The RandR output manager's last read, against the fake server through the daemon's
/// layout: what the backend keeps of its reads answers the held view, the made modes to
/// release and the lit-but-disconnected heads, none of which heads alone could say.
@Suite struct RandRLastReadTests {
  typealias B = TopologyBuilder

  /// eDP-1 and HDMI-1 lit side by side, HDMI-1's monitor with an EDID, HDMI-1 primary; read
  /// once while it is connected.
  func desk() throws -> (FakeDisplayServer, [UInt8]) {
    let edid = try hostileEDID(name: "ALPHA", serial: "1")
    let server = FakeDisplayServer(
      B.topology(
        ["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1024], primary: "HDMI-1",
        edid: ["HDMI-1": edid]))
    _ = try server.read()
    return (server, edid)
  }

  /// The monitor goes, its modes and the primary with it; its CRTC stays lit and moves.
  func unplug(_ server: FakeDisplayServer) {
    server.change {
      $0.outputs[1].connection = .disconnected
      ($0.outputs[1].edid, $0.outputs[1].modes, $0.primary) = (nil, [], nil)
      $0.crtcs[1].x += 8
    }
  }

  /// A held head is the monitor last read on it (its EDID and modes, which the server no
  /// longer lists: heads alone could not say the mode its CRTC shows), at what the server
  /// shows there now.
  @Test func aHeldHeadIsTheMonitorLastReadOnItAtWhatItsCrtcShowsNow() throws {
    let (server, edid) = try desk()
    let before = try #require(server.heads(holding: .none).head(named: "HDMI-1"))
    unplug(server)
    let real = try #require(try server.read().head(named: "HDMI-1"))
    #expect(!real.connected && real.edid == nil && real.modes.isEmpty && real.enabled && real.rect == nil)
    let held = try #require(server.heads(holding: HeldHeads(["HDMI-1"])).head(named: "HDMI-1"))
    #expect(held.connected && held.edid == edid && held.modes == before.modes)
    #expect(held.rect == before.rect.map { Rect(x: $0.x + 8, y: $0.y, width: $0.width, height: $0.height) })
    #expect(held.mode == before.mode, "the mode its CRTC shows")
    #expect(server.heads(holding: .none).head(named: "HDMI-1") == real, "nothing held: the server's")
  }

  /// The primary a server drops with the monitor is kept while its head is held, and only then.
  @Test func thePrimaryIsKeptWhileItsHeadIsHeld() throws {
    let (server, _) = try desk()
    unplug(server)
    _ = try server.read()
    #expect(server.heads(holding: HeldHeads(["HDMI-1"], primary: "HDMI-1")).primary == "HDMI-1")
    #expect(server.heads(holding: HeldHeads([], primary: "HDMI-1")).primary == nil, "not held")
    #expect(server.heads(holding: HeldHeads(["HDMI-1"], primary: "eDP-1")).primary == nil, "another one's")
  }

  /// The modes displayd made are found in the last read, which lists a mode no output lists
  /// (heads could not show it); one a CRTC shows is kept.
  @Test func theModesDisplaydMadeThatNoCrtcShowsAreReleasedFromTheLastRead() throws {
    let (server, _) = try desk()
    let made = { (id: UInt, width: Int) in
      Mode(
        id: ModeID(rawValue: id), name: CustomModes.prefix + "\(width)x700", width: width, height: 700,
        dotClock: 60_000_000, hTotal: width + 100, vTotal: 800)
    }
    let (shown, unlisted) = (made(50, 1600), made(51, 1500))
    server.change {
      ($0.modes[shown.id], $0.modes[unlisted.id]) = (shown, unlisted)
      $0.outputs[0].modes.append(shown.id)
      ($0.crtcs[0].mode, $0.crtcs[0].width, $0.crtcs[0].height) = (shown.id, shown.width, shown.height)
    }
    #expect(try server.releaseUnusedModes().released.isEmpty, "not read yet")
    let heads = try server.read()
    #expect(!heads.heads.contains { $0.modes.contains { $0.name == unlisted.name } }, "no head lists it")
    let (released, problems) = try server.releaseUnusedModes()
    #expect(released == [unlisted.name] && problems.isEmpty)
    #expect(server.topology.modes[unlisted.id] == nil && server.topology.modes[shown.id] != nil)
  }

  /// Lit but disconnected is RandR's CRTC rule over the last read: a CRTC cloning a connected
  /// output onto a disconnected one is not.
  @Test func litButDisconnectedIsALitCrtcWithEveryOutputDisconnected() throws {
    let (server, _) = try desk()
    #expect(server.litButDisconnected.isEmpty)
    unplug(server)
    _ = try server.read()
    #expect(server.litButDisconnected == ["HDMI-1"])
    server.change {
      $0.crtcs[0].outputs.append($0.outputs[1].id)
      $0.crtcs[1] = Crtc(id: $0.crtcs[1].id, possibleOutputs: $0.crtcs[1].possibleOutputs)
      $0.outputs[1].crtc = $0.crtcs[0].id
    }
    _ = try server.read()
    #expect(server.litButDisconnected.isEmpty, "cloned with eDP-1, which is connected")
  }

  /// A change the heads do not show (the server moved a head to another CRTC at the same
  /// place and mode, no timestamp moved) needs no reconcile, and still reaches the next plan:
  /// the backend keeps every read, adopted or not.
  @Test func aCrtcChangeTheHeadsDoNotShowStillReachesTheNextPlan() throws {
    let server = FakeDisplayServer(B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1024]))
    let (hdmi, spare) = (server.topology.outputs[1].id, server.topology.crtcs[2].id)
    server.topology.outputs[1].possibleCrtcs.append(spare)
    server.topology.crtcs[2].possibleOutputs.append(hdmi)
    var config = Config()
    config.disconnectGrace = 0
    var lines: [String] = []
    let log = Logger(level: .debug) { lines.append($0) }
    let daemon = try Daemon(server: server, surfaces: nil, config: config, log: log)
    try daemon.start()
    let (heads, sent) = (daemon.heads, server.plans.count)
    let crtc = try #require(server.topology.output(hdmi)?.crtc)
    let lit = try #require(server.topology.crtcs.firstIndex { $0.id == crtc })
    server.change {
      $0.crtcs[2] = Crtc(
        id: spare, x: $0.crtcs[lit].x, y: $0.crtcs[lit].y, width: $0.crtcs[lit].width, height: $0.crtcs[lit].height,
        mode: $0.crtcs[lit].mode, outputs: [hdmi], possibleOutputs: $0.crtcs[2].possibleOutputs)
      $0.crtcs[lit] = Crtc(id: $0.crtcs[lit].id, possibleOutputs: $0.crtcs[lit].possibleOutputs)
      $0.outputs[1].crtc = spare
    }
    try daemon.handleServerEvents()
    #expect(daemon.heads == heads && server.plans.count == sent, "nothing to react to")
    #expect(lines.last?.contains("heads unchanged") == true, "\(lines.suffix(3))")
    let off = try Config.parse(Array("{monitors: [{match: {output: 'HDMI-1'}, enabled: false}]}".utf8), file: "c.json5")
    try daemon.reload(off)
    let turnedOff = server.plans.last?.changes.contains { $0.crtc == spare && $0.mode == nil }
    #expect(turnedOff == true, "planned on the CRTC the server has it on now")
    #expect(server.topology.crtcs.allSatisfy { !$0.outputs.contains(hdmi) }, "HDMI-1 off")
    #expect(daemon.heads.head(named: "HDMI-1")?.enabled == false)
  }
}
