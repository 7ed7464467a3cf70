#include "core/base/allocator.h"

#include <malloc.h>

namespace d2s {

void configure_process_allocator() {
  // Setting any of these stops glibc's own adjustment of the mapping threshold, so all
  // three are set to where that adjustment ends (its 64-bit maximum, and twice it).
  constexpr int kMib = 1 << 20;
  mallopt(M_MMAP_THRESHOLD, 32 * kMib);
  mallopt(M_TRIM_THRESHOLD, 64 * kMib);
  mallopt(M_TOP_PAD, 16 * kMib);
}

}  // namespace d2s
