// Writing output files whole or not at all (contract §3).
//
// Every file d2s writes (outputs YAML, graphs, pictures, reports, dumped weights)
// goes through write_file_atomic: the bytes go to a temporary file in the target's
// own directory, are flushed to disk, and the temporary is renamed over the target.
// rename() within one file system is atomic, so a reader — or a d2s run that fails
// half-way — sees either the old file or the complete new one, never a torn one.
#pragma once

#include <string>
#include <string_view>

namespace d2s {

// Writes `contents` to `path` atomically. Throws d2s::Error (exit 2) naming the
// path and the system's reason when the file cannot be written; the temporary is
// removed and an existing file at `path` is left untouched.
void write_file_atomic(const std::string& path, std::string_view contents);

// True when `a` and `b` name the same existing file (after symlinks and `..`);
// the CLI uses it to refuse writing an output over one of its input files.
bool same_file(const std::string& a, const std::string& b);

}  // namespace d2s
