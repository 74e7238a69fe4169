import CXrandr
import DisplayModel

#if canImport(Glibc)
  import Glibc
#endif

/// One reply from the server, owned here and read with every offset checked against the
/// length the reply itself declares: a count in it that claims more than was sent reads as
/// nothing, never past the end.
final class XReply {
  private let base: UnsafeMutableRawPointer
  /// The reply's size in bytes: the 32-byte header and `length` 4-byte units after it.
  let size: Int

  init(_ reply: UnsafeMutableRawPointer) {
    base = reply
    size = 32 + Int(reply.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) * 4
  }

  deinit { free(base) }

  func u8(_ offset: Int) -> UInt8 {
    offset >= 0 && offset < size ? base.load(fromByteOffset: offset, as: UInt8.self) : 0
  }
  func u16(_ offset: Int) -> UInt16 {
    offset >= 0 && offset + 2 <= size ? base.loadUnaligned(fromByteOffset: offset, as: UInt16.self) : 0
  }
  func u32(_ offset: Int) -> UInt32 {
    offset >= 0 && offset + 4 <= size ? base.loadUnaligned(fromByteOffset: offset, as: UInt32.self) : 0
  }
  func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }

  /// `count` 32-bit values from `offset`, as many as fit.
  func u32s(_ offset: Int, _ count: Int) -> [UInt32] {
    let fit = max(0, min(count, (size - offset) / 4))
    return (0..<fit).map { u32(offset + $0 * 4) }
  }

  /// `count` bytes from `offset`, as many as fit.
  func bytes(_ offset: Int, _ count: Int) -> [UInt8] {
    let fit = max(0, min(count, size - offset))
    guard fit > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: base + offset, count: fit))
  }

  /// Whether the `bytes.count` bytes from `offset` are `bytes` (false when they do not fit).
  func holds(_ bytes: [UInt8], at offset: Int) -> Bool {
    guard offset >= 0, offset <= size, bytes.count <= size - offset else { return false }
    return bytes.withUnsafeBytes { held in
      guard let start = held.baseAddress else { return true }
      return memcmp(base + offset, start, held.count) == 0
    }
  }
}

/// Takes the reply to one request, or nil when the server answered with an error (an output
/// or CRTC gone since the resources were read) or the connection broke.
func xcbReply<R>(_ get: (UnsafeMutablePointer<UnsafeMutablePointer<xcb_generic_error_t>?>) -> UnsafeMutablePointer<R>?)
  -> XReply?
{
  var error: UnsafeMutablePointer<xcb_generic_error_t>?
  let reply = get(&error)
  if let error { free(error) }
  return reply.map { XReply(UnsafeMutableRawPointer($0)) }
}

extension XConnection {
  /// One reading of the RandR state in two round trips, through XCB on the same connection:
  /// the screen resources and the primary output first; then every CRTC's and every output's
  /// information, its transform (RandR 1.3) and each output's `EDID` and `non-desktop`
  /// properties, all sent before any reply is awaited (Xlib would wait for each in turn).
  func readPipelined(_ options: ReadOptions) throws(DisplayError) -> Topology {
    try checkAlive()
    guard let c = XGetXCBConnection(display) else { throw .connectionLost(display: name) }
    let window = xcb_window_t(truncatingIfNeeded: root)
    if options.properties { internAtoms(Self.propertyAtoms) }
    let primaryCookie = xcb_randr_get_output_primary(c, window)
    let rangeCookie = screenRange == nil ? xcb_randr_get_screen_size_range(c, window) : nil
    let resources: XReply?
    if options.probe {
      let cookie = xcb_randr_get_screen_resources(c, window)
      resources = xcbReply { xcb_randr_get_screen_resources_reply(c, cookie, $0) }
    } else {
      let cookie = xcb_randr_get_screen_resources_current(c, window)
      resources = xcbReply { xcb_randr_get_screen_resources_current_reply(c, cookie, $0) }
    }
    let primary = xcbReply { xcb_randr_get_output_primary_reply(c, primaryCookie, $0) }
    if let rangeCookie, let r = xcbReply({ xcb_randr_get_screen_size_range_reply(c, rangeCookie, $0) }) {
      screenRange = (Int(r.u16(8)), Int(r.u16(10)), Int(r.u16(12)), Int(r.u16(14)))
    }
    guard let resources else {
      try checkXCB(c)
      throw .request(unknownFailure("RRGetScreenResources"))
    }
    let res = RandRResources(resources, last: &lastModes)
    // Every request of the second round trip goes out before any of its replies is read.
    let crtcCookies = res.crtcs.map { xcb_randr_get_crtc_info(c, $0, res.configTimestamp) }
    let transformCookies = randrVersion >= (1, 3) ? res.crtcs.map { xcb_randr_get_crtc_transform(c, $0) } : []
    let outputs = try readOutputs(c, res, options)
    let crtcs = try readCrtcs(c, res, crtcCookies, transformCookies)
    // Events that arrived while XCB waited for the replies wait in XCB's queue, where poll()
    // on the socket cannot see them: move them to Xlib's.
    XEventsQueued(display, QueuedAfterReading)
    let primaryID = primary.map { $0.u32(8) } ?? 0
    return Topology(
      screen: screenSize(), outputs: outputs, crtcs: crtcs, modes: res.modes,
      primary: primaryID == 0 ? nil : OutputID(rawValue: UInt(primaryID)),
      configTimestamp: UInt(res.configTimestamp), timestamp: UInt(res.timestamp))
  }

