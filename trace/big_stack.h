// Running a program on a large stack.
//
// The interpreter recurses as deep as the program's calls nest, so the call-depth
// limit, not the platform's 8 MB default stack, must decide how deep a program may
// recurse. run_on_big_stack runs a job on a 512 MB stack: the calling thread switches onto
// it, or, when it is in use, a helper thread with a stack of its own runs the job.
#pragma once

#include <cstddef>
#include <functional>

namespace d2s {

// Calls fn(budget) on a large stack and returns when it returns, so the job runs strictly
// in sequence with its caller. `budget` is how many bytes of that stack the job may use
// (the interpreter's stack guard keeps its margin below it).
// An exception fn throws comes back here as a d2s::Error (others are wrapped).
void run_on_big_stack(const std::function<void(size_t budget)>& fn);

}  // namespace d2s
