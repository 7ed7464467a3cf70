#include "bench/bench_common.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/base/source.h"
#include "core/tensor/random.h"

namespace d2s::bench {

namespace {
std::string& dir_setting() {
  static std::string dir = "bench-programs";
  return dir;
}
}  // namespace

const std::string& programs_dir() {
  return dir_setting();
}

void set_programs_dir(const std::string& dir) {
  dir_setting() = dir;
}

std::string read_program(const std::string& name) {
  const std::string path = programs_dir() + "/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path + " (run bench/gen_programs.py first)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

convert::LoweredGraph lower(const std::string& name, const std::map<std::string, Shape>& shapes) {
  convert::LowerOptions opts;
  opts.input_shapes = shapes;
  auto file = std::make_shared<const SourceFile>(programs_dir() + "/" + name, read_program(name));
  return convert::lower_program(file, opts);
}

Tensor random_tensor(const Shape& shape, uint64_t seed) {
  Generator gen(seed);
  Tensor t = Tensor::empty(shape, DType::Float32);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = 2 * gen.uniform() - 1;
  return t;
}

}  // namespace d2s::bench
