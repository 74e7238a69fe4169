import CLinux

/// Gives the pages of freed memory back to the kernel: glibc's allocator keeps the pages of
/// a picture's surfaces (megabytes for a large monitor) after they are freed, which would
/// stay in the daemon's resident set for its whole life.
package func releaseFreedMemory() {
  _ = malloc_trim(0)
}
