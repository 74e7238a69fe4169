import CXrandr
import DisplayModel

extension XConnection {
  /// XInput 2's opcode, announcing the version this client speaks once; false without XI2.
  func xiReady() -> Bool {
    if xiOpcode >= 0 { return true }
    var opcode: Int32 = 0
    var event: Int32 = 0
    var error: Int32 = 0
    guard XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0 else { return false }
    var major: Int32 = 2
    var minor: Int32 = 2
    guard XIQueryVersion(display, &major, &minor) == Success else { return false }
    xiOpcode = Int(opcode)
    return true
  }

  /// The event mask for every device on the root window: raw motion while pointer tracking
  /// wants it, hierarchy changes while touch devices are mapped (XISelectEvents replaces the
  /// whole mask of a device id, so both go in one).
  func xiAllDevicesMask() -> [UInt8] {
    var mask = [UInt8](repeating: 0, count: 4)
    if xiRawMotion { mask[Int(XI_RawMotion) >> 3] |= UInt8(1 << (Int(XI_RawMotion) & 7)) }
    if xiHierarchy { mask[Int(XI_HierarchyChanged) >> 3] |= UInt8(1 << (Int(XI_HierarchyChanged) & 7)) }
    return mask
  }

  /// Asks for (or stops) XInput hierarchy events, so a device plugged later is seen; false
  /// without XI2.
  public func selectInputHierarchy(_ on: Bool) -> Bool {
    guard xiReady() else { return false }
    xiHierarchy = on
    var mask = xiAllDevicesMask()
    mask.withUnsafeMutableBufferPointer { m in
      var masks = [XIEventMask(deviceid: XIAllDevices, mask_len: Int32(m.count), mask: m.baseAddress)]
      _ = XISelectEvents(display, root, &masks, 1)
    }
    XFlush(display)
    return true
  }

  /// The devices a touch glob may map: slave and floating pointers that have a
  /// `Coordinate Transformation Matrix`. Empty without XI2.
  public func inputDevices() -> [InputDevice] {
    guard xiReady() else { return [] }
    let matrix = atom("Coordinate Transformation Matrix", create: false)
    guard matrix != 0 else { return [] }
    var count: Int32 = 0
    guard let info = XIQueryDevice(display, XIAllDevices, &count) else { return [] }
    defer { XIFreeDeviceInfo(info) }
    var devices: [InputDevice] = []
    for device in buffer(info, count) where device.use == XISlavePointer || device.use == XIFloatingSlave {
      guard let name = device.name, hasProperty(Int(device.deviceid), matrix) else { continue }
      devices.append(InputDevice(id: Int(device.deviceid), name: String(cString: name)))
    }
    return devices
  }

  private func hasProperty(_ device: Int, _ property: Atom) -> Bool {
    var count: Int32 = 0
    guard let list = XIListProperties(display, Int32(truncatingIfNeeded: device), &count) else { return false }
    defer { XFree(list) }
    return buffer(list, count).contains(property)
  }

  /// Sets a device's `Coordinate Transformation Matrix` (9 FLOATs, format 32, packed as 32-bit
  /// items as XI2 sends them) and waits for the server's answer.
  public func setTransformMatrix(device: Int, _ matrix: [Double]) throws(DisplayError) {
    guard matrix.count == 9 else { throw .request(unknownFailure("XIChangeProperty (a matrix needs 9 values)")) }
    let serial = nextRequest
    var items = matrix.map { Float($0).bitPattern }
    let property = atom("Coordinate Transformation Matrix")
    let float = atom("FLOAT")
    items.withUnsafeMutableBytes { raw in
      XIChangeProperty(
        display, Int32(truncatingIfNeeded: device), property, float, 32, PropModeReplace,
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 9)
    }
    if let error = try syncErrors(since: serial).first { throw .request(error.failure) }
  }

  /// Whether an XI2 generic event is a hierarchy change that added or enabled a device.
  func isDeviceAdded(_ event: inout XEvent) -> Bool {
    guard event.xcookie.evtype == XI_HierarchyChanged else { return false }
    guard XGetEventData(display, &event.xcookie) != 0, let data = event.xcookie.data else { return false }
    defer { XFreeEventData(display, &event.xcookie) }
    let flags = data.assumingMemoryBound(to: XIHierarchyEvent.self).pointee.flags
    return flags & (XISlaveAdded | XIDeviceEnabled | XISlaveAttached) != 0
  }
}
