import CXrandr
import Foundation

/// Makes RandR output properties on a test server, as a driver would (`XRRConfigureOutputProperty`
/// and an initial `XRRChangeOutputProperty`), and counts the property changes the server
/// announces: a property set again, even to the value it has, is one more notify.
public final class PropertyRig {
  public let display: OpaquePointer
  let root: Window
  var eventBase: Int32 = 0

  public init(_ name: String) throws {
    guard let d = XOpenDisplay(name) else { throw RigError("cannot open \(name)") }
    XSetIOErrorHandler { _ in 0 }
    XSetIOErrorExitHandler(d, { _, _ in }, nil)
    XSetErrorHandler { _, _ in 0 }
    display = d
    root = XDefaultRootWindow(d)
    var error: Int32 = 0
    guard XRRQueryExtension(d, &eventBase, &error) != 0 else { throw RigError("no RandR on \(name)") }
  }

  deinit { XCloseDisplay(display) }

  public func output(_ name: String) throws -> RROutput {
    guard let res = XRRGetScreenResourcesCurrent(display, root) else { throw RigError("no screen resources") }
    defer { XRRFreeScreenResources(res) }
    for i in 0..<Int(res.pointee.noutput) {
      let id = res.pointee.outputs[i]
      guard let info = XRRGetOutputInfo(display, res, id) else { continue }
      defer { XRRFreeOutputInfo(info) }
      if String(cString: info.pointee.name) == name { return id }
    }
    throw RigError("no output \(name)")
  }

  func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

  /// An enum property (type ATOM) with these values, holding `initial`.
  public func createEnum(_ output: String, _ property: String, values: [String], initial: String) throws {
    let id = try self.output(output)
    var atoms = values.map { Int(bitPattern: atom($0)) }
    XRRConfigureOutputProperty(display, id, atom(property), 0, 0, Int32(atoms.count), &atoms)
    var value = Int(bitPattern: atom(initial))
    withUnsafeBytes(of: &value) { raw in
      XRRChangeOutputProperty(
        display, id, atom(property), XA_ATOM, 32, PropModeReplace, raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
        1)
    }
    XSync(display, 0)
  }

  /// A range property (type INTEGER, format 32) of `range`, holding `initial`.
  public func createRange(_ output: String, _ property: String, range: ClosedRange<Int>, initial: Int) throws {
    let id = try self.output(output)
    var bounds = [range.lowerBound, range.upperBound]
    XRRConfigureOutputProperty(display, id, atom(property), 0, 1, 2, &bounds)
    var value = initial
    withUnsafeBytes(of: &value) { raw in
      XRRChangeOutputProperty(
        display, id, atom(property), XA_INTEGER, 32, PropModeReplace,
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
    }
    XSync(display, 0)
  }

  /// From now on, counts the server's notifies of changed output properties.
  public func watchChanges() {
    XRRSelectInput(display, root, Int32(RROutputPropertyNotifyMask))
    XSync(display, 0)
  }

  /// The property notifies received so far, by property name (after `watchChanges`).
  public func changes() -> [String] {
    XSync(display, 0)
    var names: [String] = []
    var event = XEvent()
    while XPending(display) > 0 {
      XNextEvent(display, &event)
      guard event.type == eventBase + RRNotify, cx_rr_subtype(&event) == RRNotify_OutputProperty else { continue }
      let atom = cx_rr_output_property_atom(&event)
      if let name = XGetAtomName(display, atom) {
        names.append(String(cString: name))
        XFree(name)
      }
    }
    return names
  }
}

/// The value `xrandr --prop` shows for a property of an output (the text after `NAME: `).
public func xrandrProperty(_ text: String, output: String, property: String) -> String? {
  var inOutput = false
  for line in text.split(separator: "\n").map(String.init) {
    if !line.hasPrefix(" ") && !line.hasPrefix("\t") {
      inOutput = line.hasPrefix(output + " ")
      continue
    }
    let trimmed = line.drop { $0 == "\t" || $0 == " " }
    if inOutput, trimmed.hasPrefix(property + ": ") {
      return String(trimmed.dropFirst(property.count + 2)).trimmingCharacters(in: .whitespaces)
    }
  }
  return nil
}

/// The `Coordinate Transformation Matrix` that `xinput list-props` shows for a device.
public func xinputMatrix(_ text: String) -> [Double]? {
  guard let line = text.split(separator: "\n").first(where: { $0.contains("Coordinate Transformation Matrix") }),
    let colon = line.lastIndex(of: ":")
  else { return nil }
  let values = line[line.index(after: colon)...].split(separator: ",").compactMap {
    Double($0.trimmingCharacters(in: .whitespaces))
  }
  return values.count == 9 ? values : nil
}
