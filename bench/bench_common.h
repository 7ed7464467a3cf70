// What the benchmark programs share: where the generated workloads are, and how a
// workload becomes a planned graph with its inputs.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "convert/lower.h"
#include "core/exec/executor.h"
#include "core/tensor/ivalue.h"

namespace d2s::bench {

// The folder bench/gen_programs.py wrote (`--programs=DIR`, default "bench-programs").
const std::string& programs_dir();
void set_programs_dir(const std::string& dir);

// The text of a generated program; throws when it is missing (run gen_programs.py).
std::string read_program(const std::string& name);

// A program lowered by the parse route, with its tensor inputs' shapes known.
convert::LoweredGraph lower(const std::string& name, const std::map<std::string, Shape>& shapes);

// A float tensor of `shape` with values in [-1, 1), the same for every call.
Tensor random_tensor(const Shape& shape, uint64_t seed);

}  // namespace d2s::bench
