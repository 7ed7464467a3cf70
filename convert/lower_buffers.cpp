// --weights for a module's buffers in the parse route. A buffer (register_buffer) is a
// plain tensor attribute there, frozen into the graph as a constant when forward reads
// it; a state_dict holds every persistent buffer beside the parameters, so its value
// from the weights file is copied into the instance before lowering, as eager mode
// loads it (trace/entry.cpp).
#include <cstring>
#include <map>

#include "trace/interp.h"

namespace d2s::convert {

std::map<std::string, Tensor> load_buffer_weights(const interp::InstanceValue& m,
                                                  const std::map<std::string, Tensor>& weights) {
  std::vector<std::pair<std::string, Tensor>> buffers;
  interp::Interpreter::collect_buffers(m, "", true, &buffers);
  std::map<std::string, Tensor> rest = weights;
  for (auto& [name, t] : buffers) {
    auto it = rest.find(name);
    if (it == rest.end()) {
      throw Error("the weights do not set buffer '" + name + "'", SourceRange(),
                  "a state_dict holds every persistent buffer of the module");
    }
    const Tensor& w = it->second;
    if (w.shape() != t.shape() || w.dtype() != t.dtype()) {
      throw Error("the weights give buffer '" + name + "' " + dtype_name(w.dtype()) + " " +
                      shape_str(w.shape()) + " but the module's buffer is " +
                      dtype_name(t.dtype()) + " " + shape_str(t.shape()),
                  SourceRange());
    }
    Tensor dst = t;
    std::memmove(dst.data<char>(), w.data<char>(),
                 static_cast<size_t>(w.numel()) * dtype_size(w.dtype()));
    rest.erase(it);
  }
  return rest;
}

}  // namespace d2s::convert