  /// The CRTCs, each lit one with the transform it shows its mode through (none read: the
  /// identity).
  private func readCrtcs(
    _ c: OpaquePointer, _ res: RandRResources, _ cookies: [xcb_randr_get_crtc_info_cookie_t],
    _ transformCookies: [xcb_randr_get_crtc_transform_cookie_t]
  ) throws(DisplayError) -> [Crtc] {
    var crtcs: [Crtc] = []
    for (i, id) in res.crtcs.enumerated() {
      let info = xcbReply { xcb_randr_get_crtc_info_reply(c, cookies[i], $0) }
      let transform =
        transformCookies.indices.contains(i)
        ? xcbReply { xcb_randr_get_crtc_transform_reply(c, transformCookies[i], $0) }.map(currentTransform) : nil
      guard let info else { continue }
      var crtc = crtc(CrtcID(rawValue: UInt(id)), info)
      if crtc.isActive, let transform { crtc.transform = CrtcTransform(transform) }
      crtcs.append(crtc)
    }
    try checkXCB(c)
    return crtcs
  }

  /// Sends every output's info request and its property requests, then reads them all.
  private func readOutputs(_ c: OpaquePointer, _ res: RandRResources, _ options: ReadOptions) throws(DisplayError)
    -> [Output]
  {
    let infoCookies = res.outputs.map { xcb_randr_get_output_info(c, $0, res.configTimestamp) }
    let atoms = options.properties ? Self.propertyAtoms.map { atomCache[$0] ?? 0 } : []
    // 8192 32-bit units: the largest EDID (256 blocks of 128 bytes).
    let propertyCookies = res.outputs.map { output in
      atoms.map { xcb_randr_get_output_property(c, output, xcb_atom_t(truncatingIfNeeded: $0), 0, 0, 8192, 0, 0) }
    }
    var outputs: [Output] = []
    for (i, id) in res.outputs.enumerated() {
      let info = xcbReply { xcb_randr_get_output_info_reply(c, infoCookies[i], $0) }
      let properties = propertyCookies[i].map { cookie in
        xcbReply { xcb_randr_get_output_property_reply(c, cookie, $0) }.flatMap(propertyBytes)
      }
      // An output that vanished mid-read is simply left out.
      guard let info else { continue }
      var output = self.output(OutputID(rawValue: UInt(id)), info)
      if output.connection == .connected && properties.count == 2 {
        output.edid = properties[0]
        output.nonDesktop = (properties[1]?.first ?? 0) != 0
      }
      outputs.append(output)
    }
    try checkXCB(c)
    return outputs
  }

  private func checkXCB(_ c: OpaquePointer) throws(DisplayError) {
    if xcb_connection_has_error(c) != 0 { throw .connectionLost(display: name) }
    try checkAlive()
  }

  private func crtc(_ id: CrtcID, _ r: XReply) -> Crtc {
    let mode = r.u32(20)
    let outputs = Int(r.u16(28))
    return Crtc(
      id: id, x: Int(r.i16(12)), y: Int(r.i16(14)), width: Int(r.u16(16)), height: Int(r.u16(18)),
      mode: mode == 0 ? nil : ModeID(rawValue: UInt(mode)), rotation: Rotation(rawValue: r.u16(24)),
      outputs: r.u32s(32, outputs).map { OutputID(rawValue: UInt($0)) },
      possibleOutputs: r.u32s(32 + outputs * 4, Int(r.u16(30))).map { OutputID(rawValue: UInt($0)) },
      rotations: Rotation(rawValue: r.u16(26)))
  }

  private func output(_ id: OutputID, _ r: XReply) -> Output {
    let crtcs = Int(r.u16(26))
    let modes = Int(r.u16(28))
    let clones = Int(r.u16(32))
    let name = r.bytes(36 + (crtcs + modes + clones) * 4, Int(r.u16(34)))
    let connection: DisplayModel.Connection =
      switch Int32(r.u8(24)) {
      case RR_Connected: .connected
      case RR_Disconnected: .disconnected
      default: .unknown
      }
    let crtc = r.u32(12)
    return Output(
      id: id, name: String(decoding: name, as: UTF8.self), connection: connection,
      crtc: crtc == 0 ? nil : CrtcID(rawValue: UInt(crtc)), mmWidth: Int(r.u32(16)), mmHeight: Int(r.u32(20)),
      modes: r.u32s(36 + crtcs * 4, modes).map { ModeID(rawValue: UInt($0)) }, preferredCount: Int(r.u16(30)),
      possibleCrtcs: r.u32s(36, crtcs).map { CrtcID(rawValue: UInt($0)) })
  }
}

