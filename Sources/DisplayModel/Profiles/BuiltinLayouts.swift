/// Built-in layouts as profiles: a pure function of the monitors present, the config and
/// main (`HeadBuiltinLayouts` makes them over heads). Each connected monitor (not
/// `non-desktop`) gets an entry; lit ones get their `monitors` rule's mode (else preferred),
/// main the mode it has (or `mainMode`). Rules' other keys do not apply: a layout asked for
/// by hand lights what it names.
public enum BuiltinLayouts {
  /// Main's alias inside a built-in layout (spaces: no config alias can take it).
  static let mainAlias = "built-in layout main"

  /// A mode's size, for the sizes every monitor lists.
  struct SizeKey: Hashable {
    var width: Int
    var height: Int
  }
}
