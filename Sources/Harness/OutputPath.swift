import Foundation

/// Why results cannot be written to `path`, or nil when they can: checked before a run measures
/// anything. Results are written to `path.partial` and renamed over `path`, which would replace
/// a device (as root, `/dev/full` became a regular file) and fails on a directory only after
/// the whole run. A path that does not exist yet is fine (its directories are made).
///
/// - Complexity: two `stat` calls.
public func outputPathProblem(_ path: String) -> String? {
  var status = stat()
  if lstat(path, &status) == 0 {
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: return "is a directory; name a file"
    case S_IFLNK: return "is a symbolic link; name the file itself"
    default: return "is not a regular file (a device, pipe or socket); name a file"
    }
  }
  let directory = (path as NSString).deletingLastPathComponent
  let parent = directory.isEmpty ? "." : directory
  if stat(parent, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
    return "\(parent) is not a directory"
  }
  return nil
}
