// How the d2s program (cli/) and its benchmarks set up the C allocator for the
// process. A library does not change a process's allocator, so nothing else calls it.
#pragma once

namespace d2s {

// glibc's malloc as a long conversion warms it up anyway: allocations up to 32 MB from
// the heap (not a fresh mapping each), the heap grown 16 MB at a time and trimmed past
// 64 MB. Unset, a 100,000-node trace grew its heap 128 KB per system call (an eighth of
// `d2s diff`'s time went to growing it). Only address space is reserved ahead; memory
// is still touched only when used. Call first thing in main().
void configure_process_allocator();

}  // namespace d2s
