extension Mode {
  /// `1920x1080@60.00`, with `i` for an interlaced mode: how logs, reports and warnings name
  /// a mode.
  public var label: String { "\(name)@" + fixed(refreshHz, places: 2) + (isInterlaced ? "i" : "") }
}

/// `value` with exactly `places` decimals, like printf's `%.Nf`.
public func fixed(_ value: Double, places: Int) -> String {
  // Non-finite, or too large to scale into an Int: as Swift prints it, never a trap.
  guard value.isFinite, abs(value) < 1e15 else { return String(value) }
  var scale = 1
  for _ in 0..<places { scale *= 10 }
  let scaled = Int((abs(value) * Double(scale)).rounded())
  let whole = String(scaled / scale)
  let frac = String(scaled % scale)
  let sign = value < 0 && scaled != 0 ? "-" : ""
  guard places > 0 else { return sign + whole }
  return sign + whole + "." + String(repeating: "0", count: places - frac.count) + frac
}

/// `value` rounded half away from zero to `places` decimals.
public func rounded(_ value: Double, places: Int) -> Double {
  var scale = 1.0
  for _ in 0..<places { scale *= 10 }
  return (value * scale).rounded() / scale
}