/// The transform in force of an `RRGetCrtcTransform` reply: nine 16.16 numbers at 48, and the
/// filter's name after the pending filter's name (padded to 4 bytes) and parameters.
private func currentTransform(_ r: XReply) -> FixedTransform {
  let matrix = (0..<9).map { Int32(bitPattern: r.u32(48 + $0 * 4)) }
  let (pendingName, pendingParameters, name) = (Int(r.u16(88)), Int(r.u16(90)), Int(r.u16(92)))
  let nameAt = 96 + (pendingName + 3) / 4 * 4 + pendingParameters * 4
  return FixedTransform(matrix: matrix, filter: String(decoding: r.bytes(nameAt, name), as: UTF8.self))
}

/// A property's items as bytes, nil when the output does not have it; 16- and 32-bit items
/// keep their low byte, as the Xlib reader did.
private func propertyBytes(_ r: XReply) -> [UInt8]? {
  let format = Int(r.u8(1))
  guard r.u32(8) != 0, format == 8 || format == 16 || format == 32 else { return nil }
  let count = Int(r.u32(16))
  guard format != 8 else { return r.bytes(32, count) }
  let size = format / 8
  let fit = max(0, min(count, (r.size - 32) / size))
  return (0..<fit).map { i in
    size == 2 ? UInt8(truncatingIfNeeded: r.u16(32 + i * 2)) : UInt8(truncatingIfNeeded: r.u32(32 + i * 4))
  }
}

/// `RRGetScreenResources` (or its `Current` form, laid out alike) read from its reply.
private struct RandRResources {
  var timestamp: UInt32
  var configTimestamp: UInt32
  var crtcs: [UInt32]
  var outputs: [UInt32]
  var modes: [ModeID: Mode]

  /// `last`: the modes of the reply before and their bytes in it, reused when this reply
  /// lists the same bytes (the modes rarely change between reads), else replaced.
  init(_ r: XReply, last: inout ReadModes?) {
    timestamp = r.u32(8)
    configTimestamp = r.u32(12)
    let nCrtcs = Int(r.u16(16))
    let nOutputs = Int(r.u16(18))
    crtcs = r.u32s(32, nCrtcs)
    outputs = r.u32s(32 + nCrtcs * 4, nOutputs)
    let modeBase = 32 + (nCrtcs + nOutputs) * 4
    let modesEnd = min(r.size, modeBase + Int(r.u16(20)) * 32 + Int(r.u16(22)))
    if let last, last.bytes.count == max(0, modesEnd - modeBase), r.holds(last.bytes, at: modeBase) {
      modes = last.modes
      return
    }
    modes = Self.modes(r, modeBase)
    last = ReadModes(bytes: r.bytes(modeBase, modesEnd - modeBase), modes: modes)
  }

  private static func modes(_ r: XReply, _ modeBase: Int) -> [ModeID: Mode] {
    let nModes = Int(r.u16(20))
    var nameOffset = modeBase + nModes * 32
    let namesEnd = nameOffset + Int(r.u16(22))
    // Room for the modes the reply holds, not the count it claims: growing rehashes them all.
    var modes: [ModeID: Mode] = [:]
    modes.reserveCapacity(min(nModes, max(0, r.size - modeBase) / 32))
    for i in 0..<nModes where modeBase + i * 32 + 32 <= r.size {
      let m = modeBase + i * 32
      let id = ModeID(rawValue: UInt(r.u32(m)))
      let width = Int(r.u16(m + 4))
      let height = Int(r.u16(m + 6))
      let length = Int(r.u16(m + 26))
      let name = r.bytes(nameOffset, min(length, max(0, namesEnd - nameOffset)))
      nameOffset += length
      var mode = Mode(
        id: id, name: name.count == length ? String(decoding: name, as: UTF8.self) : "\(width)x\(height)",
        width: width, height: height, dotClock: UInt64(r.u32(m + 8)), hTotal: Int(r.u16(m + 16)),
        vTotal: Int(r.u16(m + 24)), flags: ModeFlags(xBits: UInt(r.u32(m + 28))))
      (mode.hSyncStart, mode.hSyncEnd) = (Int(r.u16(m + 12)), Int(r.u16(m + 14)))
      (mode.vSyncStart, mode.vSyncEnd) = (Int(r.u16(m + 20)), Int(r.u16(m + 22)))
      modes[id] = mode
    }
    return modes
  }
}

/// The modes a screen resources reply listed, with the bytes it listed them in.
struct ReadModes {
  var bytes: [UInt8]
  var modes: [ModeID: Mode]
}
