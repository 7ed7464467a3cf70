#include "core/tensor/autograd_hooks.h"

#include <atomic>

namespace d2s {

namespace {
std::atomic<GradFnNamer> g_namer{nullptr};
}  // namespace

void set_grad_fn_namer(GradFnNamer namer) {
  g_namer.store(namer, std::memory_order_release);
}

std::string grad_fn_name_for_repr(const Tensor& t) {
  if (!t.defined() || !t.impl()->autograd) return "";
  GradFnNamer namer = g_namer.load(std::memory_order_acquire);
  return namer ? namer(t) : "";
}

}  // namespace d2s
