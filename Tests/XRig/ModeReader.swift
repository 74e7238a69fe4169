import CXrandr
import Foundation

/// The server's mode list, read as any client reads it, and modes made by another client.
extension XInspector {
  /// One mode of the screen: its name and timings as the server has them.
  public struct ServerMode: Equatable {
    public var id: UInt
    public var name: String
    public var dotClock: UInt
    public var h: [Int]
    public var v: [Int]
  }

  /// Every mode of the screen, from `XRRGetScreenResources` (which also probes connectors).
  public func serverModes() -> [ServerMode] {
    guard let res = XRRGetScreenResources(display, root) else { return [] }
    defer { XRRFreeScreenResources(res) }
    return (0..<Int(res.pointee.nmode)).map { i in
      let m = res.pointee.modes[i]
      let name = String(decoding: UnsafeRawBufferPointer(start: m.name, count: Int(m.nameLength)), as: UTF8.self)
      return ServerMode(
        id: UInt(m.id), name: name, dotClock: UInt(m.dotClock),
        h: [Int(m.width), Int(m.hSyncStart), Int(m.hSyncEnd), Int(m.hTotal)],
        v: [Int(m.height), Int(m.vSyncStart), Int(m.vSyncEnd), Int(m.vTotal)])
    }
  }

  /// Creates a mode named `name` (any bytes a client likes) and adds it to `output`.
  @discardableResult
  public func createMode(named name: String, width: Int, height: Int, on output: RROutput) -> UInt {
    let id = name.withCString { text -> RRMode in
      var info = XRRModeInfo()
      info.width = UInt32(width)
      info.height = UInt32(height)
      info.dotClock = UInt(width * height * 60)
      info.hSyncStart = UInt32(width)
      info.hSyncEnd = UInt32(width)
      info.hTotal = UInt32(width)
      info.vSyncStart = UInt32(height)
      info.vSyncEnd = UInt32(height)
      info.vTotal = UInt32(height)
      info.name = UnsafeMutablePointer(mutating: text)
      info.nameLength = UInt32(name.utf8.count)
      return XRRCreateMode(display, root, &info)
    }
    XRRAddOutputMode(display, output, id)
    XSync(display, 0)
    return UInt(id)
  }
}
