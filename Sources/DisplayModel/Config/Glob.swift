#if canImport(Glibc)
  import Glibc
#endif

/// Shell-style glob match (`*`, `?`, `[...]`), as fnmatch(3) does it.
public func globMatch(_ pattern: String, _ name: String) -> Bool {
  fnmatch(pattern, name, 0) == 0
}
